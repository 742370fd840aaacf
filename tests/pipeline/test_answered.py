"""Choices of a question already answered on the page (pipeline/query/answered.py), and the
planned step that moves on to the questions still open."""

from __future__ import annotations

from pipeline.agent.observe import step_candidates
from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query import query_elements
from pipeline.query.answered import ROW_CONTROLS, answered_choices
from pipeline.query.filters import acted_on
from pipeline.query.index import index_for
from pipeline.query.instruction import query_for_step

QUIZ_TASK = "Mark the numbers below as odd or even and press submit when done."


def _page(html: str):
    return distill(page_from_html(f"<!DOCTYPE html><title>t</title>{html}", kind="html"))


def _quiz(chosen: set[int]):
    """odd-or-even's rows: [Odd] number [Even], the Odd of the rows in ``chosen`` selected."""
    rows = "".join(
        f'<div class="row"><span><button class="odd{" selected" if row in chosen else ""}">Odd'
        f'</button></span><span><div>{number}</div></span><span><button class="even">Even'
        f"</button></span></div>" for row, number in enumerate((9, 4, 0)))
    return _page(f'<div id="numbers">{rows}</div><button id="submit">Submit</button>')


def _refs(page, text: str) -> list[int]:
    return [ref for ref, node in page.refs.items() if node.children
            and node.children[0].is_text and node.children[0].text.strip() == text]


def test_the_other_choice_of_an_answered_row_is_done():
    page = _quiz({0})
    odd, even = _refs(page, "Odd"), _refs(page, "Even")
    assert page.refs[odd[0]].attrs.get("selected") == "true"
    assert answered_choices(index_for(page)) == {even[0]}
    assert answered_choices(index_for(_quiz(set()))) == frozenset()


def test_a_planned_step_moves_to_the_next_open_row():
    page = _quiz({0})
    history = ["[button]  Odd -> CLICK"]
    lines = step_candidates(QUIZ_TASK, history, page).splitlines()[1:]
    odd, even = _refs(page, "Odd"), _refs(page, "Even")
    listed = [int(line[1:line.index("]")]) for line in lines]
    # the second row (4: its Even first, ``number_rules``), then the third: not Submit yet
    assert listed == [even[1], odd[1], odd[2]]
    assert all("— 4" in line for line in lines[:2])  # each with its row's number


def test_a_plural_object_takes_a_few_actions_but_a_listed_item_one():
    one_click = ["[button]  Odd -> CLICK"]
    weights = query_for_step(QUIZ_TASK, one_click).arguments["keyword_weights"]
    assert weights["odd"] == 1.0 and weights.get("submit", 0.0) < 1.0  # still marking numbers
    three = one_click + ["[button]  Even -> CLICK", "[button]  Even -> CLICK"]
    assert query_for_step(QUIZ_TASK, three).arguments["keyword_weights"]["submit"] == 1.0
    listed = "Select words similar to big, happy and click Submit."
    two = ["[checkbox]  large -> CLICK", "[checkbox]  glad -> CLICK"]
    assert query_for_step(listed, two).arguments["keyword_weights"]["submit"] == 1.0


def test_a_checked_radio_answers_its_group_alone():
    page = _page("""<form>
        <label><input type="radio" name="q1" value="y" checked> Yes</label>
        <label><input type="radio" name="q1" value="n"> No</label>
        <label><input type="radio" name="q2" value="y"> Yes</label>
        <label><input type="radio" name="q2" value="n"> No</label></form>""")
    radios = {(node.attributes["name"], node.attributes["value"]): ref
              for ref, dnode in page.refs.items()
              if (node := page.state.nodes[dnode.node_id]).attributes.get("type") == "radio"}
    assert answered_choices(index_for(page)) == {radios["q1", "n"]}


def test_ticked_boxes_selected_tabs_and_long_toolbars_answer_nothing():
    boxes = _page('<div><label><input type="checkbox" checked> a</label>'
                  '<label><input type="checkbox"> b</label></div>')
    tabs = _page('<div role="tablist"><a role="tab" aria-selected="true" href="#1">One</a>'
                 '<a role="tab" aria-selected="false" href="#2">Two</a></div>')
    toolbar = _page("<div>" + '<button aria-pressed="true">B</button>' + "".join(
        f"<button>{name}</button>" for name in "ABCDEFGH"[:ROW_CONTROLS]) + "</div>")
    for page in (boxes, tabs, toolbar):
        assert answered_choices(index_for(page)) == frozenset()


def test_done_matches_follow_the_elements_still_to_do():
    page = _quiz({0, 1, 2})  # every row answered: Submit, which no word names, comes first
    result = query_elements(page, keyword_weights={"odd": 1.0, "even": 1.0}, prefer_pending=True)
    assert result.refs[0] == _refs(page, "Submit")[0]
    assert "Matched but done already:" in result.text
    assert result.text.index("Other elements") < result.text.index("Matched but done already")


def test_a_disabled_field_holding_the_page_text_is_still_to_do():
    page = _page('<div><textarea disabled>Terms of use ...</textarea>'
                  '<input type="text" value="Kim"></div>')
    index = index_for(page)
    area, name = (index.entries[ref] for ref in sorted(index.entries))
    assert not acted_on(area) and acted_on(name)


def test_a_menu_item_under_the_pointer_is_not_done_an_opened_submenu_and_a_tab_are():
    # click-menu: hovering "Neely" marks it selected; the click that picks it is still to do
    page = _page('<ul role="menu"><li role="menuitem" aria-selected="true">Neely</li>'
                 '<li role="menuitem">Glen</li><li role="menuitem" aria-haspopup="true" '
                 'aria-selected="true">Lyssa</li></ul><div role="tablist">'
                 '<a role="tab" aria-selected="true" href="#1">One</a></div>')
    index = index_for(page)
    by_text = {entry.text: entry for entry in index.entries.values()}
    assert not acted_on(by_text["Neely"]) and acted_on(by_text["One"])
    assert acted_on(by_text["Lyssa"])  # hovered to open its submenu: that is done
    planned = step_candidates("Select Neely", [], page).splitlines()
    assert "Neely" in planned[1], planned
