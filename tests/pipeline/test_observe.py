"""Observations for the three agent modes, with real token counts."""

from __future__ import annotations

import pytest

from pipeline.agent.modes import MODES
from pipeline.agent.observe import CANDIDATES, observe, step_candidates
from pipeline.distill import distill
from pipeline.html.source import page_from_file, page_from_html
from pipeline.model.token_count import count_tokens
from pipeline.query.index import index_for
from pipeline.query.places import drop_places
from pipeline.report.page_set import FIXTURE_DIR
from pipeline.tools.registry import tool_names


@pytest.fixture(scope="module")
def shop():
    return distill(page_from_file(FIXTURE_DIR / "shop.html"))


def test_each_mode_shows_what_it_promises(shop):
    full, hybrid, query_only = (observe(shop, mode) for mode in ("full", "hybrid", "query_only"))
    assert set(MODES) == {"full", "hybrid", "query_only", "planned"}
    assert full.text.count(">Add to Cart</button>") == 200 and "Tools:" not in full.text
    assert hybrid.text.startswith("=== PAGE OUTLINE ===") and 'NAV: "Primary"' in hybrid.text
    assert "[" not in query_only.text.split("Tools:")[0]  # no element refs at all
    assert "NAV:Primary (8 links)" in query_only.text
    for obs in (hybrid, query_only):
        assert all(f"- {name}(" in obs.text for name in tool_names())
    assert query_only.tokens == count_tokens(query_only.text)
    assert query_only.tokens < full.tokens / 10


def test_hybrid_collapses_what_did_not_change(shop):
    first = observe(shop, "hybrid")
    second = observe(shop, "hybrid", previous=shop)
    assert "(unchanged" in second.text and second.tokens < 0.6 * first.tokens


def test_unknown_mode():
    page = distill(page_from_file(FIXTURE_DIR / "forms.html"))
    with pytest.raises(ValueError, match="unknown agent mode 'dom'"):
        observe(page, "dom")


def test_the_planned_mode_lists_the_steps_candidates_before_the_tools(shop):
    candidates = step_candidates('Click "Deals" in the navigation', [], shop)
    planned = observe(shop, "planned", candidates=candidates)
    head = planned.text.split("Tools:")[0]
    assert head.startswith(observe(shop, "query_only").text.split("Tools:")[0].rstrip())
    lines = head.split("Candidates for this step")[1].strip().splitlines()[1:]
    assert 1 <= len(lines) <= CANDIDATES and "Deals" in lines[0]
    assert "Candidates" not in observe(shop, "query_only", candidates=candidates).text


def test_an_element_whose_action_changed_nothing_is_listed_last_not_dropped():
    page = distill(page_from_html(
        '<html><body><div id="terminal" onclick="1">user$ </div>'
        '<button>Next</button></body></html>', "https://example.test/terminal"))
    terminal = next(ref for ref, d in page.refs.items() if d.tag == "div")
    task = "Use the terminal below to delete a file"
    lines = step_candidates(task, [], page, avoid=terminal).splitlines()[1:]
    assert lines[-1].startswith(f"[{terminal}]"), lines  # its keys may go to it next
    assert not lines[0].startswith(f"[{terminal}]"), lines
    alone = distill(page_from_html('<html><body><div id="terminal" onclick="1">user$ </div>'
                                   "</body></html>", "https://example.test/terminal"))
    only = step_candidates(task, [], alone, avoid=1)
    assert only.splitlines()[1].startswith("[1]"), only  # never "none" for the only one
    crowded = distill(page_from_html(
        '<html><body><div id="terminal" onclick="1">Use the terminal below: user$ </div>'
        "<button>Delete file</button><button>Remove file</button><button>Use a file</button>"
        "</body></html>",
        "https://example.test/terminal"))
    listed = step_candidates(task, [], crowded, avoid=1).splitlines()[1:]
    assert len(listed) == CANDIDATES and listed[-1].startswith("[1]"), listed  # not cut off


