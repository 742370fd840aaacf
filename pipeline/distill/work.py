"""The working record the passes share: the read-only PageState, its precomputed facts and the
per-node decisions made so far. Nothing here is ever written back into the PageState.

The first three passes (noise, visibility, occlusion) decide over the flat node table and return
the ids they hide; ``kept_nodes`` then keeps a hidden element only as a bare container when one of
its descendants is still visible (a visibility:visible child of a visibility:hidden parent). Text
nodes follow their parent element. The later passes work on the DNode tree built from what is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.distill.drawings import Drawing
from pipeline.distill.facts import Facts
from pipeline.distill.model import Tier
from pipeline.distill.options import DistillOptions
from pipeline.page_state import PageState

FORM_CONTROL_TAGS = frozenset({"input", "select", "textarea"})


@dataclass(slots=True)
class Work:
    state: PageState
    options: DistillOptions
    facts: Facts
    hidden_by: list[int]  # 0 = not hidden, else 1 + index of the pass that hid the node
    muted: set[int] = field(default_factory=set)  # hidden elements kept only as containers
    tiers: dict[int, Tier] = field(default_factory=dict)  # node id -> tier, after interactivity
    hints: dict[int, dict[str, str]] = field(default_factory=dict)  # compound-component attrs
    notes: dict[str, str] = field(default_factory=dict)  # pass name -> note for its PassReport
    drawings: dict[int, Drawing] = field(default_factory=dict)  # <svg> id -> what it draws

    def hide(self, ids: list[int], pass_index: int) -> None:
        hidden_by = self.hidden_by
        for i in ids:
            if not hidden_by[i]:
                hidden_by[i] = pass_index + 1

    def visible(self, node_id: int) -> bool:
        return not self.hidden_by[node_id]


def kept_nodes(work: Work) -> tuple[list[bool], list[int]]:
    """Which nodes stay, and per pass how many nodes it removed for good.

    A text node is hidden with its parent; a hidden element stays (muted) if a descendant stays;
    an iframe document or shadow root stays only if something in it stays.
    """
    nodes = work.state.nodes
    hidden_by = list(work.hidden_by)
    for node in nodes:
        if node.kind == "text" and node.parent is not None and hidden_by[node.parent]:
            hidden_by[node.id] = hidden_by[node.id] or hidden_by[node.parent]
    n = len(nodes)
    kept = [False] * n
    has_kept_child = [False] * n
    removed_by: list[int] = [0] * (max(hidden_by, default=0) + 1)
    for node in reversed(nodes):
        i = node.id
        reason = hidden_by[i]
        if i and node.is_fragment and not has_kept_child[i]:
            continue
        if not reason or has_kept_child[i]:
            kept[i] = True
            if reason:
                work.muted.add(i)
            if node.parent is not None:
                has_kept_child[node.parent] = True
        else:
            removed_by[reason] += 1
    return kept, removed_by
