"""Texts that touch on screen read as one word, captured live in headless Chromium: a word's
letters spread over skewed inline-block spans (MiniWoB's text-transform captcha) and a price
split into spans, while whitespace the DOM API leaves out and separate boxes keep their space.
A Mind2Web raw_html dump of the page (text nodes keep their boxes) reads the same."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.html.mind2web_writer import to_mind2web_raw_html
from pipeline.html.source import page_from_html
from pipeline.live.static_server import serve_directory

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><body style="font: 16px sans-serif">
<div id="captcha" style="font-size:25px"><span style="display:inline-block;transform:skewX(20deg)"
>6</span><span style="display:inline-block;transform:skewY(-10deg)">g</span><span
style="display:inline-block;transform:skewX(-15deg)">H</span></div>
<p>Total: <span>$</span><span>12</span><span>.99</span></p>
<p>Last <span>reward:</span> <span>-</span></p>
<p><span style="display:inline-block;margin-right:8px">New</span><span
style="display:inline-block">Sale</span></p>
<div style="display:flex"><div>Price</div><div>$5</div></div>
<button>Submit</button>
</body></html>"""

JOINED = ["6gH", "Total: $12.99", "Last reward: -"]


def texts(state) -> list[str]:
    return [d.text for d in distill(state).root.walk() if d.is_text]


@pytest.fixture
def captured(capture_session, tmp_path):
    (tmp_path / "joints.html").write_text(PAGE, encoding="utf-8")
    with serve_directory(tmp_path) as base:
        return capture_session.capture(f"{base}/joints.html")


def test_touching_texts_join_and_spaced_ones_keep_their_space(captured):
    shown = texts(captured)
    assert shown[:3] == JOINED
    # boxes a margin apart and flex items (blocks of their own) are never glued
    assert shown[3:] == ["New", "Sale", "Price", "$5", "Submit"]


def test_a_mind2web_dump_of_the_page_reads_the_same(captured):
    dumped = page_from_html(to_mind2web_raw_html(captured), kind="mind2web_raw")
    shown = texts(dumped)
    assert shown[:3] == JOINED
    assert "NewSale" not in shown and "Price$5" not in shown


def test_without_layout_texts_of_two_elements_keep_a_space():
    state = page_from_html("<p><span>$</span><span>12</span></p><button>Go</button>", kind="html")
    assert texts(state) == ["$ 12", "Go"]
