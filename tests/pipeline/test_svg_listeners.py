"""SVG parts that listen for clicks keep their refs on a live page.

The noise pass drops the inside of every ``<svg>``; a live capture knows which of its parts have a
click listener (ascending-numbers draws its numbers as ``<text>`` with jQuery handlers), and those
stay, with their own text, while the undecorated shapes beside them are described in words
(``distill.drawings``) and the background they are drawn on is left out."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.live.static_server import serve_directory
from pipeline.render.flat import render_flat

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><title>numbers</title>
<svg id="area" width="160" height="160">
  <rect x="0" y="0" width="160" height="160" fill="#eee"></rect>
  <text x="20" y="40" font-size="20">1</text>
  <text x="90" y="120" font-size="20">2</text>
  <circle cx="120" cy="30" r="8"></circle>
</svg>
<script>
for (const t of document.querySelectorAll("text")) t.addEventListener("click", () => t.remove());
</script>"""


def test_svg_text_with_a_click_listener_gets_a_ref(capture_session, tmp_path):
    (tmp_path / "page.html").write_text(PAGE)
    with serve_directory(tmp_path) as base:
        page = distill(capture_session.capture(f"{base}/page.html"))
    flat = render_flat(page)
    assert "<text>1</text>" in flat and "<text>2</text>" in flat
    assert sorted(page.state.nodes[page.node_of(ref)].tag for ref in page.refs) == ["text", "text"]
    assert "<circle" not in flat and "rect" not in flat, flat
    assert flat.splitlines()[0] == "Drawing: 1 black circle.", flat
