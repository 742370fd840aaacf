"""select_text end to end (its codec round trip is in ``test_new_actions``): the passage found on a
recorded page (``pipeline.query.passage``: the offline executor and the history line), and the
mouse drag in real Chromium on ``tests/data/pages/passages.html`` -- inside one element, across
inline ``<b>``/``<i>``, over whitespace the source spreads out, below the fold, and the refusals
a model reads (no such text, hidden, not selectable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.agent.execute import execute, execute_offline
from pipeline.agent.history import history_line
from pipeline.distill import distill
from pipeline.html.source import page_from_file
from pipeline.live.actions import LiveActions
from pipeline.query.passage import find_passage, same_passage
from pipeline.tools import make_call

PAGES = Path(__file__).parents[1] / "data" / "pages"
CALL = make_call("select_text", text="Some bold words run through")
SELECTION = "window.getSelection().toString()"


def test_the_passage_is_found_in_the_smallest_element_holding_it():
    page = distill(page_from_file(PAGES / "passages.html"))

    def holder(text: str) -> str | None:
        spot = find_passage(page, text)
        return None if spot is None else page.state.nodes[spot.node_id].attributes.get("id", "")

    assert holder("quick brown fox") == "one"
    assert holder("Some bold words run through this") == "two"  # across <b> and <i>
    assert holder("Lorem ipsum dolor sit amet, consectetur") == "messy"  # the source's spaces
    assert holder("the lazy dog. Some bold") == ""  # two paragraphs: their <body>
    assert holder("brown fox jumped") is None and holder("QUICK brown") is None  # case counts
    assert holder("A secret passage") is None  # display: none, which the page does not show
    assert find_passage(page, "one can click").ref == ref_of(page, "clickable")
    assert same_passage("Lorem  ipsum\n dolor", "Lorem ipsum dolor")


def test_offline_executor_and_history_line():
    page = distill(page_from_file(PAGES / "passages.html"))
    found = execute_offline(CALL, page)
    assert found.ok and found.text == (
        'select_text "Some bold words run through" (recorded; no live page)')
    assert found.ref is None  # a paragraph without a ref
    clickable = execute_offline(make_call("select_text", text="A paragraph"), page)
    assert clickable.ref == ref_of(page, "clickable")
    missing = execute_offline(make_call("select_text", text="zebra crossing"), page)
    assert not missing.ok and missing.error == "no_text" and missing.text.startswith("Error:")
    assert history_line(CALL, page) == (  # a page from HTML has no backend ids
        "[page]  page -> SELECT_TEXT: Some bold words run through")


def ref_of(page, element_id: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.nodes[d.node_id].attributes.get("id") == element_id)


@pytest.fixture
def live(capture_session, pages_server):
    """(DistilledPage, select, js) on a freshly loaded passages.html; ``select(text)`` runs
    select_text through the executor."""
    page = distill(capture_session.capture(f"{pages_server}/passages.html"))
    run = capture_session.run
    actions = LiveActions(capture_session.page)

    def select(text: str):
        return run(execute(make_call("select_text", text=text), page, actions))

    yield page, select, lambda expression: run(actions.page.evaluate(expression))
    run(actions.close())


@pytest.mark.browser
@pytest.mark.parametrize("passage, selected, where", [
    ("quick brown fox", "quick brown fox", "<p#one>"),
    ("The quick brown fox jumps over the lazy dog.",
     "The quick brown fox jumps over the lazy dog.", "<p#one>"),
    ("Some bold words run through this", "Some bold words run through this", "<p#two>"),
    ("Lorem ipsum dolor sit amet, consectetur",  # spread over lines in the source
     "Lorem ipsum dolor sit amet, consectetur", "<div#messy>"),
    ("Illicit lilies fill it.", "Illicit lilies fill it.", "<p#narrow>"),  # narrow first, last
    ("Far below the fold", "Far below the fold", "<p#far>"),
])
def test_the_drag_selects_exactly_the_passage(live, passage, selected, where):
    _, select, js = live
    result = select(passage)
    assert result.ok, result.text
    assert js(SELECTION) == selected  # nothing lost at either end, nothing more
    assert result.text.startswith(f'selected "{passage[:20]}')
    assert where in result.text and result.ref is None and result.backend_id is not None


@pytest.mark.browser
def test_the_drag_reaches_text_out_of_view_and_names_its_element(live):
    page, select, js = live
    far = select("where the page must scroll")
    assert far.ok and js("scrollY") > 0
    clickable = select("A paragraph one can click.")
    assert clickable.ok and clickable.ref == ref_of(page, "clickable")
    assert js(SELECTION) == "A paragraph one can click."
    assert history_line(make_call("select_text", text="quick  brown fox"), page) == (
        "[p]  The quick brown fox jumps over the lazy dog. -> SELECT_TEXT: quick  brown fox")


@pytest.mark.browser
def test_what_cannot_be_selected_is_refused_with_the_reason(live):
    _, select, js = live
    assert select("quick brown fox").ok
    missing = select("brown fox jumped")
    assert not missing.ok and missing.error == "no_text"
    assert missing.text == ('the page shows no text "brown fox jumped"; the closest text it shows '
                            'is "The quick brown fox jumps over the lazy dog.". Quote the passage '
                            "word for word")
    hidden = select("A secret passage")
    assert not hidden.ok and hidden.error == "hidden" and "not visible now" in hidden.text
    refused = select("refuses to be selected")  # user-select: none
    assert not refused.ok and refused.error == "not_selected"
    assert 'selected nothing instead' in refused.text
    assert js("document.getElementById('one').textContent") == (
        "The quick brown fox jumps over the lazy dog.")  # the page is as it was
