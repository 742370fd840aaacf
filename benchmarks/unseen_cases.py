"""The steps of the generalisation benchmark: recorded MiniWoB++ episodes read back as the three
kinds of source a user brings, each without the runtime evidence a live capture has.

    for case in iter_cases("outputs/unseen/dump"):          # one Case per recorded action
        for variant in VARIANTS:                            # evidence, stripped, cleaned
            row = measure(case, variant)                    # coverage, rank, overlap rank, refs

Variants of one recorded action (the same page, the same target):

- ``evidence``: the ``raw_html`` as recorded (layout, ``is_clickable`` from the click listeners);
- ``stripped``: the same ``raw_html`` without ``is_clickable`` -- a DOM dump with no listener and
  no computed-cursor evidence, what crawled dumps and other people's recordings give;
- ``cleaned``: the action's ``cleaned_html`` (no layout, no ``href``, no ``is_clickable``), the
  form SeeAct and several public derivatives ship.

A step counts as covered when a positive (or an element around or inside it, within the
verifier's levels, whose text is the positive's own: a span's link, a checkbox's label, a menu
item's inner element) has a ref; its rank is where
``query_for_step`` (the task's clause at the step's position, nothing else) puts that ref. The
baseline ranks *every* element of the page by how many of the task's words its text and
attributes hold (fewest words first on ties, then document order), with no distilling at all,
and is credited by the same rule: a container that says more than the target (the menu around
the item, the task area around the printed task and the target) is not the target. A
``select_text`` step (``PASSAGE_OPS``) names its passage by text and no element, so it has no
ref to retrieve and is left out of Recall (the benchmark says how many).

Families (MiniWoB++ task names) whose SHA-1 is 0 mod 4 are never looked at while tuning the
engine (``held_out``; the rule was fixed before the first measurement), the families recorded
by ``unseen_policies`` (no datagen policy then) were added after the first tuning round and read
in the second (``new``), and the families whose datagen policies the breadth issue wrote later
were never read by any tuning of the markup reading or the queries until the third round, which
read half of them (``breadth-read``, chosen by a salted hash before looking) and left the other
half unread (``breadth``: the judge of that round's changes): ``part_of``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make `pipeline` importable
    sys.path.insert(0, str(REPO))

from unseen_policies import EXTRA_POLICIES

from datagen.mind2web import read_tasks
from datagen.verify.execution_stage import ANCESTOR_LEVELS
from pipeline.distill import distill
from pipeline.distill.model import DistilledPage
from pipeline.html.source import page_from_html
from pipeline.page_state import PageState
from pipeline.query import query_elements
from pipeline.query.instruction import query_for_step
from pipeline.query.text import STOP_WORDS, words
from pipeline.render.flat import render_flat

VARIANTS = ("evidence", "stripped", "cleaned")
KS = (1, 5, 10)
PASSAGE_OPS = frozenset({"SELECT_TEXT"})  # the action carries the passage, never a ref
# what other people's dumps lack: the listeners' evidence, and this project's scroll boxes
_CLICKABLE = re.compile(r'\s+(?:is_clickable="true"|scroll_rect="[^"]*")')
_SKIP_TAGS = frozenset({"#document", "html", "head", "body", "script", "style", "meta", "link",
                        "title", "noscript"})
_SKIP_ATTRS = frozenset({"backend_node_id", "bounding_box_rect", "style"})


# The families datagen had oracle policies for while the engine was tuned (issue 13): the tuned and
# held-out parts are drawn from these, fixed, so that policies added later (the breadth issue)
# never move a family the engine was never tuned on into "tuned".
TUNING_POOL = frozenset({
    "choose-date-easy", "choose-list", "click-button", "click-button-sequence", "click-checkboxes",
    "click-checkboxes-large", "click-collapsible-2", "click-dialog-2", "click-link",
    "click-option", "click-tab", "click-tab-2", "click-test-2", "click-widget", "email-inbox",
    "email-inbox-delete", "email-inbox-forward", "email-inbox-important", "email-inbox-noscroll",
    "email-inbox-reply", "enter-date", "enter-password", "enter-text", "enter-text-2",
    "enter-time", "find-word", "focus-text-2", "form-sequence-2", "guess-number", "login-user",
    "login-user-popup", "multi-orderings", "navigate-tree", "read-table", "search-engine",
    "simple-arithmetic", "social-media", "text-transform", "unicode-test", "use-autocomplete",
    "use-spinner",
})


# The families ``unseen_policies`` records (no datagen policy when they were added): read while
# tuning the second round, so they are no longer unseen.
NEW_FAMILIES = frozenset(EXTRA_POLICIES)


def held_out(family: str) -> bool:
    """Never tuned on: a quarter of the families, chosen by hash before any measurement."""
    return _bucket(family, 4) == 0


def breadth_read(family: str) -> bool:
    """A breadth family read in the third round (2026-11-27): half of them, chosen by a hash
    salted apart from ``held_out``'s, fixed before any of their pages was looked at."""
    return _bucket(f"breadth:{family}", 2) == 0


def part_of(family: str) -> str:
    """``tuned``, ``held-out`` (in the tuning pool, never looked at while tuning), ``new``
    (recorded by ``unseen_policies`` after the first round, read in the second),
    ``breadth-read`` (a later family, read in the third round) or ``breadth`` (any other
    family: its policy came later, and no tuning has read its pages)."""
    if family in NEW_FAMILIES:
        return "new"
    if family not in TUNING_POOL:
        return "breadth-read" if breadth_read(family) else "breadth"
    return "held-out" if held_out(family) else "tuned"