SORTABLE = """<html><body><p>Drag the names into order.</p><ul id="sortable">
  <li onclick="1">Andriana</li><li onclick="1">Theadora</li><li onclick="1">Martelle</li>
  <li onclick="1">Laurette</li><li onclick="1">Theodosia</li></ul>
  <button>Submit</button></body></html>"""


def test_a_dragged_list_item_is_listed_before_the_items_it_can_take_the_slot_of():
    page = distill(page_from_html(SORTABLE, "https://example.test/sortable"))
    def names(task: str) -> list[str]:
        lines = step_candidates(task, [], page).splitlines()[1:]
        return [line.split(">")[1].split("<")[0] for line in lines]

    # the item whose slot the task names first (Martelle is 3rd), then the rest in page order
    assert names("Drag Theodosia to the 3rd position.") == [
        "Theodosia", "Martelle", "Andriana", "Theadora", "Laurette"]
    assert names("Drag Theadora down by one position.")[:2] == ["Theadora", "Martelle"]
    assert names("Drag Martelle to the top.")[:2] == ["Martelle", "Andriana"]
    assert names("Drag Theadora to the first position.")[:2] == ["Theadora", "Andriana"]
    for own in ("top", "first position"):  # its own slot: page order
        assert names(f"Drag Andriana to the {own}.")[1] == "Theadora"
    assert names("Drag Theodosia into the list.") == [  # no slot named: page order
        "Theodosia", "Andriana", "Theadora", "Martelle", "Laurette"]
    clicked = step_candidates("Click Theodosia.", [], page).splitlines()[1:]
    assert len(clicked) == CANDIDATES and "Theodosia" in clicked[0]  # no drag: as before



def shapes_page(placed: bool):
    """drag-shapes-2's drawing, distilled: two outline boxes and three shapes, the red circle
    inside the left box when ``placed`` (boxes laid out as a capture would)."""
    circle = (5, 5) if placed else (20, 80)
    shapes = {"circle": circle, "rect": (60, 80), "polygon": (100, 80)}
    html = ('<html><body><svg id="area_svg">'
            + "".join(f'<rect id="shape-container" x="{x}" width="70" height="50" fill="none" '
                      f'stroke="black"></rect>' for x in (0, 80))
            + '<circle r="8" fill="red" style="cursor:pointer"></circle>'
            + '<rect width="16" height="16" fill="blue" style="cursor:pointer"></rect>'
            + '<polygon points="0,16 8,0 16,16" fill="red" style="cursor:pointer"></polygon>'
            + '</svg><button>Submit</button></body></html>')
    state = page_from_html(html, "https://example.test/shapes")
    for node in state.nodes:
        if node.attributes.get("id") == "shape-container":
            node.bounds = (float(node.attributes["x"]), 0.0, 70.0, 50.0)
        elif node.tag in shapes:
            node.bounds = (*map(float, shapes[node.tag]), 16.0, 16.0)
    return distill(state)


def test_a_dragged_shape_is_listed_before_the_boxes_of_its_drawing():
    task = "Drag all circles into the left box, and everything else into the right box."
    lines = step_candidates(task, [], shapes_page(placed=False)).splitlines()[1:]
    assert "<circle color=red />" in lines[0]
    assert lines[1:] == ["[1]<rect id=shape-container box=left />",
                         "[2]<rect id=shape-container box=right />"]  # named as the task does
    after = step_candidates(task, ["dragged [3] onto [1]"], shapes_page(placed=True))
    after_lines = after.splitlines()[1:]
    # the circle in its box is done: a shape still to place leads, with the boxes it can go to,
    # the box of "everything else" first
    assert "<rect color=blue />" in after_lines[0] and after_lines[1:] == lines[:0:-1]
    by_colour = "Drag all blue shapes into the left box, and everything else into the right box."
    lines = step_candidates(by_colour, [], shapes_page(placed=False)).splitlines()[1:]
    assert "<rect color=blue />" in lines[0] and "box=left" in lines[1]  # the blue one first
    page = shapes_page(placed=False)
    index = index_for(page)
    for ref, node in page.refs.items():  # each shape with its box first
        if node.tag in ("circle", "polygon", "rect") and "box" not in node.attrs:
            first = page.refs[drop_places(index, by_colour, ref)[0]].attrs["box"]
            assert first == ("left" if node.attrs.get("color") == "blue" else "right")


