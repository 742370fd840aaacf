"""The oracle teacher: knows the target, asks only what the task (and the page so far) justifies.

    teacher = OracleTeacher(OracleConfig())
    trajectory = teacher.propose(step, page, "query_only", step_rng(seed, step.step_id))

Flow of one step (every random choice from the step's rng, so a seed fixes the trajectory):

1. ``full`` mode, ``planned`` when the step's candidates (or the text fields the overview
   lists) show the target, or ``hybrid`` when the outline shows it (with ``hybrid_direct``):
   act directly on the ref the page shows.
2. When the step types a value the model has not read (a table's cell, the text
   under the task), first the text of the smallest region that shows it (``get_region`` with
   ``content_type="text"``, at most ``region_max_refs`` elements), so no turn teaches a student
   to write a value it cannot see; a value no region shows stays unread, and the verifier
   rejects it (``ungrounded_value``).
3. Sometimes a preface: ``get_page_summary`` (``summary_prob``) or ``get_region`` of a
   landmark the task names (``region_prob``).
4. The first query in a template picked by the rng (see ``oracle_queries``), run on the real
   engine; it may miss, and then stays in the conversation as a miss.
5. After a miss, the first refinement that finds the target (checked on the engine before it is
   written), else a last resort: read the text of the smallest landmark holding the target,
   then query the words read there. At most ``max_queries`` queries are written.
6. The action (click / type / select with the step's value) on the best-ranked target of the
   last result. If nothing found it, the action goes to the top result and ``meta.found`` is
   false: the verifier rejects it.

``policy: canonical`` takes every random choice out of the calls: no preface, no
``max_results``, the most specific query template that applies, and the same refinements --
one query per situation, a function of what the model sees, which a small student can imitate
exactly; the rationale keeps one wording per situation too (random wording is loss a student
cannot lower, and gradient spent on it), and the first query's rationale starts with the word
that names the kind of query ("Listing" / "Searching" / "Trying"), where the student decides
it. ``varied`` (the default) draws them from the rng.

A query "finds" the target when a positive ref is among its first ``max_rank`` results.
``meta`` records the template, preface, queries written, refinements and whether it was found.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from datagen.records import Mode, Step, Trajectory, names_element, pressed_key
from datagen.teachers import rationale
from datagen.teachers.base import make_trajectory, target_refs
from datagen.teachers.oracle_queries import TEMPLATES, Cues, cues, first_query, refinements
from datagen.verify.grounding import passage_grounded, value_grounded
from pipeline.agent.conversation import Conversation
from pipeline.agent.execute import ToolResult, execute_offline
from pipeline.agent.observe import without_tool_list
from pipeline.agent.progress import PreviousStep
from pipeline.distill.model import DistilledPage
from pipeline.errors import FormatError
from pipeline.html.mind2web_format import parse_drag_value
from pipeline.query import query_elements
from pipeline.query.filters import landmark_spec
from pipeline.tools import ToolCall, make_call

_SMALL_LIMITS = (5, 10)
_OWN_CALL_OPS = ("HOVER", "SCROLL", "DRAG", "CLEAR")  # original ops with their own action


@dataclass(slots=True)
class OracleConfig:
    policy: Literal["varied", "canonical"] = "varied"  # canonical: no random choice in calls
    summary_prob: float = 0.15  # get_page_summary before the first query
    region_prob: float = 0.10  # get_region of a landmark the task names before the first query
    hybrid_direct: float = 0.7  # hybrid: act directly when the outline shows the target
    max_queries: int = 3  # queries written at most (first, a refinement, the last resort)
    max_rank: int = 10  # a query finds the target when it ranks within this
    limit_prob: float = 0.2  # sometimes ask for max_results 5 or 10 (when the target fits)
    region_max_refs: int = 40  # the last resort reads a landmark at most this large
    templates: dict[str, float] = field(default_factory=lambda: dict(TEMPLATES))

    def validate(self) -> list[str]:
        problems = [f"{key}: must be within 0..1" for key in
                    ("summary_prob", "region_prob", "hybrid_direct", "limit_prob")
                    if not 0.0 <= getattr(self, key) <= 1.0]
        if self.summary_prob + self.region_prob > 1.0:
            problems.append("summary_prob + region_prob: must be at most 1")
        if self.max_queries < 1 or self.max_rank < 1:
            problems.append("max_queries and max_rank: must be >= 1")
        unknown = set(self.templates) - set(TEMPLATES)
        if unknown:
            problems.append(f"templates: unknown {sorted(unknown)}; known: {sorted(TEMPLATES)}")
        if not any(w > 0 for w in self.templates.values()):
            problems.append("templates: give at least one template a weight > 0")
        return problems


class OracleTeacher:
    name = "oracle"

    def __init__(self, config: OracleConfig | None = None):
        self.config = config or OracleConfig()

    def propose(self, step: Step, page: DistilledPage, mode: Mode, rng: random.Random,
                previous: PreviousStep | None = None) -> Trajectory:
        convo = Conversation.open(step.task, step.history, page, mode, previous)
        targets = target_refs(page, step.positives)
        meta: dict[str, Any] = {"targets": targets, "queries": 0, "found": False}
        key = step.operation.pressed_key
        if key is not None:  # the key goes where the focus is: no search
            meta |= {"template": "press", "found": True}
            convo.act(make_call("press", key=key), rationale.press(key))
        elif step.operation.original_op == "SELECT_TEXT":  # found by its text: no search
            _Run(self.config, step, page, convo, targets, rng, meta).quote()
        elif not targets:
            meta["error"] = (f"no_target: none of the positives {step.positives} is an element "
                             "of the distilled page")
        else:
            _Run(self.config, step, page, convo, targets, rng, meta).play(mode)
        return make_trajectory(step, mode, self.name, convo.messages, meta)


@dataclass
class _Run:
    """One step's play: the conversation so far, what the model has read, and the meta."""

    config: OracleConfig
    step: Step
    page: DistilledPage
    convo: Conversation
    targets: list[int]
    rng: random.Random
    meta: dict[str, Any]
    seen: str = ""
    last: ToolResult | None = None

    @property
    def canonical(self) -> bool:
        return self.config.policy == "canonical"

    @property
    def voice(self) -> random.Random:
        """Where the rationale's wording is drawn from: the step's rng, or under ``canonical``
        the same fixed draw every time (one wording per situation, like the calls)."""
        return random.Random(0) if self.canonical else self.rng

    def play(self, mode: Mode) -> None:
        # what a student reads: the user turn without the tool list (cut when training renders
        # it); its descriptions' words ("close a dialog", "submit a form") are no page's labels
        self.seen = without_tool_list(self.convo.observation)
        self._read_value()
        shown = [ref for ref in self.targets if f"[{ref}]" in self.seen]
        direct = mode in ("full", "planned") or (
            mode == "hybrid" and self.rng.random() < self.config.hybrid_direct)
        if shown and direct:
            self.meta |= {"template": "direct", "found": True}
            return self._act(shown[0], "page")
        if not self.canonical:
            self._preface()
        c = cues(self.step, self.page, self.targets[0], self.seen)
        template, args = first_query(c, self.rng, self.config.templates, self.canonical)
        self.meta["template"] = template
        args = self._limit(args)
        if self.canonical:
            kind = "role" if template == "role" else "label" if c.label else "words"
            thinking = rationale.canonical_query_intent(kind, args, c.op, c.value)
        else:
            thinking = rationale.query_intent(args, c.op, c.value, self.rng)
        found = self._query(args, thinking)
        self.meta["first_hit"] = found is not None
        if found is None:
            found = self._refine(c, args)
        if found is None and self.meta["queries"] < self.config.max_queries:
            found = self._last_resort()
        if found is not None:
            self.meta["found"] = True
            return self._act(found, "result")
        guess = self.last.refs[0] if self.last and self.last.refs else None
        if guess is not None:
            self._act(guess, "guess")

    def quote(self) -> None:
        """A passage to select: read the text showing it unless the model has read it, then
        select it (``meta.read``: the region read; none read and none shown, the verifier
        rejects it)."""
        self.seen = without_tool_list(self.convo.observation)
        self._read_value()
        passage = self.step.operation.value
        self.meta |= {"template": "select_text", "found": True}
        self.convo.act(make_call("select_text", text=passage), rationale.select_text(passage))

    def _read_value(self) -> None:
        """Read the text of the smallest region showing the step's value, when the step types
        it or selects it as a passage and nothing read so far shows it."""
        operation = self.step.operation
        grounded = (passage_grounded if operation.original_op == "SELECT_TEXT"
                    else value_grounded if operation.op == "TYPE" else None)
        if grounded is None or grounded(operation.value, self.seen):
            return
        small = [lm for lm in self.page.landmarks if len(lm.refs) <= self.config.region_max_refs]
        names = [landmark_spec(lm) for lm in sorted(small, key=lambda lm: len(lm.refs))]
        if len(self.page.refs) <= self.config.region_max_refs:
            names.append("PAGE")
        for name in names:
            call = make_call("get_region", landmark=name, content_type="text")
            if grounded(operation.value, execute_offline(call, self.page).text):
                self._read(call, rationale.read_value(name, operation.original_op or ""))
                self.meta["read"] = name
                return

    def _preface(self) -> None:
        draw = self.rng.random()
        if draw < self.config.summary_prob:
            self._read(make_call("get_page_summary"), rationale.summary_intent(self.voice))
            self.meta["preface"] = "summary"
            return
        landmark = cues(self.step, self.page, self.targets[0], self.seen).landmark
        if landmark and draw < self.config.summary_prob + self.config.region_prob:
            content = self.rng.choice(("interactive", "text"))
            call = make_call("get_region", landmark=landmark, content_type=content)
            self._read(call, rationale.region_intent(landmark, content, self.voice, False))
            self.meta["preface"] = "region"

    def _refine(self, c: Cues, first: dict[str, Any]) -> int | None:
        tried = [first]
        for why, args in refinements(c, first, self.page, None if self.canonical else self.rng):
            if self.meta["queries"] >= self.config.max_queries:
                break
            if args in tried or self._rank(args) is None:
                tried.append(args)
                continue
            self.meta["refinement"] = why
            return self._query(args, rationale.after_miss(why, self.voice))
        return None

    def _last_resort(self) -> int | None:
        """Read the text of the smallest landmark holding the target, then query its words."""
        holding = [lm for lm in self.page.landmarks if self.targets[0] in lm.refs
                   and len(lm.refs) <= self.config.region_max_refs]
        if not holding:
            return None
        landmark = landmark_spec(min(holding, key=lambda lm: len(lm.refs)))
        call = make_call("get_region", landmark=landmark, content_type="text")
        self._read(call, rationale.region_intent(landmark, "text", self.voice, True))
        label = cues(self.step, self.page, self.targets[0], self.seen).label
        args = {"text": label, "within_landmark": landmark}
        if not label or self._rank(args) is None:
            return None
        self.meta["refinement"] = "last_resort"
        return self._query(args, rationale.seen_in_region(label, landmark, self.voice))

    def _limit(self, args: dict[str, Any]) -> dict[str, Any]:
        """Sometimes a smaller ``max_results``, when the target still fits in it."""
        if self.canonical or self.rng.random() >= self.config.limit_prob:
            return args
        limit = self.rng.choice(_SMALL_LIMITS)
        rank = self._rank(args)
        return args | {"max_results": limit} if rank is not None and rank < limit else args

    def _rank(self, args: dict[str, Any]) -> int | None:
        """Where the first target ranks in the query's results (None: not in the top max_rank)."""
        refs = query_elements(self.page, **args).refs[: self.config.max_rank]
        return next((i for i, ref in enumerate(refs) if ref in self.targets), None)

    def _query(self, args: dict[str, Any], thinking: str) -> int | None:
        result = self._read(make_call("query_elements", **args), thinking)
        self.meta["queries"] += 1
        self.last = result
        refs = result.refs[: self.config.max_rank]
        return next((ref for ref in refs if ref in self.targets), None)

    def _read(self, call: ToolCall, thinking: str) -> ToolResult:
        result = self.convo.call(call, thinking)
        self.seen += "\n" + result.text
        return result

    def _act(self, ref: int, source: str) -> None:
        op, value, original = (self.step.operation.op, self.step.operation.value,
                               self.step.operation.original_op)
        named = original if original in _OWN_CALL_OPS else op
        thinking = rationale.act(self.page, ref, named, value, source, self.voice)
        self.convo.act(action_call(op, ref, value, original, self.page), thinking)


