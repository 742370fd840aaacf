"""pagescout's recorded actions outside Mind2Web's CLICK/TYPE/SELECT (HOVER, SCROLL, DRAG, CLEAR,
SELECT_TEXT): written in Mind2Web's shape (op CLICK), read back by our reader with their value,
turned into the right call by the oracle teacher and accepted by the verifier; real Mind2Web
operations read as before."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import pipeline
from datagen.mind2web.steps import parse_operation
from datagen.miniwob.policies.base import css, drag
from datagen.records import Operation
from datagen.teachers import action_call
from datagen.verify.execution_stage import operation_matches
from pipeline.agent.history import history_line
from pipeline.distill import distill
from pipeline.errors import FormatError
from pipeline.html.mind2web_format import (
    action_repr,
    drag_value,
    operation,
    parse_drag_value,
)
from pipeline.html.source import page_from_file
from pipeline.tools import make_call

FIXTURES = Path(pipeline.__file__).parent / "fixtures"


@pytest.mark.parametrize("written, read", [
    (operation("CLICK", "down", "SCROLL"), Operation("CLICK", "down", "SCROLL")),
    (operation("CLICK", "to:12", "DRAG"), Operation("CLICK", "to:12", "DRAG")),
    (operation("CLICK", "by:-40,8", "DRAG"), Operation("CLICK", "by:-40,8", "DRAG")),
    (operation("CLICK", "", "CLEAR"), Operation("CLICK", "", "CLEAR")),
    (operation("CLICK", "", "HOVER"), Operation("CLICK", "", "HOVER")),
    (operation("CLICK", "down:end", "SCROLL"), Operation("CLICK", "down:end", "SCROLL")),
    (operation("CLICK", "a", "PRESS"), Operation("CLICK", "a", "PRESS")),
    (operation("CLICK", "Lorem ipsum", "SELECT_TEXT"),
     Operation("CLICK", "Lorem ipsum", "SELECT_TEXT")),
])
def test_written_operations_read_back(written, read):
    assert written["op"] == "CLICK"  # any Mind2Web reader still reads a click
    assert parse_operation(written) == read


def test_real_mind2web_operations_read_as_before():
    assert parse_operation({"op": "CLICK", "original_op": "HOVER", "value": ""}) == Operation(
        "CLICK", "", "HOVER")
    assert parse_operation({"op": "CLICK", "original_op": "CLICK", "value": "x"}) == Operation(
        "CLICK", "", "CLICK")
    assert parse_operation({"op": "TYPE", "original_op": "TYPE", "value": "kenda"}) == Operation(
        "TYPE", "kenda", "TYPE")


def test_drag_values():
    assert drag_value(12) == "to:12" and drag_value(offset=(3, -4)) == "by:3,-4"
    assert parse_drag_value("to:12") == (12, None)
    assert parse_drag_value("by:3,-4") == (None, (3, -4))
    with pytest.raises(ValueError, match="neither"):
        parse_drag_value("onto the box")
    with pytest.raises(ValueError, match="exactly one"):
        drag_value()


def test_an_oracle_drag_onto_an_element_names_its_drop_target():
    onto = drag(css("#sortable li", nth=0), onto=css("#sortable li", nth=2))
    assert onto.original_op == "DRAG" and onto.value == "" and onto.checked is None
    assert onto.drop == css("#sortable li", nth=2)
    assert drag(css("#box"), by=(5, -3)).value == "by:5,-3"


def mind2web_page():
    """forms.html with a backend id on every node, as a recorded page has."""
    state = page_from_file(FIXTURES / "forms.html")
    return distill(replace(state, nodes=[replace(n, backend_id=n.id + 100)
                                         for n in state.nodes]))


def test_teacher_calls_and_verifier_for_each_op():
    page = mind2web_page()
    ref, other = sorted(page.refs)[:2]
    to_id = page.backend_id(other)
    cases = [
        ("HOVER", "", make_call("hover", index=ref)),
        ("SCROLL", "down", make_call("scroll", index=ref, direction="down")),
        ("SCROLL", "up:end", make_call("scroll", index=ref, direction="up", amount="end")),
        ("PRESS", "Enter", make_call("press", key="Enter")),
        ("CLEAR", "", make_call("clear", index=ref)),
        ("DRAG", f"to:{to_id}", make_call("drag", index=ref, to_index=other)),
        ("DRAG", "by:10,0", make_call("drag", index=ref, dx=10, dy=0)),
        ("SELECT_TEXT", "Lorem ipsum", make_call("select_text", text="Lorem ipsum")),
    ]
    for original, value, call in cases:
        assert action_call("CLICK", ref, value, original, page) == call
        assert operation_matches(call, Operation("CLICK", value, original))
        assert not operation_matches(make_call("click", index=ref),
                                     Operation("CLICK", value, original))
    with pytest.raises(FormatError, match="drag target"):
        action_call("CLICK", ref, "to:99999", "DRAG", page)


def test_history_of_a_recorded_drag_names_the_drop_target():
    page = mind2web_page()
    first, second = sorted(page.refs)[:2]
    state, source, target = page.state, page.backend_id(first), page.backend_id(second)
    line = action_repr(state, source, operation("CLICK", drag_value(target), "DRAG"))
    assert " -> DRAG: onto [" in line
    assert action_repr(state, source, operation("CLICK", "down", "SCROLL")).endswith(
        "-> SCROLL: down")
    assert action_repr(state, source, operation("CLICK", "a", "PRESS")) == history_line(
        make_call("press", key="a"), page) == "[key]  a -> PRESS"
    assert action_repr(state, source, operation("CLICK", "up:end", "SCROLL")) == history_line(
        make_call("scroll", index=first, direction="up", amount="end"), page)
