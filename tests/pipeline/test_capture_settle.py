"""A capture waits for images that still lack a size: an <img> or an element drawn by a CSS
``content: url(...)`` is 0x0 until its image arrives and would be dropped as invisible
(MiniWoB++'s social-media icons on a slow machine). The wait is bounded by settle_timeout_ms."""

from __future__ import annotations

import struct
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread

import pytest

from pipeline.capture import CaptureSession
from pipeline.distill import distill
from pipeline.live.browser import BrowserConfig

pytestmark = pytest.mark.browser

# The icons are inserted by a script after the load event, as MiniWoB++ tasks draw their episode,
# so the load event does not wait for them.
PAGE = b"""<!DOCTYPE html><title>icons</title>
<style>.more { content: url(/icon.png?css); cursor: pointer; }</style>
<div id="area"></div>
<script>
window.addEventListener("load", () => {
  const area = document.getElementById("area");
  area.innerHTML = '<span class="more" onclick="1"></span>' +
                   '<img id="photo" src="/icon.png?img" onclick="1">';
});
</script>"""


def _png(size: int = 14) -> bytes:
    """A valid size x size grey PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\x80" * size for _ in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


@contextmanager
def slow_icon_server(delay_s: float) -> Iterator[str]:
    """Serves PAGE at /, and its icon after ``delay_s`` seconds."""
    icon = _png()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/icon.png"):
                time.sleep(delay_s)
                body, kind = icon, "image/png"
            else:
                body, kind = PAGE, "text/html"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the bounded test's browser closed before the icon arrived

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _size(state, predicate) -> tuple[float, float]:
    node = next(n for n in state.nodes if predicate(n))
    assert node.bounds is not None, f"<{node.tag}> has no layout"
    return node.bounds[2], node.bounds[3]


@pytest.fixture(scope="module")
def session():
    from tests.conftest import require_chromium

    require_chromium()
    with CaptureSession(BrowserConfig()) as session:
        yield session


def test_capture_waits_for_images_that_size_their_elements(session):
    with slow_icon_server(delay_s=0.6) as url:
        state = session.capture(url)
    assert _size(state, lambda n: n.attributes.get("class") == "more") == (14, 14)
    assert _size(state, lambda n: n.attributes.get("id") == "photo") == (14, 14)
    assert not state.meta["warnings"]
    page = distill(state)
    kept = {page.state.nodes[page.node_of(ref)].tag for ref in page.refs}
    assert {"span", "img"} <= kept


def test_the_wait_is_bounded_and_reported(session):
    config = BrowserConfig(settle_timeout_ms=200)
    with CaptureSession(config) as short, slow_icon_server(delay_s=3.0) as url:
        short.goto(url)
        started = time.monotonic()
        state = short.capture()
        waited = time.monotonic() - started
    assert waited < 2.0
    assert any("still loading after settle_timeout_ms=200" in w for w in state.meta["warnings"])


def test_no_wait_when_turned_off(session):
    config = BrowserConfig(settle_timeout_ms=0)
    with CaptureSession(config) as quick, slow_icon_server(delay_s=1.0) as url:
        quick.goto(url)
        state = quick.capture()
    assert _size(state, lambda n: n.attributes.get("class") == "more") == (0, 0)
    assert not state.meta["warnings"]
