"""SVG drawings described in words (pipeline/distill/drawings.py) and questions about them
answered on the page (pipeline/query/figures.py): from markup alone, and in a real Chromium."""

from __future__ import annotations

import pytest

from pipeline.agent.observe import step_candidates
from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.live.static_server import serve_directory
from pipeline.query.figures import figure_question
from pipeline.query.index import index_for
from pipeline.render.flat import render_flat

SHAPES = """<!DOCTYPE html><title>shapes</title>
<div id="area"><svg id="figure" width="160" height="160">
  <rect x="0" y="0" width="160" height="160" fill="#eee"></rect>
  <polygon points="10,30 30,30 20,10" fill="red"></polygon>
  <polygon points="40,30 60,30 50,10" fill="red"></polygon>
  <polygon points="70,20 80,20 75,10" fill="red"></polygon>
  <circle cx="100" cy="20" r="5" fill="#0000ff"></circle>
  <g fill="green"><text x="20" y="80" font-size="10">U</text></g>
  <text x="60" y="80" font-size="20" fill="aqua">7</text>
  <circle cx="100" cy="80" r="10" fill="none" stroke="black"></circle>
</svg></div>
{buttons}"""
COUNTS = "".join(f"<button>{n}</button>" for n in (0, 4, 2, 3, 1, 5))
KINDS = "".join(f"<button>{k}</button>" for k in ("Rectangle", "Circle", "Triangle", "Letter",
                                                   "Number"))


def _page(html: str):
    return distill(page_from_html(html, kind="html"))


def test_a_drawing_is_described_by_kind_colour_and_size_class():
    page = _page(SHAPES.format(buttons=COUNTS))
    [drawing] = page.drawings
    assert drawing.text == ('Drawing: 2 large red triangles, 1 small red triangle, 1 small blue '
                            'circle, 1 small green letter "U", 1 large aqua number "7", 1 large black '
                            'circle.')  # no backdrop: the rect the size of the svg
    assert drawing.text in render_flat(page)


def test_an_icon_and_a_drawing_without_marks_are_not_described():
    icon = _page('<button><svg width="16" height="16"><circle r="6" cx="8" cy="8"/></svg>'
                 "Save</button>")
    paths = _page('<svg width="200" height="100"><path d="M0 0 L10 10"/></svg><p>logo</p>')
    assert icon.drawings == [] and paths.drawings == []
    assert "Drawing" not in render_flat(icon) + render_flat(paths)


def test_labels_are_quoted_and_many_alike_are_counted():
    bars = "".join(f'<rect x="{10 * i}" y="0" width="8" height="40" fill="steelblue"/>'
                   for i in range(12))
    page = _page(f'<svg width="300" height="200">{bars}<text x="0" y="60">Sales 2024</text>'
                 "</svg>")
    assert page.drawings[0].text == 'Drawing: 12 steelblue rectangles, 1 label "Sales 2024".'


@pytest.mark.parametrize(("task", "answer"), [
    ("How many large red triangles are there?", "2"),
    ("How many red items are there?", "3"),
    ("How many small items are there?", "3"),
    ("How many circles are there?", "2"),
    ("How many black items are there?", "1"),  # the outline circle, by its stroke
    ("How many 7s are there?", "1"),
    ("How many letters are there?", "1"),
    ("How many digits are there?", "1"),
    ("How many shapes are there?", "5"),
])
def test_a_count_question_puts_the_button_showing_the_count_first(task, answer):
    page = _page(SHAPES.format(buttons=COUNTS))
    first = step_candidates(task, [], page).splitlines()[1]
    assert first.endswith(f"<button>{answer}</button>"), (task, first)


def test_a_count_the_reading_does_not_understand_leaves_the_words_ranking():
    page = _page(SHAPES.format(buttons=COUNTS))
    assert figure_question("How many wobbly things are there?") == "count:wobbly things"
    plan_first = step_candidates("How many wobbly things are there?", [], page).splitlines()[1]
    assert "<button>" not in plan_first  # no count leads: the drawing the words match does


@pytest.mark.parametrize(("shape", "button"), [
    ('<circle cx="25" cy="25" r="10" fill="red"/>', "Circle"),
    ('<rect x="5" y="5" width="20" height="20" fill="blue"/>', "Rectangle"),
    ('<polygon points="5,30 30,30 17,5" fill="blue"/>', "Triangle"),
    ('<text x="10" y="30" font-size="20">k</text>', "Letter"),
    ('<text x="10" y="30" font-size="20">3</text>', "Number"),
])
def test_the_button_that_describes_the_figure_comes_first(shape, button):
    page = _page(f'<svg width="50" height="50">{shape}</svg>{KINDS}')
    task = "Click the button that best describes the figure below."
    assert figure_question(task) == "kind"
    assert step_candidates(task, [], page).splitlines()[1].endswith(f"<button>{button}</button>")


def test_no_drawing_no_lead():
    page = _page(f"<p>nothing drawn</p>{COUNTS}")
    index = index_for(page)
    assert page.drawings == [] and index.page is page
    first = step_candidates("How many red items are there?", [], page).splitlines()[1]
    assert first.endswith("<button>0</button>")  # document order: no answer to lead with


@pytest.mark.browser
def test_live_sizes_come_from_the_boxes_and_kept_parts_get_hints(capture_session, tmp_path):
    listening = SHAPES.format(buttons=COUNTS).replace(
        "</div>", "</div><script>document.querySelectorAll('circle')[0]"
        ".addEventListener('click', () => {});</script>", 1)
    (tmp_path / "page.html").write_text(listening)
    with serve_directory(tmp_path) as base:
        page = distill(capture_session.capture(f"{base}/page.html"))
    flat = render_flat(page)
    # the backdrop (its box covers the drawing) is left out; the listening circle keeps its ref
    assert page.drawings[0].text == (
        'Drawing: 2 large red triangles, 1 small red triangle, 1 small green letter "U", 1 large '
        'aqua number "7", 1 large black circle.'), flat
    assert "<circle size=small color=blue />" in flat, flat
    first = step_candidates("How many small items are there?", [], page).splitlines()[1]
    assert first.endswith("<button>2</button>"), first  # the small triangle and "U" not kept