def label_call(op: str, value: str, original_op: str | None, refs: list[int],
               page: DistilledPage) -> ToolCall | None:
    """The call of a step's operation on the first of ``refs`` (its elements' refs); None when
    it acts on an element and none has a ref (select_text names none: its passage finds
    itself; a key press none: it goes where the focus is)."""
    if not refs and names_element(original_op, value):
        return None
    return action_call(op, refs[0] if refs else None, value, original_op, page)


def action_call(op: str, ref: int | None, value: str, original_op: str | None = None,
                page: DistilledPage | None = None) -> ToolCall:
    """The action of a step's operation on ``ref``: click / type / select, or hover, scroll,
    drag, clear, select_text for those ``original_op``s, press for a PRESS and Mind2Web's ENTER
    (a drag onto an element needs the ``page`` to find the drop target's ref; select_text and
    press take no ref)."""
    if op == "TYPE":
        return make_call("type", index=ref, text=value)
    if op == "SELECT":
        return make_call("select", index=ref, option=value)
    if original_op == "HOVER":
        return make_call("hover", index=ref)
    if original_op == "SCROLL":
        direction, _, amount = value.partition(":")
        return make_call("scroll", index=ref, direction=direction, amount=amount or "page")
    key = pressed_key(original_op, value)
    if key is not None:
        return make_call("press", key=key)
    if original_op == "CLEAR":
        return make_call("clear", index=ref)
    if original_op == "SELECT_TEXT":  # the passage names itself: no index
        return make_call("select_text", text=value)
    if original_op == "DRAG":
        return make_call("drag", index=ref, **_drop(value, page))
    return make_call("click", index=ref)


def _drop(value: str, page: DistilledPage | None) -> dict[str, int]:
    """drag's destination arguments from a DRAG value (``to:<backend id>`` or ``by:dx,dy``)."""
    to_id, offset = parse_drag_value(value)
    if offset is not None:
        return {"dx": offset[0], "dy": offset[1]}
    ref = None if page is None else page.ref_of(to_id)
    if ref is None:
        raise FormatError(f"the drag target (backend id {to_id}) is not an element of the page")
    return {"to_index": ref}
