"""Issue 15's actions end to end: scroll, hover, drag and clear through the codec (JSON, OpenAI
``tool_calls``, functional tokens), the offline executor, the history line, and live execution
in real Chromium on ``tests/data/pages/actions.html`` -- with the refusals a model reads when the
target is hidden, covered, not a text field, or a box at its edge. select_text's calls go through
the codec here too (``test_select_text`` has the rest of it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.agent.execute import execute, execute_offline
from pipeline.agent.history import history_line
from pipeline.distill import distill
from pipeline.html.source import page_from_file
from pipeline.live.actions import LiveActions
from pipeline.tools import (
    ToolError,
    from_json,
    from_openai,
    make_call,
    parse_call,
    to_json,
    to_openai,
    to_tokens,
    validate_call,
)

PAGES = Path(__file__).parents[1] / "data" / "pages"
CALLS = [
    make_call("scroll", direction="down"),
    make_call("scroll", direction="up", index=2),
    make_call("scroll", direction="left", amount="end"),
    make_call("hover", index=4),
    make_call("drag", index=3, to_index=7),
    make_call("drag", index=3, dx=-40, dy=12),
    make_call("clear", index=5),
    make_call("select_text", text="Some bold words run through"),
]


@pytest.mark.parametrize("call", CALLS, ids=lambda c: to_tokens(c))
def test_round_trips_through_every_form(call):
    assert parse_call(to_tokens(call)) == call
    assert from_json(to_json(call)) == call
    assert from_openai(to_openai(call)) == call
    assert from_openai(to_openai(call, string_arguments=False)) == call


def test_canonical_text_and_tolerant_reading():
    assert to_tokens(CALLS[0]) == '<bu_scroll>{"direction": "down"}<bu_end>'
    assert to_tokens(CALLS[4]) == '<bu_drag>{"index": 3, "to_index": 7}<bu_end>'
    assert parse_call('<bu_scroll>{"direction": "Down", "index": "2"}') == make_call(
        "scroll", direction="down", index=2)
    assert parse_call('{"name": "hover", "arguments": {"index": 4}}') == CALLS[3]
    assert to_tokens(CALLS[7]) == (
        '<bu_select_text>{"text": "Some bold words run through"}<bu_end>')
    assert parse_call('{"name": "select_text", "arguments": {"text": "  a b \\n"}}') == (
        make_call("select_text", text="a b"))  # stripped


@pytest.mark.parametrize("name, arguments, says", [
    ("scroll", {"direction": "sideways"}, "'direction'"),
    ("scroll", {}, "missing argument 'direction'"),
    ("drag", {"index": 3}, "give either to_index or an offset"),
    ("drag", {"index": 3, "to_index": 4, "dx": 5}, "give either to_index or an offset"),
    ("drag", {"index": 3, "to_index": 3}, "cannot be dropped on itself"),
    ("hover", {"index": 0}, "'index'"),
    ("clear", {"index": 2, "text": "x"}, "unexpected argument 'text'"),
    ("select_text", {}, "missing argument 'text'"),
    ("select_text", {"text": "  \n "}, "at least 1 character"),
    ("select_text", {"text": "x", "index": 3}, "unexpected argument 'index'"),
])
def test_bad_arguments_name_the_fix(name, arguments, says):
    error = validate_call(name, arguments)
    assert isinstance(error, ToolError) and error.kind == "bad_arguments"
    assert says in error.message and "usage:" in error.message


def test_offline_executor_and_history_name_the_action():
    page = distill(page_from_file(PAGES / "actions.html"))
    name = ref_of(page, "name")
    drop = ref_of(page, "drop-button")
    menu = ref_of(page, "menu-button")
    assert execute_offline(make_call("scroll", direction="down"), page).text == (
        "scroll the page down (recorded; no live page)")
    dragged = execute_offline(make_call("drag", index=menu, to_index=drop), page)
    assert dragged.ok and dragged.ref == menu and f"onto [{drop}]" in dragged.text
    missing = execute_offline(make_call("drag", index=menu, to_index=999), page)
    assert missing.error == "no_such_ref" and "[999]" in missing.text
    assert history_line(make_call("scroll", direction="up"), page) == "[page]  page -> SCROLL: up"
    assert history_line(make_call("clear", index=name), page) == f"[input]  [{name}] -> CLEAR"
    assert history_line(make_call("drag", index=menu, dx=5, dy=0), page) == (
        f"[button]  [{menu}] -> DRAG: by 5,0")


def ref_of(page, element_id: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.nodes[d.node_id].attributes.get("id") == element_id)


@pytest.fixture
def live(capture_session, pages_server):
    """(DistilledPage, LiveActions, run, js) on a freshly loaded actions.html."""
    state = capture_session.capture(f"{pages_server}/actions.html")
    page, run = distill(state), capture_session.run
    actions = LiveActions(capture_session.page)
    yield page, actions, run, lambda expression: run(actions.page.evaluate(expression))
    run(actions.close())


@pytest.mark.browser
def test_scroll_moves_a_box_and_the_page_and_stops_at_the_edge(live):
    page, actions, run, js = live
    item = ref_of_text(page, "Item 1")
    down = run(execute(make_call("scroll", direction="down", index=item), page, actions))
    assert down.ok, down.text
    assert js("document.getElementById('list').scrollTop") > 0
    assert js("document.scrollingElement.scrollTop") == 0  # the list moved, not the page
    up = run(execute(make_call("scroll", direction="up", index=item), page, actions))
    assert up.ok and js("document.getElementById('list').scrollTop") == 0
    edge = run(execute(make_call("scroll", direction="up", index=item), page, actions))
    assert not edge.ok and edge.error == "at_edge" and "cannot scroll further up" in edge.text
    end = run(execute(make_call("scroll", direction="down", index=item, amount="end"), page,
                      actions))
    assert end.ok and js("(l => l.scrollHeight - l.scrollTop - l.clientHeight)"
                         "(document.getElementById('list'))") < 2
    whole = run(execute(make_call("scroll", direction="down"), page, actions))
    assert whole.ok and "the page" in whole.text
    assert js("document.scrollingElement.scrollTop") > 0
    name = ref_of(page, "name")  # no box around the field scrolls: the page does
    beside = run(execute(make_call("scroll", direction="down", index=name), page, actions))
    assert beside.ok and "no box around" in beside.text
    assert history_line(make_call("scroll", direction="down", index=item), page) == (
        "[button]  Item 1 -> SCROLL: down")


@pytest.mark.browser
def test_hover_opens_a_hover_menu_and_hidden_or_covered_targets_are_refused(live):
    page, actions, run, js = live
    shown = "getComputedStyle(document.getElementById('menu-panel')).display"
    assert js(shown) == "none"
    hovered = run(execute(make_call("hover", index=ref_of(page, "menu-button")), page, actions))
    assert hovered.ok and hovered.text.startswith("hovered over"), hovered.text
    assert js(shown) == "block"
    js("window.cover()")
    covered = run(execute(make_call("hover", index=ref_of(page, "under")), page, actions))
    assert not covered.ok and covered.error == "covered" and "overlay" in covered.text
    js("document.getElementById('menu').style.display = 'none'")
    hidden = run(execute(make_call("hover", index=ref_of(page, "menu-button")), page, actions))
    assert not hidden.ok and hidden.error == "hidden" and "not visible" in hidden.text


@pytest.mark.browser
def test_drag_onto_an_element_and_by_an_offset(live):
    page, actions, run, js = live
    box, drop = ref_of(page, "box"), ref_of(page, "drop-button")
    onto = run(execute(make_call("drag", index=box, to_index=drop), page, actions))
    assert onto.ok and "onto" in onto.text, onto.text
    assert js("window.dragLog.at(-1).inside") is True
    left = js("window.dragLog.at(-1).left")
    by = run(execute(make_call("drag", index=box, dx=-150, dy=0), page, actions))
    assert by.ok, by.text
    assert js("window.dragLog.at(-1).left") == left - 150
    assert js("window.dragLog.at(-1).inside") is False
    js("window.cover()")
    covered = run(execute(make_call("drag", index=ref_of(page, "under"), dx=10, dy=0), page,
                          actions))
    assert not covered.ok and covered.error == "covered"


@pytest.mark.browser
def test_clear_empties_a_field_and_refuses_what_is_not_one(live):
    page, actions, run, js = live
    cleared = run(execute(make_call("clear", index=ref_of(page, "name")), page, actions))
    assert cleared.ok and js("document.getElementById('name').value") == ""
    locked = run(execute(make_call("clear", index=ref_of(page, "code")), page, actions))
    assert not locked.ok and locked.error == "not_editable"
    assert js("document.getElementById('code').value") == "X-1"
    button = run(execute(make_call("clear", index=ref_of(page, "menu-button")), page, actions))
    assert not button.ok and button.error == "not_editable"


def ref_of_text(page, text: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.text_content(d.node_id).strip() == text)
