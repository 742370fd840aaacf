"""The planner's superlative: "the cheapest flight", "the ticket with the longest duration"."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query import query_elements
from pipeline.query.extremes import superlative
from pipeline.query.instruction import query_for_step


@pytest.mark.parametrize(("task", "kind"), [
    ("Buy the ticket with the cheapest cost.", "money:min"),
    ("Buy the ticket with the most expensive cost.", "money:max"),
    ("Pick the item with the highest price", "money:max"),  # money, not a number
    ("Book the shortest one-way flight from: X to: Y on 10/15/2016.", "duration:min"),
    ("Buy the ticket with the longest duration.", "duration:max"),
    ("Click the card with the greatest number", "number:max"),
    ("Click the largest button", None),  # a size on screen: no quantity the text shows
    ("Enter the password", None),
])
def test_a_superlative_names_a_kind_of_quantity_and_an_end(task, kind):
    assert superlative(task) == kind


def flights(rows: list[tuple[str, int]]) -> str:
    """MiniWoB++ buy-ticket's results: a duration beside each card's Book button."""
    cards = "".join(
        f'<div class="flight"><div class="flight-duration"><label>Duration:</label>'
        f'<div class="time-duration">{duration}</div></div><div class="book">'
        f'<button class="buy-ticket">Book for ${price:,}</button></div></div>'
        for duration, price in rows)
    return f'<body><div id="area">{cards}</div></body>'


ROWS = [("9h 38m", 665), ("12h 5m", 1_611), ("45m", 1_031), ("3h 2m", 1_204)]


@pytest.mark.parametrize(("task", "top"), [
    ("Buy the ticket with the cheapest cost.", "Book for $665"),
    ("Buy the ticket with the most expensive cost.", "Book for $1,611"),
    ("Buy the ticket with the shortest duration.", "Book for $1,031"),  # read in its card
    ("Buy the ticket with the longest duration.", "Book for $1,611"),
])
def test_the_extreme_one_of_the_elements_alike_leads(task, top):
    page = distill(page_from_html(flights(ROWS)))
    refs = query_elements(page, **query_for_step(task, []).arguments).refs
    assert page.state.text_content(page.node_of(refs[0])) == top


def test_a_page_without_the_quantity_is_ranked_by_its_words():
    html = ('<body><input id="flight-from" placeholder="From:"><input id="flight-to" '
            'placeholder="To:"><button id="search">Search</button></body>')
    page = distill(page_from_html(html))
    plan = query_for_step("Book the cheapest one-way flight from: Anvik, AK to: MOT", [])
    assert plan.arguments["extreme"] == "money:min"
    plain = dict(plan.arguments, extreme=None)
    assert query_elements(page, **plan.arguments).refs == query_elements(page, **plain).refs
