"""Browser sessions for capturing many pages: one browser, one context, one page, reused.

``AsyncCaptureSession`` is for async callers (the agent loop, the server); ``CaptureSession`` wraps
it for synchronous ones (the CLI, the main job, benchmarks) by running its own event loop, and
``snapshot_url`` captures a single URL. ``session.page`` is the Playwright (async) page for
driving; from synchronous code run its coroutines with ``session.run(...)``::

    with CaptureSession(BrowserConfig()) as session:
        state = session.capture("http://127.0.0.1:8000/forms.html")
        session.run(session.page.fill("#full-name", "Ada"))
        state = session.capture()  # the same page, now with the typed value

URLs are checked first: http(s), ``data:`` and ``about:`` are allowed, ``file://`` only with
``allow_file_urls``. A navigation that does not finish within ``navigation_timeout_ms`` raises
``CaptureError``; after a failed capture the next one starts on a fresh page. A page that navigates
during a capture ("Execution context was destroyed") is captured once more after it loads.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import Any, Self
from urllib.parse import urlsplit

from pipeline.capture.live import capture_page, describe_playwright_error
from pipeline.errors import CaptureError
from pipeline.live.browser import BrowserConfig, launch_browser, new_context
from pipeline.page_state import PageState

ALLOWED_SCHEMES = frozenset({"http", "https", "data", "about"})


def check_url(url: str, config: BrowserConfig) -> None:
    """Raise CaptureError for a URL the capture must not or cannot open."""
    scheme = urlsplit(url).scheme.lower()
    if scheme == "file":
        if not config.allow_file_urls:
            raise CaptureError(
                f"{url}: file:// URLs are off; pass --allow-file-urls (browser.allow_file_urls="
                "true in a config), or serve the folder over http "
                "(pipeline.live.static_server.serve_directory)"
            )
        return
    if scheme not in ALLOWED_SCHEMES:
        raise CaptureError(
            f"{url!r} is not a URL pagescout can capture (scheme {scheme or 'missing'!r}); "
            "use an http(s):// URL, or file:// with browser.allow_file_urls=true"
        )


class AsyncCaptureSession:
    """One browser, context and page for many captures (``async with``)."""

    def __init__(self, config: BrowserConfig | None = None) -> None:
        self.config = config or BrowserConfig()
        self.page: Any = None
        self._stack = AsyncExitStack()
        self._context: Any = None
        self._fresh_page_needed = False

    async def __aenter__(self) -> Self:
        browser = await self._stack.enter_async_context(launch_browser(self.config))
        self._context = await new_context(browser, self.config)
        self.page = await self._open_page()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stack.aclose()

    async def goto(self, url: str) -> None:
        """Navigate the session's page to ``url`` and wait for its load event."""
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        check_url(url, self.config)
        await self._ensure_page()
        limit = self.config.navigation_timeout_ms
        try:
            await self.page.goto(url, wait_until="load", timeout=limit)
        except PlaywrightTimeout as exc:
            self._fresh_page_needed = True
            raise CaptureError(
                f"{url} did not load within navigation_timeout_ms={limit}; check that the "
                "server answers, or raise browser.navigation_timeout_ms"
            ) from exc
        except PlaywrightError as exc:
            self._fresh_page_needed = True
            raise CaptureError(describe_playwright_error(f"loading {url}", exc)) from exc

    async def capture(self, url: str | None = None) -> PageState:
        """Navigate to ``url`` if given, then capture the page as it is."""
        if url is not None:
            await self.goto(url)
        await self._ensure_page()
        try:
            return await capture_page(self.page, self.config)
        except CaptureError as exc:
            if "navigated to another document" not in str(exc):
                self._fresh_page_needed = True
                raise
        await self._settle()  # the page navigated during the capture: once more, on the new one
        try:
            return await capture_page(self.page, self.config)
        except CaptureError as exc:
            self._fresh_page_needed = True
            if "navigated to another document" in str(exc):
                raise CaptureError(f"{self.page.url} navigated away during two captures in a "
                                   "row (a page that keeps reloading or redirecting); wait for "
                                   "it to settle, or capture the page it ends on") from exc
            raise

    async def _settle(self) -> None:
        """Wait for the document a navigation brought to finish loading (bounded)."""
        from playwright.async_api import Error as PlaywrightError

        try:
            await self.page.wait_for_load_state("load", timeout=self.config.navigation_timeout_ms)
        except PlaywrightError:
            pass  # the retry reports what is wrong with the page

    async def new_page(self) -> Any:
        """Replace the session's page with a fresh one (the old one is closed)."""
        from playwright.async_api import Error as PlaywrightError

        old, self.page = self.page, await self._open_page()
        try:
            await asyncio.wait_for(old.close(), timeout=5)
        except (PlaywrightError, TimeoutError):
            pass  # a crashed or hung page may not close cleanly; its context still owns it
        return self.page

    async def _open_page(self) -> Any:
        """A new page in the session's context; a renderer crash marks it for replacement."""
        page = await self._context.new_page()
        self._fresh_page_needed = False
        page.on("crash", self._on_crash)
        return page

    def _on_crash(self, page: Any) -> None:
        if page is self.page:
            self._fresh_page_needed = True

    async def _ensure_page(self) -> None:
        if self._fresh_page_needed or self.page.is_closed():
            await self.new_page()


class CaptureSession:
    """Synchronous ``AsyncCaptureSession`` (``with``), running its own event loop."""

    def __init__(self, config: BrowserConfig | None = None) -> None:
        self._session = AsyncCaptureSession(config)
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def config(self) -> BrowserConfig:
        return self._session.config

    @property
    def page(self) -> Any:
        """The Playwright async page; drive it with ``session.run(session.page.click(...))``."""
        return self._session.page

    def __enter__(self) -> Self:
        self._loop = asyncio.new_event_loop()
        try:
            self.run(self._session.__aenter__())
        except BaseException:
            self._loop.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self._session.__aexit__(*exc))
        finally:
            self._loop.close()

    def run(self, coroutine: Any) -> Any:
        """Run a coroutine (e.g. a Playwright page call) on the session's loop."""
        if self._loop is None:
            raise RuntimeError("CaptureSession is not open: use it as `with CaptureSession() as s`")
        return self._loop.run_until_complete(coroutine)

    def goto(self, url: str) -> None:
        self.run(self._session.goto(url))

    def capture(self, url: str | None = None) -> PageState:
        return self.run(self._session.capture(url))

    def new_page(self) -> Any:
        return self.run(self._session.new_page())


def snapshot_url(url: str, config: BrowserConfig | None = None) -> PageState:
    """Launch a browser, capture ``url`` and close the browser."""
    with CaptureSession(config) as session:
        return session.capture(url)
