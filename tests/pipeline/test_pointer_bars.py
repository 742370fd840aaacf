"""A pointer-styled bar around two controls is their bar, not a third control (live Chromium)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from pipeline.distill import distill

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><head><style>
.bar, .card { cursor: pointer; } .bar span, .card span { margin: 0 8px; }
</style></head><body>
<div class="bar" id="bar"><span id="reply" onclick="1">Reply</span><span id="forward"
 onclick="1">Forward</span></div>
<div class="card" id="card">Open the report <span id="a" onclick="1">Edit</span><span id="b"
 onclick="1">Delete</span></div>
<div class="bar" id="own" onclick="1"><span id="c" onclick="1">Yes</span><span id="d"
 onclick="1">No</span></div>
</body></html>"""


def test_a_bar_only_its_cursor_makes_clickable_gives_its_controls_the_refs(capture_session):
    page = distill(capture_session.capture("data:text/html," + quote(PAGE)))
    ids = {page.state.nodes[d.node_id].attributes.get("id") for d in page.refs.values()}
    assert {"reply", "forward", "a", "b", "c", "d"} <= ids
    assert "bar" not in ids  # two controls and no text of its own: their bar
    assert "card" in ids  # text of its own: a card that opens, beside its two buttons
    assert "own" in ids  # a handler of its own: a control whatever it holds