def test_a_shape_shows_the_box_a_drag_put_it_in():
    page = shapes_page(placed=True)
    circle = next(node for node in page.refs.values() if node.tag == "circle")
    assert circle.attrs == {"in_box": "left", "color": "red"}
    assert "in_box" not in next(node for node in shapes_page(placed=False).refs.values()
                                if node.tag == "circle").attrs


def test_a_dragged_grid_item_lists_first_the_cell_the_task_names():
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
    items = "".join(f'<li onclick="1">{name}</li>' for name in names)
    state = page_from_html(f'<html><body><ul id="sortable">{items}</ul></body></html>',
                           "https://example.test/grid")
    cells = iter(range(9))
    for node in state.nodes:  # laid out three a row, as drag-items-grid floats them
        if node.tag == "li":
            cell = next(cells)
            node.bounds = (40.0 * (cell % 3), 40.0 * (cell // 3), 34.0, 34.0)
    page = distill(state)

    def first_place(task: str) -> str:
        return step_candidates(task, [], page).splitlines()[2].split(">")[1].split("<")[0]

    assert first_place("Drag Ed to the top right.") == "Cy"
    assert first_place("Drag Ann to the center.") == "Ed"
    assert first_place("Drag Ann to the bottom center.") == "Hal"
    assert first_place("Drag Ed up by one.") == "Bo"
    assert first_place("Drag Ed left by one.") == "Di"
    assert first_place("Drag Ivy to the center left.") == "Di"


def test_each_slider_shows_the_value_the_tasks_list_gives_it():
    sliders = "".join(f'<div id="slider-{i}" class="ui-slider" onclick="1"></div><div>0</div>'
                      for i in (1, 2, 3))
    page = distill(page_from_html(f"<html><body>{sliders}<button>Submit</button></body></html>",
                                  "https://example.test/sliders"))
    task = "Set the sliders to the combination [2,3,11] and submit."
    lines = step_candidates(task, [], page).splitlines()[1:]
    assert [line.split(" — ")[-1] for line in lines] == [
        "the task's 1st value: 2 (now 0)", "the task's 2nd value: 3 (now 0)",
        "the task's 3rd value: 11 (now 0)"]
    two = "Set the sliders to the combination [2,3] and submit."  # not one value a slider
    assert all(" — the task's" not in line for line in step_candidates(two, [], page).splitlines())


def test_a_slider_that_shows_its_listed_value_gives_the_lead_to_the_next():
    # use-slider-2 after its first slider was set: the output beside it reads the task's 2
    shown = {1: "2", 2: "0", 3: "11"}
    sliders = "".join(f'<div id="slider-{i}" class="ui-slider" onclick="1"></div>'
                      f'<div id="val-{i}">{shown[i]}</div>' for i in (1, 2, 3))
    page = distill(page_from_html(f"<html><body>{sliders}<button>Submit</button></body></html>",
                                  "https://example.test/sliders"))
    task = "Set the sliders to the combination [2,3,11] and submit."
    history = ["[div]   -> SELECT: 2"]
    listed = step_candidates(task, history, page).splitlines()[1:]
    assert listed[0].startswith("[2]<div id=slider-2 />"), listed  # slider-3 shows its 11
    assert listed[0].endswith(": 3 (now 0)") and listed[1].endswith(": 2 (set)"), listed
    aria = "".join(f'<div role="slider" aria-valuenow="{v}" aria-label="s{i}" tabindex="0">'
                   "</div>" for i, v in ((1, 2), (2, 3), (3, 0)))
    page = distill(page_from_html(f"<html><body>{aria}<button>Submit</button></body></html>",
                                  "https://example.test/aria"))
    assert "s3" in step_candidates(task, history, page).splitlines()[1]


def test_cards_turned_one_at_a_time_lead_to_the_greatest_then_to_submit():
    # MiniWoB++ find-greatest: a click turns one card up and the others down
    def page_showing(shown: int | None, numbers=(0, 10, 5)):
        cards = "".join(
            f'<div class="card{"" if i == shown else " hidden"}" onclick="1">'
            + (f'<span class="card-value">{n}</span>' if i == shown else "") + "</div>"
            for i, n in enumerate(numbers))
        return distill(page_from_html(
            f'<html><body><div id="cardholder">{cards}</div>'
            '<button id="submit">Submit</button></body></html>', "https://example.test/cards"))

    task = "Find and pick the card with the greatest number, then press submit."
    turns = ["[div]  0 -> CLICK", "[div]  10 -> CLICK", "[div]  5 -> CLICK"]

    def first(history, page):
        return step_candidates(task, history, page).splitlines()[1]

    assert first([], page_showing(None)).startswith("[1]<div")
    assert first(turns[:1], page_showing(0)).startswith("[2]<div")  # the next card to turn
    assert first(turns[:2], page_showing(1)).startswith("[3]<div")
    assert first(turns, page_showing(2)).startswith("[2]<div")  # every card seen: the 10
    assert first([*turns, "[div]  10 -> CLICK"], page_showing(1)).startswith("[4]<button")
    assert "— 10" not in step_candidates(task, turns[:2], page_showing(1))  # not a hidden one's


def test_a_guessed_number_shows_the_range_the_feedback_leaves():
    # MiniWoB++ guess-number: the page says only whether the last guess sent was too high
    def page_saying(feedback: str):
        return distill(page_from_html(
            '<html><body><div id="query">Guess the number between 0-9 and press Submit.</div>'
            f'<input type="number" id="tt"><button id="subbtn">Submit</button>'
            f"<div>{feedback}</div></body></html>", "https://example.test/guess"))

    task = "Guess the number between 0-9 and press Submit. Use the feedback below."
    first = step_candidates(task, [], page_saying("")).splitlines()[1]
    assert first.endswith(" — the number lies in 0-9: guess 4"), first
    sent = ["[spinbutton]  Submit -> TYPE: 4", "[key]  Enter -> ENTER"]
    lower = step_candidates(task, sent, page_saying("The number is lower than 4 ."))
    assert "the number lies in 0-3: guess 1" in lower
    waiting = step_candidates(task, [*sent, "[spinbutton]  Submit -> TYPE: 1"],
                              page_saying("The number is lower than 4 ."))
    assert "lies in" not in waiting  # the typed guess is still to send
    again = [*sent, "[spinbutton]  Submit -> TYPE: 1", "[button]  Submit -> CLICK"]
    higher = step_candidates(task, again, page_saying("The number is higher than 1 ."))
    assert "the number lies in 2-3: guess 2" in higher  # 1 was too low, 4 too high


def test_a_greatest_number_on_a_page_without_cards_face_down_is_read_as_shown():
    rows = "".join(f'<div class="score">Score {n} <button>Pick</button></div>' for n in (3, 12, 7))
    page = distill(page_from_html(f"<html><body>{rows}</body></html>",
                                  "https://example.test/scores"))
    task = "Pick the one with the highest score."  # no card shows nothing: no turning
    for history in ([], ["[button]  Pick -> CLICK"], ["[div]  3 -> CLICK"]):
        first = step_candidates(task, history, page).splitlines()[1]
        assert first == "[2]<button>Pick</button> — Score 12", (history, first)
