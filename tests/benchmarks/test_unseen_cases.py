"""The generalisation benchmark's reading of a recorded action, on a hand-made Mind2Web step."""

from __future__ import annotations

import json
import re

from unseen_benchmark import summarise, targets
from unseen_cases import (
    NEW_FAMILIES,
    TUNING_POOL,
    Case,
    breadth_families,
    iter_cases,
    measure,
    overlap_rank,
    part_of,
    source_of,
    target_refs,
)

from pipeline.distill import distill

RAW = (
    '<html backend_node_id="1" bounding_box_rect="0,0,800,600">'
    '<body backend_node_id="2" bounding_box_rect="0,0,800,600">'
    '<div backend_node_id="3" bounding_box_rect="0,0,800,20">'
    '<text backend_node_id="4" bounding_box_rect="0,0,200,20">Click the link "sed".</text></div>'
    '<span backend_node_id="5" class="alink" is_clickable="true" bounding_box_rect="0,30,40,20">'
    '<text backend_node_id="6" bounding_box_rect="0,30,40,20">sed</text></span>'
    '<span backend_node_id="7" class="alink" is_clickable="true" bounding_box_rect="50,30,40,20">'
    '<text backend_node_id="8" bounding_box_rect="50,30,40,20">quis</text></span>'
    "</body></html>"
)
CLEANED = ('<html backend_node_id="1"><body backend_node_id="2"><span backend_node_id="5">'
           '<text backend_node_id="6">sed</text></span><span backend_node_id="7">'
           '<text backend_node_id="8">quis</text></span></body></html>')


def case() -> Case:
    return Case("t:a0", "click-link", 'Click the link "sed".', 0, "CLICK", RAW, CLEANED, [5])


def test_the_stripped_variant_loses_the_listener_evidence_only():
    evidence, stripped = source_of(case(), "evidence"), source_of(case(), "stripped")
    assert any(n.states.get("clickable") for n in evidence.nodes)
    assert not any(n.states.get("clickable") for n in stripped.nodes)
    assert stripped.has_layout and not source_of(case(), "cleaned").has_layout


def test_a_row_measures_coverage_rank_and_the_baseline():
    for variant in ("evidence", "stripped"):
        row = measure(case(), variant)
        assert row["covered"] and row["rank"] == 1 and not row["zero_refs"], variant
    state = source_of(case(), "stripped")
    assert overlap_rank(state, 'Click the link "sed".', [5]) == 2  # the task's own text first


def test_parts_and_targets():
    assert part_of("click-link") == "tuned" and part_of("click-option") == "held-out"
    assert part_of("click-color") == "new" and part_of("book-flight") == "breadth-read"
    assert part_of("buy-ticket") == "breadth"
    rows = [measure(case(), "stripped") | {"part": p} for p in ("tuned", "new")]
    summary = {f"stripped/{name}": summarise(rows)
               for name in ("all", "held-out", "new", "breadth-read", "breadth")}
    met = {t.name: t.met for t in targets(summary)}
    assert met["stripped dumps (all): targets without a ref"]
    assert met["stripped dumps (all): Recall@1 from the task"]


def test_the_new_part_is_what_unseen_policies_records_and_breadth_is_the_rest():
    from unseen_policies import EXTRA_POLICIES

    from datagen.miniwob.policies import POLICIES

    assert set(EXTRA_POLICIES) == NEW_FAMILIES
    breadth = breadth_families(POLICIES)
    assert len(breadth) >= 50 and "book-flight" in breadth
    read = [family for family in breadth if part_of(family) == "breadth-read"]
    assert 0.4 < len(read) / len(breadth) < 0.6  # half read in the third round, half never
    assert not set(breadth) & (TUNING_POOL | NEW_FAMILIES)


def test_a_container_that_says_more_than_the_target_is_not_the_target():
    raw = ('<html backend_node_id="1"><body backend_node_id="2">'
           '<div backend_node_id="3"><text backend_node_id="4">Click on Zoom In.</text></div>'
           '<ul backend_node_id="5" class="menu"><li backend_node_id="6">'
           '<div backend_node_id="7" class="item"><text backend_node_id="8">Save</text></div></li>'
           '<li backend_node_id="9"><div backend_node_id="10" class="item">'
           '<text backend_node_id="11">Zoom In</text></div></li></ul></body></html>')
    raw = re.sub(r'backend_node_id="(\d+)"',  # each element a 20-px row of its own
                 lambda m: f'{m.group(0)} bounding_box_rect="0,{20 * int(m.group(1))},200,20"', raw)
    zoom = Case("t:a0", "click-menu-2", "Click on Zoom In.", 0, "CLICK", raw, "", [9])
    state = source_of(zoom, "stripped")
    page = distill(state)
    backend_of = {node: backend for backend, node in state.by_backend_id().items()}
    assert {backend_of[page.refs[ref].node_id] for ref in target_refs(page, [9])} == {10}
    # the item's inner element says only "Zoom In"; the menu around it says more
    assert {backend_of[page.refs[ref].node_id] for ref in target_refs(page, [6])} == {7}
    assert overlap_rank(state, zoom.task, [9]) == 2  # the printed task first, then the item


def test_a_select_text_step_names_no_element_and_is_not_measured(tmp_path):
    def action(uid: str, op: str, original: str, value: str) -> dict:
        return {"action_uid": uid, "raw_html": RAW, "cleaned_html": CLEANED,
                "operation": {"op": op, "original_op": original, "value": value},
                "pos_candidates": [{"backend_node_id": "5"}], "neg_candidates": []}

    task = {"annotation_id": "t", "website": "highlight-text", "confirmed_task": "Highlight sed.",
            "actions": [action("a0", "CLICK", "SELECT_TEXT", "sed"), action("a1", "CLICK", "", "")]}
    (tmp_path / "test_task").mkdir()
    (tmp_path / "test_task" / "dump_0.json").write_text(json.dumps([task]))
    cases = list(iter_cases(tmp_path / "test_task"))
    assert [(c.step_id, c.original_op, c.names_element) for c in cases] == [
        ("t:a0", "SELECT_TEXT", False), ("t:a1", "", True)]
