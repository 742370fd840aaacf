"""A DAgger label is kept only when it can become a call: its target is an element of the page
the student saw (a hidden inbox row is in the capture but has no ref), or, for a key press and a
passage to select, in the capture at all; a student's selection agrees with the label when it
quotes the same passage, and its key press when it presses the same key (Enter for an ENTER)."""

from __future__ import annotations

from datagen.dagger.episode import LabelledStep, agrees, executed_call, labellable
from datagen.miniwob.policies.base import click, css, enter, press, select_text
from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.tools import make_call

PAGE = """<html backend_node_id="1" bounding_box_rect="0,0,800,600"><body backend_node_id="2"
bounding_box_rect="0,0,800,600"><div backend_node_id="3" bounding_box_rect="-1,-1,-1,-1"
class="email-thread" is_clickable="true"><text backend_node_id="4"
bounding_box_rect="-1,-1,-1,-1">Barb</text></div><span backend_node_id="5"
bounding_box_rect="10,10,60,20" class="email-reply" is_clickable="true"><text
backend_node_id="6" bounding_box_rect="10,10,60,20">Reply</text></span><textarea
backend_node_id="7" bounding_box_rect="10,40,300,80" id="reply-text"></textarea></body></html>"""


def test_only_an_element_of_the_page_is_a_label_target():
    page = distill(page_from_html(PAGE, "http://miniwob.test/email-inbox.html"))
    assert labellable(page, click(css(".email-reply")), 5)
    assert not labellable(page, click(css(".email-thread")), 3)  # hidden: in the capture only
    assert not labellable(page, click(css(".email-thread")), None)  # did not resolve
    assert not labellable(page, click(css(".gone")), 99)  # not in the capture


def test_a_key_press_needs_its_focused_element_in_the_capture_only():
    page = distill(page_from_html(PAGE, "http://miniwob.test/email-inbox.html"))
    assert labellable(page, press(css(".email-thread"), "Enter"), 3)
    assert not labellable(page, press(css(".gone"), "Enter"), 99)


def test_enter_in_a_field_is_labelled_and_agreed_as_a_key_press():
    """A policy's Enter in a field (Mind2Web's ENTER) is the call ``press Enter``: a student
    that clicks the field instead pressed nothing and does not agree with it."""
    page = distill(page_from_html(PAGE, "http://miniwob.test/guess-number.html"))
    act = enter(css("#reply-text"))
    assert labellable(page, act, 7)
    assert agrees(make_call("press", key="Enter"), page, act, 7, None)
    assert not agrees(make_call("press", key="Escape"), page, act, 7, None)
    assert not agrees(make_call("click", index=page.ref_of(7)), page, act, 7, None)
    oracle_ran = LabelledStep(page.state, 7, act, "", "oracle", "(no action)", False)
    assert executed_call(oracle_ran, page) == make_call("press", key="Enter")


def test_a_passage_to_select_is_labelled_by_its_text():
    page = distill(page_from_html(PAGE, "http://miniwob.test/email-inbox.html"))
    act = select_text(css(".email-reply"), "Reply")
    assert labellable(page, act, 5) and labellable(page, select_text(css("#x"), "Barb"), 3)
    assert agrees(make_call("select_text", text=" Reply "), page, act, 5, None)
    assert not agrees(make_call("select_text", text="Rep"), page, act, 5, None)
    assert not agrees(make_call("click", index=page.ref_of(5)), page, act, 5, None)
    oracle_ran = LabelledStep(page.state, 5, act, "", "oracle", "(no action)", False)
    assert executed_call(oracle_ran, page) == make_call("select_text", text="Reply")
