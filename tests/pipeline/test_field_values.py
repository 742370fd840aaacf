"""Typing into inputs the keyboard cannot fill: a date, time, month or colour written the way
people write it reaches the field in its wire format, in real Chromium, and a value the browser
drops comes back as a refusal that says how to write it -- not as "set to ''"."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.agent.execute import execute
from pipeline.distill import distill
from pipeline.live.actions import LiveActions
from pipeline.live.field_values import wire_value
from pipeline.tools import make_call

PAGES = Path(__file__).parents[1] / "data" / "pages"


@pytest.mark.parametrize("kind, written, wire", [
    ("date", "04/15/2018", "2018-04-15"),
    ("date", "2018-04-15", "2018-04-15"),
    ("date", "15/04/2018", "2018-04-15"),  # the first number cannot be a month: day first
    ("date", "04/05/2018", "2018-04-05"),  # month first, as US pages write it
    ("date", "4/5/18", "2018-04-05"),
    ("date", "April 15, 2018", "2018-04-15"),
    ("date", "15th of April 2018", "2018-04-15"),
    ("date", "Sept. 3 1999", "1999-09-03"),
    ("date", "02/30/2018", "02/30/2018"),  # no such day: left for the browser to refuse
    ("time", "3:03 PM", "15:03"),
    ("time", "3:03pm", "15:03"),
    ("time", "12:15 AM", "00:15"),
    ("time", "12:15 p.m.", "12:15"),
    ("time", "7 am", "07:00"),
    ("time", "9:05:07", "09:05:07"),
    ("time", "13:03 PM", "13:03 PM"),  # not a 12-hour time
    ("datetime-local", "04/15/2018 3:03 PM", "2018-04-15T15:03"),
    ("datetime-local", "April 15, 2018 at 3:03 PM", "2018-04-15T15:03"),
    ("datetime-local", "2018-04-15T15:03", "2018-04-15T15:03"),
    ("month", "04/2018", "2018-04"),
    ("month", "April 2018", "2018-04"),
    ("week", " 2018-W15 ", "2018-W15"),
    ("color", "red", "red"),  # colours are read by the browser
])
def test_written_values_become_the_wire_format(kind, written, wire):
    assert wire_value(kind, written) == wire


@pytest.mark.browser
def test_typed_fields_take_values_as_people_write_them(capture_session, pages_server):
    state = capture_session.capture(f"{pages_server}/typed_fields.html")
    page, run = distill(state), capture_session.run
    actions = LiveActions(capture_session.page)
    refs = {page.state.nodes[d.node_id].attributes.get("id"): ref for ref, d in page.refs.items()}

    def type_into(field: str, text: str):
        return run(execute(make_call("type", index=refs[field], text=text), page, actions))

    def value(field: str) -> str:
        return run(actions.page.eval_on_selector(f"#{field}", "el => el.value"))

    for field, written, wire in [("day", "04/15/2018", "2018-04-15"),
                                 ("clock", "3:03 PM", "15:03"),
                                 ("meeting", "April 15, 2018 at 3:03 PM", "2018-04-15T15:03"),
                                 ("billing", "April 2018", "2018-04"),
                                 ("paint", "red", "#ff0000"),
                                 ("level", "7", "7")]:
        outcome = type_into(field, written)
        assert outcome.ok, outcome.text
        assert value(field) == wire
        assert repr(wire) in outcome.text
    changes = run(actions.page.eval_on_selector("#changes", "el => el.textContent"))
    assert "day=2018-04-15;" in changes and "paint=#ff0000;" in changes  # the page heard it

    refused = type_into("day", "next Tuesday")
    assert not refused.ok and refused.error == "bad_value"
    assert "2018-04-15 or 04/15/2018" in refused.text
    assert not type_into("level", "loud").ok
    assert not type_into("paint", "not a colour").ok
    assert value("paint") == "#ff0000"  # a refused colour leaves the field as it was
    run(actions.close())
