"""The oracle's queries: what a model could ask knowing the task and what it has seen so far.

``cues(step, page, target, seen)`` collects the allowed knowledge: the task's naming words and
quoted phrase (``query_from_instruction``), the target's visible label only when the task or an
earlier observation/tool result shows it (or it is a stock control label such as "Submit"), the role when the task implies it (typing needs a
textbox, "the OK button"), a landmark or heading the task names. Never the target's ref.

``first_query`` builds one query in a template picked by the seeded rng (``canonical``: the most
specific template that applies, in ``CANONICAL_ORDER``, with no random choice left in it). When
the model cannot know the target's label (a field the task does not name) but knows its role and
the page holds few elements of it, ``role`` lists them all: the model reads their labels in the
result instead of guessing with leftover task words;
``refinements`` lists the follow-ups a model would try after a miss (drop a filter, add the role,
other task words, list every element of the role), best first. Templates and their default
weights::

    text          {"text": phrase}                                       0.30
    text_role     {"text": phrase, "role": role}                         0.25
    keywords      {"keyword_weights": {phrase: hi, word: lo, ...}}       0.20
    instruction   query_from_instruction(task) as it is                   0.10
    scoped        text + within_landmark / near_heading the task names    0.15
    role          {"role": role}: label unknown, at most 10 of the role   0.10
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from datagen.records import Step
from pipeline.distill.model import DistilledPage
from pipeline.query import index_for
from pipeline.query.filters import landmark_spec, role_test
from pipeline.query.instruction import PLANNER_ONLY, query_from_instruction
from pipeline.query.text import analyse, words

TEMPLATES: dict[str, float] = {
    "text": 0.30, "text_role": 0.25, "keywords": 0.20, "instruction": 0.10, "scoped": 0.15,
    "role": 0.10,
}  # fmt: skip
CANONICAL_ORDER = ("scoped", "role", "text_role", "text", "keywords", "instruction")
ROLES = ("button", "link", "textbox", "checkbox", "radio", "combobox", "tab", "option",
         "menuitem", "slider", "spinbutton", "switch", "treeitem")
_ROLE_WORDS = {
    "button": "button", "link": "link", "checkbox": "checkbox", "radio": "radio", "tab": "tab",
    "option": "option", "field": "textbox", "textbox": "textbox", "box": "textbox",
    "input": "textbox", "dropdown": "combobox", "menu": "menuitem", "slider": "slider",
}  # fmt: skip
_LANDMARK_WORDS = {
    "NAV": {"navigation", "nav", "menu"}, "FOOTER": {"footer", "bottom"},
    "HEADER": {"header", "top"}, "ASIDE": {"sidebar", "side", "filter", "filters"},
    "SEARCH": {"search"}, "FORM": {"form"},
}  # fmt: skip
_WEIGHT_SCALES = ((3.0, 1.0), (10.0, 5.0), (40.0, 20.0), (1.0, 0.5), (5.0, 2.0))
_MAX_LABEL_WORDS = 6
# labels any web agent expects a form's control to carry, named by a task or not ("Search for
# crime movies ..." ends on a "Submit" button)
_STOCK_LABELS = {"submit", "search", "ok", "next", "login", "log in", "sign in"}
_ROLE_LIST_MAX = 20  # "list every textbox" is a sensible query when there are this few
_ROLE_FIRST_MAX = 10  # ... and a sensible FIRST query when all of them fit in a default result


@dataclass(slots=True)
class Cues:
    """What the oracle may put in a query for one step."""

    op: str
    value: str
    words: list[str]  # the task's naming words, in task order, value words removed
    phrase: str  # the best naming phrase: quoted, or the target's label as the task says it
    instruction_args: dict[str, Any]  # query_from_instruction's arguments
    role: str | None = None  # the target's role, when the task implies it
    target_role: str | None = None  # the target's role (for refinements: "add the role")
    landmark: str | None = None  # a landmark the task names that holds the target
    heading: str | None = None  # a heading the task names whose section holds the target
    label: str = ""  # the target's label, when the task or what the model read shows it
    role_count: int = 0  # elements of ``role`` on the page (counted when the label is unknown)


def cues(step: Step, page: DistilledPage, target: int, seen: str) -> Cues:
    """The knowledge a query may use; ``seen`` is the text the model has read so far."""
    plan = query_from_instruction(step.task)
    value_terms = set(_terms(step.operation.value))
    weights = plan.arguments.get("keyword_weights", {})
    naming = [w for w in weights if not value_terms or not set(_terms(w)) <= value_terms]
    quoted = " ".join(w for w in naming if weights[w] > 1.0)
    entry = index_for(page).entries[target]
    label = _visible_label(entry.shown_name, step.task, seen)  # a field: its row's label too
    target_role = next((r for r in ROLES if role_test(r)(entry)), None)
    args = {k: v for k, v in plan.arguments.items()
            if k != "max_results" and k not in PLANNER_ONLY}  # the model's tool has neither
    found = Cues(step.operation.op, step.operation.value, naming,
                 label or quoted or " ".join(naming), args, target_role=target_role)
    found.role = _implied_role(step, target_role, entry)
    if found.role and not label:  # only the "role" template reads it
        found.role_count = _count(page, found.role)
    found.landmark = _named_landmark(page, target, step.task)
    found.heading = _named_heading(page, target, naming)
    found.label = label
    return found


def first_query(c: Cues, rng: random.Random, weights: dict[str, float],
                canonical: bool = False) -> tuple[str, dict]:
    """(template name, query_elements arguments) for the first query of a step."""
    usable = {name: w for name, w in weights.items() if _applies(name, c) and w > 0}
    if not usable:
        return "instruction", dict(c.instruction_args) or {"text": c.phrase}
    if canonical:
        name = next(n for n in CANONICAL_ORDER if n in usable)
    else:
        name = rng.choices(list(usable), weights=list(usable.values()))[0]
    return name, _build(name, c, None if canonical else rng)


def refinements(c: Cues, first: dict[str, Any], page: DistilledPage,
                rng: random.Random | None) -> list[tuple[str, dict]]:
    """Follow-up queries after a miss, each with a short description of the change (``rng``
    None: canonical, no random choice)."""
    out: list[tuple[str, dict]] = []
    looser = {k: v for k, v in first.items()
              if k not in ("role", "within_landmark", "near_heading", "max_results")}
    if looser and looser != first:
        out.append(("dropping the filters", looser))
    if c.target_role and c.phrase:
        out.append((f"narrowing to {c.target_role}s", {"text": c.phrase, "role": c.target_role}))
    if c.label and c.label != c.phrase:
        out.append((f'searching for "{c.label}"', {"text": c.label}))
    if c.landmark:
        out += _scoped(c, c.landmark)
    if len(c.words) > 1:
        out.append(("weighing every word of the task", _keywords(c, rng)))
    for word in c.words:
        out.append((f'trying the word "{word}"', {"text": word}))
    if c.target_role and _few(page, c.target_role):
        out.append((f"listing every {c.target_role}", {"role": c.target_role}))
    return [(why, args) for why, args in out if args]


def _scoped(c: Cues, landmark: str) -> list[tuple[str, dict]]:
    """Queries inside the landmark the task names: each task word, then the role alone."""
    why = f"searching only in {landmark}"
    out = [(why, {"text": word, "within_landmark": landmark}) for word in c.words]
    if c.target_role:
        out.append((f"listing the {c.target_role}s in {landmark}",
                    {"role": c.target_role, "within_landmark": landmark}))
    return out


def _few(page: DistilledPage, role: str) -> bool:
    """Whether listing every element of ``role`` gives a short list."""
    return _count(page, role) <= _ROLE_LIST_MAX


def _count(page: DistilledPage, role: str) -> int:
    test = role_test(role)
    return sum(1 for e in index_for(page).entries.values() if test(e))


def _applies(name: str, c: Cues) -> bool:
    if name == "role":
        return not c.label and c.role is not None and 0 < c.role_count <= _ROLE_FIRST_MAX
    if not c.phrase and name != "instruction":
        return False
    if name == "text_role":
        return c.role is not None
    if name == "keywords":
        return bool(c.words)
    if name == "scoped":
        return c.landmark is not None or c.heading is not None
    return True


def _build(name: str, c: Cues, rng: random.Random | None) -> dict[str, Any]:
    """The template's arguments; random choices from ``rng``, or none when it is None (the
    landmark before the heading, the role whenever the task implies one)."""
    if name == "instruction":
        return dict(c.instruction_args)
    if name == "keywords":
        return _keywords(c, rng)
    if name == "role":
        return {"role": c.role}
    args: dict[str, Any] = {"text": c.phrase}
    if name == "text_role":
        args["role"] = c.role
    elif name == "scoped":
        scopes = [s for s in (("within_landmark", c.landmark), ("near_heading", c.heading)) if s[1]]
        key, value = rng.choice(scopes) if rng else scopes[0]
        args[key] = value
        if c.role and (rng is None or rng.random() < 0.5):
            args["role"] = c.role
    return args


def _keywords(c: Cues, rng: random.Random | None) -> dict[str, Any]:
    high, low = rng.choice(_WEIGHT_SCALES) if rng else _WEIGHT_SCALES[0]
    weights: dict[str, float] = {}
    if c.phrase and len(c.phrase.split()) > 1:
        weights[c.phrase] = high
    for word in c.words:
        weights.setdefault(word, high if c.phrase == word else low)
    args: dict[str, Any] = {"keyword_weights": weights}
    if c.role and c.op != "CLICK":
        args["role"] = c.role
    return args


def _terms(text: str) -> tuple[str, ...]:
    return analyse(text)[0] if text else ()


def _visible_label(label: str, task: str, seen: str) -> str:
    """The target's label as the model could write it: the task's own span when the task
    holds it, else the label when the model has read it; "" otherwise."""
    label = " ".join(label.split())
    terms = _terms(label)
    if not terms or len(label.split()) > _MAX_LABEL_WORDS:
        return ""
    whole = _whole(label)
    found = whole.search(task)
    if found:
        return label if label.isdigit() else found.group(0)
    if set(terms) <= set(_terms(task)):
        return " ".join(w for w in words(label))
    return label if whole.search(seen) or label.lower() in _STOCK_LABELS else ""


def _whole(label: str) -> re.Pattern[str]:
    """``label`` as a whole phrase, any case: a label "R" is not in "Submit" nor "ac" in
    "back"; a number also as written with leading zeros ("6" in "12/06/2016")."""
    body = rf"0*{int(label)}" if label.isdigit() else re.escape(label)
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def _implied_role(step: Step, target_role: str | None, entry) -> str | None:
    """The role a model would filter on: from the operation or a role word in the task."""
    wanted = {"TYPE": "textbox", "SELECT": "combobox"}.get(step.operation.op)
    for word in words(step.task):
        wanted = wanted or _ROLE_WORDS.get(word)
    if wanted and role_test(wanted)(entry):
        return wanted
    return None


def _named_landmark(page: DistilledPage, target: int, task: str) -> str | None:
    task_words = set(words(task))
    task_terms = set(_terms(task))
    named = None
    for landmark in page.landmarks:  # document order: nested landmarks come later
        if target not in landmark.refs:
            continue
        by_name = landmark.name and set(_terms(landmark.name)) & task_terms
        if by_name or _LANDMARK_WORDS.get(landmark.label, set()) & task_words:
            named = landmark_spec(landmark)
    return named


def _named_heading(page: DistilledPage, target: int, naming: list[str]) -> str | None:
    naming_terms = {t for w in naming for t in _terms(w)}
    best = None
    for heading in page.headings:
        terms = set(_terms(heading.text))
        if target in heading.refs and terms and len(terms & naming_terms) * 2 >= len(terms):
            best = heading.text
    return best
