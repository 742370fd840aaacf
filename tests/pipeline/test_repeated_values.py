"""A typed value another text field of the form holds: found on a real distilled page, unless the
task names it twice or one field confirms the other; the source it is copied again from has the
value taken out."""

from __future__ import annotations

import pytest

from pipeline.agent.policy import turn_from_text
from pipeline.agent.repeated_values import repeated_value, values_source, without_value
from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query.index import index_for

TASK = "Search for thriller movies directed by Terry from year 1987."
FORM = """<html><body><div id="query">{task}</div>
<label for="g">Genre</label><input id="g" type="text" value="thriller">
<label for="d">Director</label><input id="d" type="text">
<label for="e">Email</label><input id="e" type="text" value="ann@x.org">
<label for="c">Confirm email</label><input id="c" type="text">
<label for="p">Password</label><input id="p" type="password" value="s3cret">
<label for="v">Verify password</label><input id="v" type="password">
<button>Search</button></body></html>"""


@pytest.fixture(scope="module")
def page():
    return distill(page_from_html(FORM.format(task=TASK)))


def typed(index: int, text: str):
    return turn_from_text(f'<bu_type>{{"index": {index}, "text": "{text}"}}<bu_end>', 0)


def test_a_value_another_field_holds_is_found_case_aside(page):
    names = {ref: entry.shown_name for ref, entry in index_for(page).entries.items()}
    assert (names[1], names[2], names[4], names[7]) == ("Genre", "Director", "Confirm email",
                                                        "Search")
    assert repeated_value(typed(2, "Thriller"), page, TASK) == ("Thriller", "Genre")
    assert repeated_value(typed(2, "Terry"), page, TASK) is None  # a value no field holds
    assert repeated_value(typed(1, "thriller"), page, TASK) is None  # the field that holds it
    assert repeated_value(typed(2, "ann@x.org"), page, TASK) == ("ann@x.org", "Email")


def test_a_confirming_field_a_value_named_twice_and_other_calls_are_left_alone(page):
    assert repeated_value(typed(4, "ann@x.org"), page, TASK) is None  # Confirm email
    assert repeated_value(typed(6, "s3cret"), page, TASK) is None  # a hidden value: never read
    twice = "Search for thriller movies, thriller books and more by Terry."
    assert repeated_value(typed(2, "thriller"), page, twice) is None
    assert repeated_value(typed(7, "thriller"), page, TASK) is None  # the button: no field
    assert repeated_value(typed(99, "thriller"), page, TASK) is None  # no such element
    assert repeated_value(turn_from_text('<bu_click>{"index": 2}<bu_end>', 0), page, TASK) is None
    assert repeated_value(typed(2, "thriller"), None, TASK) is None  # no page (offline turns)


def test_the_source_without_the_value_keeps_every_other_copy():
    source = f'Task: {TASK}\nText fields: Genre (holds "Thriller"), Director (empty)'
    rest = without_value(source, "thriller")
    assert "thriller" not in rest.lower() and "Terry" in rest and "movies directed" in rest
    assert without_value("athriller thrillers", "thriller") == "athriller thrillers"  # words only


def test_values_are_copied_from_the_task_and_the_tools_answers_only():
    messages = [{"role": "system", "content": "You are a web agent."},
                {"role": "user", "content": f"Task: {TASK}\nPrevious actions:\n- none"},
                {"role": "assistant", "content": "<bu_query>{}<bu_end>"},
                {"role": "tool", "content": "[4] Beck"}]
    source = values_source(TASK, messages)
    assert source == f"{TASK}\n[4] Beck" and "actions" not in source
