"""A page that navigates away during a capture: one retry on the new document, and a message a
person understands instead of "Execution context was destroyed"."""

from __future__ import annotations

import urllib.parse

import pytest

from pipeline.capture import live, session
from pipeline.capture.live import describe_playwright_error
from pipeline.errors import CaptureError

DESTROYED = ("Page.evaluate: Execution context was destroyed, most likely because of a "
             "navigation")


def test_the_playwright_words_become_a_sentence():
    message = describe_playwright_error("page_info", RuntimeError(DESTROYED))
    assert "navigated to another document" in message and "Execution context" not in message


def flaky(times: int):
    """capture_page that meets a navigation ``times`` times, then captures."""
    calls = {"n": 0}

    async def capture(page, config):
        calls["n"] += 1
        if calls["n"] <= times:
            raise CaptureError(describe_playwright_error("page_info", RuntimeError(DESTROYED)))
        return await live.capture_page(page, config)

    return capture, calls


@pytest.mark.browser
def test_one_navigation_is_retried(capture_session, monkeypatch, fixture_server):
    capture, calls = flaky(1)
    monkeypatch.setattr(session, "capture_page", capture)
    state = capture_session.capture(f"{fixture_server}/forms.html")
    assert calls["n"] == 2 and state.nodes


@pytest.mark.browser
def test_two_in_a_row_are_one_clear_error(capture_session, monkeypatch, fixture_server):
    capture, _ = flaky(2)
    monkeypatch.setattr(session, "capture_page", capture)
    with pytest.raises(CaptureError, match="navigated away during two captures in a row"):
        capture_session.capture(f"{fixture_server}/forms.html")


@pytest.mark.browser
def test_a_page_that_keeps_reloading_is_captured_or_refused_clearly(capture_session):
    html = "<p>hi</p><script>setTimeout(() => location.reload(), 5)</script>"
    try:
        state = capture_session.capture("data:text/html," + urllib.parse.quote(html))
    except CaptureError as exc:
        assert "Execution context" not in str(exc), exc
    else:
        assert state.nodes
