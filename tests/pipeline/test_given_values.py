"""The value a task writes right after a text field's label (pipeline/query/given_values.py),
shown beside the field in the planned step."""

from __future__ import annotations

from query_helpers import html_page, ref_by_id

from pipeline.agent.observe import step_candidates
from pipeline.query.given_values import given_value
from pipeline.query.index import index_for

FLIGHT = """<h2>Book Your One-Way Flight</h2>
<input id="from" type="text" placeholder="From:"><input id="to" type="text" placeholder="To:">
<input id="when" type="text" placeholder="Date"><button>Search</button>"""
FORWARD = """<div><label>to:</label><input id="to" type="text" class="forward-sender"></div>
<div><label>subject:</label><input id="subject" type="text"></div><span>Send</span>"""


def test_the_value_after_a_fields_label_is_given_to_that_field():
    page = html_page(FLIGHT)
    index = index_for(page)
    task = "Book the cheapest one-way flight from: Decatur, IL to: PAK on 12/11/2016."
    assert given_value(index, ref_by_id(page, "from"), task) == ("From:", "Decatur, IL")
    assert given_value(index, ref_by_id(page, "to"), task) == ("To:", "PAK")
    assert given_value(index, ref_by_id(page, "when"), task) is None  # no value after "Date"
    slashed = ("Book the shortest one-way flight from: SWF to: St Petersburg/Clearwater, FL on "
               "10/15/2016.")
    assert given_value(index, ref_by_id(page, "to"), slashed) == \
        ("To:", "St Petersburg/Clearwater, FL")  # one place's two names, not the first alone
    button = next(ref for ref, d in page.refs.items() if d.tag == "button")
    assert given_value(index, button, task) is None


def test_a_name_or_a_quoted_value_counts_and_a_lower_case_word_does_not():
    page = html_page(FORWARD)
    index = index_for(page)
    to = ref_by_id(page, "to")
    assert given_value(index, to, "Forward the email from Linnet to Jourdan.") == \
        ("to:", "Jourdan")
    assert given_value(index, to, 'Send the email to "kim lee" now') == ("to:", "kim lee")
    assert given_value(index, to, "Go to the inbox and forward the first email") is None
    assert given_value(index, ref_by_id(page, "subject"), "Forward it to Jourdan.") is None


def test_the_planned_step_shows_the_value_beside_the_field():
    block = step_candidates("Forward the email from Linnet to Jourdan.", [], html_page(FORWARD))
    assert "— the task gives to: Jourdan" in block, block
