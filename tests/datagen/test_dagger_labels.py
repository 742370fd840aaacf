"""A DAgger label is kept only when it can become a call: its target is an element of the page
the student saw (a hidden inbox row is in the capture but has no ref), or, for a key press, in
the capture at all."""

from __future__ import annotations

from datagen.dagger.episode import labellable
from datagen.miniwob.policies.base import click, css, press
from pipeline.distill import distill
from pipeline.html.source import page_from_html

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
