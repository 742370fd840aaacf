"""The passage a task asks to highlight (pipeline/query/asked_passage.py), shown after the
planned step's candidates until the history selected it."""

from __future__ import annotations

from query_helpers import html_page

from pipeline.agent.observe import step_candidates
from pipeline.query.asked_passage import asked_passage

PARAGRAPHS = """<div id="query">Highlight the text in the 2nd paragraph and click submit.</div>
<div id="randomText"><p>Dis urna proin placerat neque,</p><p>at. Eget dui,. Volutpat est</p>
<p>urna sagittis. Enim nunc sem</p></div><button id="subbtn">Submit</button>"""
ONE_TEXT = """<div id="query">Highlight the text in the paragraph below and click submit.</div>
<div id="randomText">Purus pretium. Duis facilisis massa eleifend leo</div>
<button id="subbtn">Submit</button>"""
# the button first, a short paragraph, then the score panel's longer text
BELOW_SHORT = """<div id="query">Highlight the text in the paragraph below and click submit.</div>
<div id="area"><button id="subbtn">Submit</button><div id="randomText">Sed ut.</div></div>
<div id="reward-display"><div>Last reward: -</div><div>Last 10 average: -</div></div>"""


def test_the_paragraph_at_the_position_or_the_one_text_is_the_passage():
    page = html_page(PARAGRAPHS)
    assert asked_passage(page, "Highlight the text in the 2nd paragraph and click submit.") == \
        ("the 2nd paragraph", "at. Eget dui,. Volutpat est")
    assert asked_passage(page, "Select the text in the last paragraph") == \
        ("the last paragraph", "urna sagittis. Enim nunc sem")
    assert asked_passage(page, "Highlight the text in the 5th paragraph") is None  # no 5th
    assert asked_passage(page, "Highlight the text in the paragraph below") is None  # which?
    assert asked_passage(page, "Find the 2nd word in the paragraph") is None  # not a highlight
    task = "Highlight the text in the paragraph below and click submit."
    assert asked_passage(html_page(ONE_TEXT), task) == \
        ("the paragraph", "Purus pretium. Duis facilisis massa eleifend leo")  # not the task's
    assert asked_passage(html_page(BELOW_SHORT), task) == ("the paragraph", "Sed ut.")
    unplaced = "Highlight the text in the paragraph and click submit."
    assert asked_passage(html_page(BELOW_SHORT.replace(task, unplaced)), unplaced) == \
        ("the paragraph", "Last reward: - Last 10 average: -")  # no "below": the longest


def test_the_planned_step_shows_the_passage_until_the_history_selected_it():
    task = "Highlight the text in the 2nd paragraph and click submit."
    page = html_page(PARAGRAPHS)
    first = step_candidates(task, [], page).splitlines()
    assert first[-1] == 'The text of the 2nd paragraph: "at. Eget dui,. Volutpat est"', first
    selected = ["[p]  at. Eget dui,. Volutpat est -> SELECT_TEXT: at. Eget dui,. Volutpat est"]
    assert "The text of" not in step_candidates(task, selected, page)
