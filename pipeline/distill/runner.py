"""``distill``: run the passes over a PageState and assemble the DistilledPage.

Order: noise, visibility, occlusion (decisions over the node table) -> the kept DNode tree ->
interactivity, propagating_bounds, compound, wrapper_collapse, text_merge, attributes -> refs
1..N in pre-order -> landmarks and headings -> selectors. Every pass gets a PassReport; a pass
switched off reports ``skipped="switched off"``, one whose fact the source lacks says which.
Two extra reports time the shared work: ``prepare`` (facts, the kept sweep, the tree) and ``finish`` (refs,
structure, selectors). The PageState is only read.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from pipeline.distill.attributes import attributes, raw_attributes
from pipeline.distill.compound import compound
from pipeline.distill.facts import compute_facts
from pipeline.distill.filters import noise, visibility
from pipeline.distill.interactivity import interactivity, propagating_bounds
from pipeline.distill.model import DistilledPage, DNode, PassReport
from pipeline.distill.occlusion import occlusion
from pipeline.distill.options import DistillOptions
from pipeline.distill.selectors import build_selectors
from pipeline.distill.simplify import text_merge, wrapper_collapse
from pipeline.distill.structure import outline
from pipeline.distill.tree import assign_refs, build_tree
from pipeline.distill.work import Work, kept_nodes
from pipeline.page_state import PageState

TablePass = Callable[[Work], list[int]]
TreePass = Callable[[Work, DNode], int]

TABLE_PASSES: tuple[tuple[str, TablePass], ...] = (
    ("noise", noise),
    ("visibility", visibility),
    ("occlusion", occlusion),
)
TREE_PASSES: tuple[tuple[str, TreePass], ...] = (
    ("interactivity", interactivity),
    ("propagating_bounds", propagating_bounds),
    ("compound", compound),
    ("wrapper_collapse", wrapper_collapse),
    ("text_merge", text_merge),
    ("attributes", attributes),
)
OFF = "switched off"


def missing_fact(name: str, state: PageState) -> str | None:
    """Why a pass cannot run on this source, or None."""
    if name == "occlusion" and not state.has_paint_order:
        return "source has no paint order"
    if name in ("occlusion", "propagating_bounds") and not state.has_layout:
        return "source has no layout"
    return None


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def _run_table_passes(work: Work) -> list[PassReport]:
    reports: list[PassReport] = []
    for index, (name, run) in enumerate(TABLE_PASSES):
        skipped = OFF if not work.options.enabled(name) else missing_fact(name, work.state)
        if skipped:
            reports.append(PassReport(name, 0, 0.0, skipped))
            continue
        start = time.perf_counter()
        work.hide(run(work), index)
        reports.append(PassReport(name, 0, _ms(start)))
    return reports


def _run_tree_passes(work: Work, root: DNode) -> list[PassReport]:
    reports: list[PassReport] = []
    for name, run in TREE_PASSES:
        skipped = OFF if not work.options.enabled(name) else missing_fact(name, work.state)
        if skipped:
            if name == "attributes":
                raw_attributes(work, root)
            reports.append(PassReport(name, 0, 0.0, skipped))
            continue
        start = time.perf_counter()
        removed = run(work, root)
        reports.append(PassReport(name, removed, _ms(start), note=work.notes.get(name, "")))
    return reports


def distill(state: PageState, options: DistillOptions | None = None) -> DistilledPage:
    """Distil a page: a pure function of (state, options); the state is never modified.

    The passes allocate many short-lived objects and create no reference cycles, so the cyclic
    garbage collector is paused for the run (and restored, also on error): a full collection
    would rescan the whole PageState again and again for nothing (about a quarter of the time).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _distill(state, options or DistillOptions())
    finally:
        if was_enabled:
            gc.enable()


def _distill(state: PageState, options: DistillOptions) -> DistilledPage:
    start = time.perf_counter()
    work = Work(state, options, compute_facts(state), [0] * len(state.nodes))
    prepare_ms = _ms(start)
    reports = _run_table_passes(work)
    start = time.perf_counter()
    kept, removed_by = kept_nodes(work)
    for index, report in enumerate(reports, start=1):  # reports follow TABLE_PASSES' order
        report.removed = removed_by[index] if index < len(removed_by) else 0
    root = build_tree(work, kept)
    prepare = PassReport("prepare", 0, prepare_ms + _ms(start))
    reports = [prepare, *reports, *_run_tree_passes(work, root)]
    start = time.perf_counter()
    refs = assign_refs(root)
    landmarks, headings = outline(state.nodes, root)
    selectors = build_selectors(state, refs)
    reports.append(PassReport("finish", 0, _ms(start)))
    drawings = [drawing for node_id, drawing in work.drawings.items() if kept[node_id]]
    return DistilledPage(state, root, refs, selectors, landmarks, headings, reports, kept,
                         drawings)
