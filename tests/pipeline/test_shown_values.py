"""Values the page shows under a label, paired with the text field that asks for them
(pipeline/query/shown_values.py), and shown beside it in the planned step."""

from __future__ import annotations

from query_helpers import html_page, ref_by_id

from pipeline.agent.observe import step_candidates
from pipeline.query.index import index_for
from pipeline.query.shown_values import asked_value, shown_values

RECORD = """<table><tr><th>Color</th><td>purple</td></tr>
<tr><th>First name:</th><td>Wendy</td></tr><tr><td>Country</td><td>Bouvet Island</td></tr>
<tr><td>Notes</td><td>a</td><td>b</td></tr></table>
<dl><dt>Year of Birth</dt><dd>1954</dd></dl>"""
FORM = """<form><table>
<tr><td><label for="f">First name:</label></td><td><input id="f" type="text"></td></tr>
<tr><td><label for="c">Country:</label></td><td><input id="c" type="text"></td></tr>
</table><p>Answer <input id="free" type="text"></p><button>Submit</button></form>"""


def test_two_cell_rows_and_definitions_are_read_and_form_rows_are_not():
    values = shown_values(html_page(RECORD + FORM))
    assert values == {"color": ("Color", "purple"), "first name": ("First name", "Wendy"),
                      "country": ("Country", "Bouvet Island"),
                      "year of birth": ("Year of Birth", "1954")}


def test_a_field_is_paired_by_its_own_label_else_by_the_row_the_task_names():
    page = html_page(RECORD + FORM)
    index = index_for(page)
    task = "Enter the value that corresponds with each label into the form."
    assert asked_value(index, ref_by_id(page, "f"), task) == ("First name", "Wendy")
    assert asked_value(index, ref_by_id(page, "c"), task) == ("Country", "Bouvet Island")
    assert asked_value(index, ref_by_id(page, "free"), task) is None  # "Answer" names no row
    named = "Type the value of Color into the text field and press Submit."
    assert asked_value(index, ref_by_id(page, "free"), named) == ("Color", "purple")
    two = "Type the Color and the Country."
    assert asked_value(index, ref_by_id(page, "free"), two) is None  # which one is not known
    button = next(ref for ref, d in page.refs.items() if d.tag == "button")
    assert asked_value(index, button, named) is None


def test_the_planned_step_shows_the_value_beside_the_field():
    page = html_page(RECORD + FORM)
    block = step_candidates("Enter the value that corresponds with each label into the form "
                            "and submit when done.", [], page)
    assert "First name: — the page shows First name: Wendy" in block, block
    plain = html_page(FORM)
    assert "the page shows" not in step_candidates("Enter the first name.", [], plain)


WORDS = """<div id="query">Find the word.</div><p>Morbi. Morbi id, nisl mi donec.</p>
<textarea id="source">Faucibus gravida. Neque quam,</textarea><input id="answer" type="text">"""


def test_a_word_asked_for_by_its_position_is_read_from_the_paragraph_or_the_text_area():
    page = html_page(WORDS)
    index = index_for(page)
    answer = ref_by_id(page, "answer")
    assert asked_value(index, answer, "Find the 3rd word in the paragraph, type it.") == (
        "3rd word in the paragraph", "id")  # punctuation aside, as the task checks
    assert asked_value(index, answer, "Type the first word of the paragraph.") == (
        "first word of the paragraph", "Morbi")
    assert asked_value(index, answer, "Find the last word in the text area, enter it.") == (
        "last word in the text area", "quam")
    # the text area itself is not where its own word goes; a position past the end is none
    assert asked_value(index, ref_by_id(page, "source"), "Find the last word in the text area.") \
        is None
    assert asked_value(index, answer, "Find the 40th word in the paragraph.") is None
