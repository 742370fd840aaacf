"""cdp_send in real Chromium: the same results as Playwright's public ``CDPSession.send`` (a DOM
snapshot, an evaluation), CDP errors raised the same way, and the public call used for a session
without an implementation object."""

from __future__ import annotations

import pytest
from playwright.async_api import Error as PlaywrightError

from pipeline.capture.live import SNAPSHOT_PARAMS
from pipeline.live.cdp import cdp_send


class PublicOnly:
    """A session that exposes only the public ``send`` (records what it was asked)."""

    def __init__(self, cdp) -> None:
        self.cdp, self.asked = cdp, []

    async def send(self, method, params=None):
        self.asked.append(method)
        return await self.cdp.send(method, params)


@pytest.mark.browser
def test_results_and_errors_are_those_of_the_public_send(capture_session, fixture_server):
    page = capture_session.page
    capture_session.run(page.goto(f"{fixture_server}/shop.html"))

    async def compare():
        cdp = await page.context.new_cdp_session(page)
        try:
            fast = await cdp_send(cdp, "DOMSnapshot.captureSnapshot", SNAPSHOT_PARAMS)
            public = await cdp.send("DOMSnapshot.captureSnapshot", SNAPSHOT_PARAMS)
            value = await cdp_send(cdp, "Runtime.evaluate",
                                   {"expression": "document.title", "returnByValue": True})
            with pytest.raises(PlaywrightError, match="wasn't found"):
                await cdp_send(cdp, "Nothing.atAll")
            fallback = PublicOnly(cdp)
            title = await cdp_send(fallback, "Runtime.evaluate",
                                   {"expression": "document.title", "returnByValue": True})
            return fast, public, value, title, fallback.asked
        finally:
            await cdp.detach()

    fast, public, value, title, asked = capture_session.run(compare())
    assert fast["documents"] and fast == public
    assert value["result"]["value"] == title["result"]["value"] != ""
    assert asked == ["Runtime.evaluate"]
