"""The planner's ordinal on a paged list: "the 9th result" with three results a page."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query import query_elements
from pipeline.query.instruction import query_for_step


def results_page(names: list[str], current: int, pages: int = 3, marked: bool = True) -> str:
    results = "".join(f'<div><a href="#">{name}</a><div>{name.lower()}.com</div></div>'
                      for name in names)
    links = "".join(
        f'<li><a href="#" class="{"active" if n == current and marked else ""}">{n}</a></li>'
        for n in range(1, pages + 1))
    return (f'<body><input id="q" value="Kim"><button>Search</button>{results}'
            f'<ul id="pagination"><li><a href="#">&lt;</a></li>{links}'
            '<li><a href="#">&gt;</a></li></ul></body>')


TASK = 'Enter "Kim" and press "Search", then find and click the {nth} search result.'
HISTORY = ["[textbox]  Search -> TYPE: Kim", "[button]  Search -> CLICK"]


def top_text(html: str, nth: str, history: list[str] = HISTORY) -> str:
    page = distill(page_from_html(html))
    plan = query_for_step(TASK.format(nth=nth), history)
    refs = query_elements(page, **plan.arguments).refs
    return page.state.text_content(page.node_of(refs[0]))


@pytest.mark.parametrize(("nth", "current", "top"), [
    ("2nd", 1, "Bo"),      # on the page shown
    ("9th", 1, "3"),       # three a page: on page 3, numbered
    ("5th", 1, "2"),
    ("9th", 3, "Ida"),     # page 3 shown: its third result
    ("2nd", 3, "1"),       # back to an earlier page
    ("5th", 3, "2"),
])
def test_an_ordinal_counts_across_the_pages_of_a_paged_list(nth, current, top):
    names = {1: ["Al", "Bo", "Cy"], 3: ["Gus", "Hal", "Ida"]}[current]
    assert top_text(results_page(names, current), nth) == top


def test_a_page_the_pager_does_not_number_is_reached_with_next():
    html = results_page(["Al", "Bo", "Cy"], 1, pages=2)
    assert top_text(html, "9th") == ">"


def test_a_pager_with_no_page_shown_known_is_not_used():
    html = results_page(["Gus", "Hal", "Ida"], 3, marked=False).replace(
        '<li><a href="#" class="">1</a></li>', "")
    assert top_text(html, "9th") != "3"


FORM = ('<body><input type="radio" name="r" value="1"><input type="radio" name="r" value="2">'
        '<input type="radio" name="r" value="3"><input type="text" id="input-1">'
        '<input type="text" id="input-2"><input type="text" id="input-3">'
        '<button>Submit</button></body>')


@pytest.mark.parametrize(("history", "top"), [
    ([], {"type": "radio", "name": "r", "value": "1"}),
    (["[radio]   -> CLICK"], {"type": "text", "id": "input-2"}),  # not the 2nd radio
])
def test_an_ordinal_counts_the_elements_of_the_role_its_clause_needs(history, top):
    page = distill(page_from_html(FORM))
    task = 'Select the 1st radio button and type the number "-5" into the 2nd textbox.'
    refs = query_elements(page, **query_for_step(task, history).arguments).refs
    assert page.state.nodes[page.node_of(refs[0])].attributes == top