def _bucket(key: str, buckets: int) -> int:
    """A fixed bucket of ``key`` (its SHA-1, so the same on every machine and run)."""
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % buckets


def breadth_families(policies) -> list[str]:
    """The families of ``policies`` (datagen's, by task name; the impossible tasks have none)
    outside the tuning pool and the new ones (both breadth parts)."""
    return sorted(name for name in policies if part_of(name).startswith("breadth"))


@dataclass(slots=True)
class Case:
    step_id: str
    family: str
    task: str
    position: int  # actions taken before this one
    op: str
    raw_html: str
    cleaned_html: str
    positives: list[int]
    original_op: str = ""  # the recorder's own operation (SELECT_TEXT, DRAG, ...), "" when none

    @property
    def names_element(self) -> bool:
        """False for a step whose action finds its passage by text and names no element
        (``select_text``): no ref to retrieve, so no Recall to measure."""
        return self.original_op not in PASSAGE_OPS


def iter_cases(dump: str | Path) -> Iterator[Case]:
    """Every action with a positive, in file order."""
    for task in read_tasks(dump):
        data = task.data
        for position, action in enumerate(data["actions"]):
            positives = [int(c["backend_node_id"]) for c in action.get("pos_candidates") or []]
            if not positives:
                continue
            yield Case(f"{data['annotation_id']}:{action['action_uid']}", data["website"],
                       data["confirmed_task"], position, action["operation"]["op"],
                       action["raw_html"], action.get("cleaned_html") or "", positives,
                       action["operation"].get("original_op") or "")


def source_of(case: Case, variant: str) -> PageState:
    """The page of ``case`` as the variant's source gives it."""
    if variant == "evidence":
        return page_from_html(case.raw_html, kind="mind2web_raw")
    if variant == "stripped":
        return page_from_html(_CLICKABLE.sub("", case.raw_html), kind="mind2web_raw")
    if variant == "cleaned":
        return page_from_html(_CLICKABLE.sub("", case.cleaned_html), kind="mind2web_cleaned")
    raise ValueError(f"unknown variant {variant!r}; use one of {VARIANTS}")


def measure(case: Case, variant: str) -> dict:
    """One row: coverage, the engine's rank, the overlap baseline's rank, refs and page chars."""
    state = source_of(case, variant)
    page = distill(state)
    targets = target_refs(page, case.positives)
    plan = query_for_step(case.task, [""] * case.position)
    result = query_elements(page, **plan.arguments)
    rank = next((i for i, ref in enumerate(result.refs, 1) if ref in targets), None)
    return {
        "step": case.step_id, "family": case.family, "variant": variant, "op": case.op,
        "part": part_of(case.family), "covered": bool(targets), "refs": len(page.refs),
        "zero_refs": not page.refs, "chars": len(render_flat(page)),
        "rank": rank, "rank_overlap": overlap_rank(state, case.task, case.positives),
        "fallback": any(r.name == "interactivity" and "fallback" in r.note for r in page.report),
    }


def target_refs(page: DistilledPage, positives: list[int]) -> set[int]:
    """The refs that stand for a target: on the target itself or on an element around or inside
    it that says nothing else (``_credited_nodes``) -- never the list or menu that holds the
    target item among others."""
    credited = _credited_nodes(page.state, positives)
    return {ref for ref, dnode in page.refs.items() if dnode.node_id in credited}


def overlap_rank(state: PageState, task: str, positives: list[int]) -> int | None:
    """Rank of the first target among all elements ordered by shared task words."""
    wanted = {w for w in words(task) if w not in STOP_WORDS}
    hits = _credited_nodes(state, positives)
    scored = []
    for node in state.nodes:
        if not node.is_element or node.tag in _SKIP_TAGS:
            continue
        own = words(state.text_content(node.id)) + [
            w for k, v in node.attributes.items() if k not in _SKIP_ATTRS for w in words(v)]
        shared = len(wanted & set(own))
        if shared:
            scored.append((-shared, len(own), node.id))
    scored.sort()
    return next((i for i, (_, _, nid) in enumerate(scored, 1) if nid in hits), None)


def _credited_nodes(state: PageState, positives: list[int]) -> set[int]:
    """The nodes a pick may land on and still count as the target, for the engine and the
    baseline alike: each positive, its ancestors and its descendants within the verifier's levels
    whose text is the positive's own (a span's link, a checkbox's label, the menu item's inner
    element). An ancestor that says more -- a list around its item, the task's area holding the
    printed task and so every one of its words -- is not the target."""
    by_backend = state.by_backend_id()
    credited: set[int] = set()
    for backend_id in positives:
        node_id = by_backend.get(backend_id)
        if node_id is None:
            continue
        own = said = state.text_content(node_id)
        for ancestor in [node_id, *state.ancestors(node_id)][: ANCESTOR_LEVELS + 1]:
            text = state.text_content(ancestor)
            if own and text != own:
                break
            own = own or text
            credited.add(ancestor)
        credited.update(_saying_the_same(state, node_id, said))
    return credited


def _saying_the_same(state: PageState, node_id: int, own: str) -> list[int]:
    """The element descendants of ``node_id`` within the verifier's levels whose text is
    ``own``."""
    found, level = [], [node_id]
    for _ in range(ANCESTOR_LEVELS):
        level = [c for n in level for c in state.nodes[n].children
                 if state.nodes[c].is_element and state.text_content(c) == own]
        found += level
    return found


def load_rows(path: str | Path) -> list[dict]:
    return json.loads(Path(path).read_text())["rows"]
