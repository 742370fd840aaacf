"""Colours named in words: CSS values, the paint of swatches and shapes, and queries by colour."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.distill.colours import colour_words, painted_colour
from pipeline.html.source import page_from_html
from pipeline.query import query_elements
from pipeline.query.instruction import query_for_step
from pipeline.render.flat import render_flat


@pytest.mark.parametrize(("value", "words"), [
    ("#9933ff", "purple"), ("rgb(153, 51, 255)", "purple"), ("#ff9900", "orange"),
    ("#e60000", "red"), ("#0066cc", "blue"), ("#008a00", "green"), ("#ffff00", "yellow"),
    ("#000", "black"), ("#FFFFFF", "white"), ("#888888", "gray"), ("#facccc", "pink"), ("rgb(181, 181, 227)", "blue"),
    ("#552200", "brown"), ("aqua", "aqua cyan"), ("black", "black"), ("pink", "pink"), ("navy", "navy blue"),
    ("rebeccapurple", "rebeccapurple"), ("rgba(0, 0, 0, 0)", ""), ("transparent", ""),
    ("none", ""), ("url(a.png)", ""), ("#12", ""),
])
def test_colour_words(value, words):
    assert colour_words(value) == words


PALETTE = ('<body><div style="background-color: #ffffff">'
           '<span class="ql-picker-item" data-value="#e60000" style="background-color: #e60000;'
           ' width: 16px; height: 16px"></span>'
           '<span class="ql-picker-item" data-value="#9933ff" style="background-color: #9933ff;'
           ' width: 16px; height: 16px"></span>'
           '<span class="ql-picker-item" style="background-color: #ffffff; width: 16px;'
           ' height: 16px"></span>'
           '<span class="label" style="background-color: #9933ff">Purple text</span></div>'
           '<svg width="100" height="60"><circle class="shape" cx="10" cy="10" r="8" fill="aqua"/>'
           '<rect class="shape" x="30" y="2" width="16" height="16" style="fill: black"/></svg>'
           '</body>')


def test_the_paint_of_an_element_without_text():
    state = page_from_html(PALETTE)
    named = {n.attributes.get("data-value") or n.tag: painted_colour(n, state)
             for n in state.nodes if n.is_element and painted_colour(n, state)}
    # the white swatch on a white panel is not painted apart; the label says its own words
    assert named == {"#e60000": "red", "#9933ff": "purple", "circle": "aqua cyan",
                     "rect": "black"}


def test_a_task_naming_a_colour_finds_the_swatch_or_the_shape_of_that_colour():
    dp = distill(page_from_html(PALETTE))

    def first(task: str) -> str:
        plan = query_for_step(task, [])
        node = dp.state.nodes[dp.refs[query_elements(dp, **plan.arguments).refs[0]].node_id]
        return node.attributes.get("data-value") or node.tag

    assert first("Using the text editor, make everything the color purple.") == "#9933ff"
    assert first("Click the red swatch.") == "#e60000"
    assert first("Drag all black shapes into the left box.") == "rect"
    assert first("Click on the cyan circle.") == "circle"


def test_a_swatch_or_shape_that_shows_nothing_else_shows_its_colour():
    lines = render_flat(distill(page_from_html(PALETTE))).splitlines()
    shown = [line for line in lines if "color=" in line]
    assert shown == ['[1]<span class=ql-picker-item color=red />',
                     '[2]<span class=ql-picker-item color=purple />',
                     '[4]<circle class=shape color=aqua />', '[5]<rect class=shape color=black />']
    assert '[3]<span class=ql-picker-item />' in lines  # white on white: not painted apart
