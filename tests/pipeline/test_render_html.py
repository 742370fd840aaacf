"""Renderers over real distilled pages: HTML fixtures through page_from_html and distill."""

from pathlib import Path

import pytest

from pipeline.distill import distill
from pipeline.html.source import page_from_file, page_from_html
from pipeline.render import RenderOptions, render_flat, render_outline
from pipeline.render.metrics import compaction_metrics

FIXTURES = Path(__file__).resolve().parents[2] / "pipeline" / "fixtures"


@pytest.fixture(scope="module")
def shop_state():
    return page_from_file(FIXTURES / "shop.html")


def test_pagination_numbers_and_hrefs_are_kept():
    flat = render_flat(distill(page_from_file(FIXTURES / "pagination.html")))
    assert '<a href="?page=1">1</a>' in flat and '<a href="?page=2">2</a>' in flat


def test_select_shows_its_compound_hints_not_its_options():
    flat = render_flat(distill(page_from_file(FIXTURES / "select.html")))
    line = next(line for line in flat.splitlines() if "<select" in line)
    assert "options=50" in line and "selected=Germany" in line and line.endswith(" />")


def test_unchanged_shop_outline_shrinks_at_the_second_step(shop_state):
    first = distill(shop_state)
    second = distill(shop_state)
    step1, step2 = render_outline(first), render_outline(second, previous=first)
    assert 'NAV: "Primary" (unchanged, 8 links)' in step2
    assert "*[" not in step2 and "*[" not in render_flat(second, previous=first)
    row = compaction_metrics(shop_state, second, {"step1": step1, "step2": step2})
    assert row.tokens["step2"] <= 0.6 * row.tokens["step1"]


def test_elements_outside_landmarks_come_last():
    html = ("<html><body><nav aria-label=Primary><a href=/>Home</a></nav>"
            "<a href=/loose>Loose link</a><main><h1>Title</h1><button>Go</button></main>"
            "</body></html>")
    outline = render_outline(distill(page_from_html(html, url="https://t.test/")))
    assert outline.splitlines()[1:] == [
        'NAV: "Primary"',
        "  [1]<a href=/>Home</a>",
        "MAIN:",
        "  # Title",
        "  [3]<button>Go</button>",
        "(ungrouped):",
        "  [2]<a href=/loose>Loose link</a>",
    ]


def test_new_element_marked_by_xpath_on_html_without_backend_ids():
    before = "<html><body><main><a href=/a>A</a><button>Buy</button></main></body></html>"
    after = before.replace("</main>", "<button>Undo</button></main>")
    first = distill(page_from_html(before, url="https://t.test/"))
    second = distill(page_from_html(after, url="https://t.test/"))
    assert first.backend_id(1) is None
    assert render_flat(second, previous=first).splitlines() == [
        "[1]<a href=/a>A</a>", "[2]<button>Buy</button>", "*[3]<button>Undo</button>",
    ]


def test_mind2web_raw_html_chunks_by_its_boxes():
    page = distill(page_from_file(FIXTURES.parents[1] / "tests" / "data" / "mind2web" / "raw_sample.html"))
    first = render_flat(page, RenderOptions(viewport="chunk", chunk=0)).splitlines()
    assert first[0] == "... 0.0 pages above, 1.2 pages below (chunk 0 of 3)"
    assert "▼ iframe https://ads.example/frame.html" in first
    assert '[7]<textarea name=notes value="No smoking" />' in first
    assert render_flat(page, RenderOptions(viewport="chunk", chunk=1)) == (
        "... 1.0 pages above, 0.2 pages below (chunk 1 of 3): nothing in this chunk"
    )
    assert render_flat(page, RenderOptions(viewport="chunk", chunk=2)).endswith("© 2023 Budget")
