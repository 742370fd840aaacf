"""Browser sessions: a live page per session in one pooled headless Chromium, driven by the query
tools and actions.

    POST   /v1/sessions                  {"url": "https://..."}  -> {"id", "url", "title"}
    POST   /v1/sessions/{id}/call        {"name": "query_elements", "arguments": {...}}
                                         -> {"role": "tool", "name", "content", "ok", "error"}
    GET    /v1/sessions/{id}/observation?mode=query_only|hybrid|full
    DELETE /v1/sessions/{id}

Every session has its own browser context (no shared cookies) guarded by ``RequestGuard``.
Queries answer from the last capture (taken on first use, and again after each action); actions
run on the live page through ``LiveActions`` by the refs of that capture. Idle sessions are
closed by ``reap_forever``. When Chromium dies, its sessions report ``browser_crashed`` (410)
and the next session starts a fresh browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request

from pipeline.agent import modes
from pipeline.agent.execute import ToolResult, execute, run_query
from pipeline.agent.modes import Mode
from pipeline.agent.observe import observe
from pipeline.distill.model import DistilledPage
from pipeline.errors import CaptureError
from pipeline.serve.config import SessionSettings
from pipeline.serve.errors import ApiError
from pipeline.serve.urls import RequestGuard, check_url
from pipeline.tools import ToolCall, from_json

SETTLE_TIMEOUT_MS = 2_000  # after an action, at most this long for a page it opened to load


@dataclass(eq=False)
class BrowserSession:
    id: str
    url: str
    context: Any
    page: Any
    actions: Any  # LiveActions
    guard: RequestGuard
    browser_config: Any
    last_used: float = field(default_factory=time.monotonic)
    distilled: DistilledPage | None = None  # the last capture, None when stale
    previous: DistilledPage | None = None
    error: str | None = None
    pinned: bool = False  # an agent run's page: closed by the run, never reaped
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def current(self) -> DistilledPage:
        """The page as last captured; captured now when stale."""
        from pipeline.capture.live import capture_page
        from pipeline.distill import distill

        if self.distilled is None:
            try:
                state = await capture_page(self.page, self.browser_config)
            except CaptureError as exc:
                raise ApiError(409, f"the page cannot be captured: {exc}", "capture_failed") \
                    from None
            self.distilled = distill(state)
        return self.distilled

    async def call(self, call: ToolCall) -> ToolResult:
        page = await self.current()
        if call.kind == "query":
            return run_query(call, page)
        result = await execute(call, page, self.actions)
        if call.name != "done":
            self.previous, self.distilled = page, None  # the page may have changed
            await self._settle()
        return result

    async def _settle(self) -> None:
        """Let a navigation an action started finish loading before the next capture."""
        from playwright.async_api import Error as PlaywrightError

        with contextlib.suppress(PlaywrightError, TimeoutError):
            await self.page.wait_for_load_state("load", timeout=SETTLE_TIMEOUT_MS)


class SessionPool:
    def __init__(self, settings: SessionSettings) -> None:
        self.settings = settings
        self.sessions: dict[str, BrowserSession] = {}
        self._browser: Any = None
        self._stack: AsyncExitStack | None = None
        self._launching = asyncio.Lock()
        self._opening = 0  # sessions whose page is loading

    def __len__(self) -> int:
        return sum(1 for s in self.sessions.values() if s.error is None)

    async def open(self, url: str) -> BrowserSession:
        """A new session on ``url`` (400 for a refused or failed URL, 429 at the limit)."""
        await check_url(url, self.settings.allow_private)
        if len(self) + self._opening >= self.settings.max_sessions:
            raise ApiError(429, f"{len(self)} sessions are open, the most allowed "
                           f"(sessions.max_sessions); DELETE one first", "too_many_sessions")
        self._opening += 1  # a slot held while the page loads
        try:
            session = await self._start(url, await self._ensure_browser())
        finally:
            self._opening -= 1
        self.sessions[session.id] = session
        return session

    async def _start(self, url: str, browser: Any) -> BrowserSession:
        from pipeline.live.actions import LiveActions
        from pipeline.live.browser import new_context

        config = self.settings.browser
        guard = RequestGuard(self.settings.allow_private)
        context = None
        try:
            context = await new_context(browser, config)
            await context.route("**/*", guard.route)
            page = await context.new_page()
            session = BrowserSession(uuid.uuid4().hex[:16], url, context, page,
                                     LiveActions(page), guard, config)
            page.on("crash", lambda _page: self._fail(session, "the page crashed"))
            await page.goto(url, wait_until="load", timeout=config.navigation_timeout_ms)
        except Exception as exc:  # noqa: BLE001 -- any failure here is the caller's 4xx/503
            if context is not None:
                await _close_context(context)
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            if not browser.is_connected():
                raise ApiError(503, f"the browser died while opening {url}: {first}; retry",
                               "browser_unavailable") from None
            blocked = f" (blocked: {guard.blocked[-1]})" if guard.blocked else ""
            raise ApiError(400, f"url: {url} did not load: {first}{blocked}",
                           "navigation_failed", "url") from None
        return session

    def get(self, session_id: str) -> BrowserSession:
        session = self.sessions.get(session_id)
        if session is None:
            raise ApiError(404, f"no session {session_id!r} (closed, reaped after "
                           f"{self.settings.idle_timeout_s:g} s idle, or never opened)",
                           "session_not_found")
        if session.error is not None:
            raise ApiError(410, f"session {session_id}: {session.error}; DELETE it and open a "
                           "new one", "browser_crashed")
        session.last_used = time.monotonic()
        return session

    async def close(self, session_id: str) -> None:
        session = self.sessions.pop(session_id, None)
        if session is None:
            raise ApiError(404, f"no session {session_id!r}", "session_not_found")
        await session.actions.close()
        await _close_context(session.context)

    async def reap(self) -> list[str]:
        """Close sessions idle longer than ``idle_timeout_s``; their ids."""
        now = time.monotonic()
        idle = [sid for sid, s in self.sessions.items()
                if now - s.last_used > self.settings.idle_timeout_s and not s.lock.locked()
                and not s.pinned]
        for sid in idle:
            with contextlib.suppress(ApiError):
                await self.close(sid)
        return idle

    async def reap_forever(self) -> None:
        while True:
            await asyncio.sleep(max(0.5, min(30.0, self.settings.idle_timeout_s / 4)))
            await self.reap()

    async def close_all(self) -> None:
        for sid in list(self.sessions):
            with contextlib.suppress(ApiError):
                await self.close(sid)
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = self._browser = None

    async def _ensure_browser(self) -> Any:
        from pipeline.live.browser import launch_browser

        async with self._launching:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            if self._stack is not None:
                with contextlib.suppress(Exception):
                    await self._stack.aclose()
            self._stack = AsyncExitStack()
            try:
                browser = await self._stack.enter_async_context(
                    launch_browser(self.settings.browser))
            except CaptureError as exc:
                raise ApiError(503, f"no browser: {exc}", "browser_unavailable") from None
            browser.on("disconnected", lambda _b: self._browser_died(browser))
            self._browser = browser
            return browser

    def _browser_died(self, browser: Any) -> None:
        for session in self.sessions.values():
            if session.context.browser is browser or session.context.browser is None:
                # the cause, over a "page crashed" its renderer's death may have reported first
                session.error = "the browser crashed or was killed"
        if self._browser is browser:
            self._browser = None

    @staticmethod
    def _fail(session: BrowserSession, why: str) -> None:
        session.error = session.error or why


async def _close_context(context: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(context.close(), 5)


def install_session_routes(app: FastAPI, pool: SessionPool) -> None:
    from pipeline.serve.app import read_json

    limit = app.state.serve.config.limits.max_body_bytes

    @app.post("/v1/sessions")
    async def open_session(request: Request) -> dict[str, Any]:
        body = await read_json(request, limit)
        url = body.get("url") if isinstance(body, dict) else None
        if not isinstance(url, str):
            raise ApiError(400, "url: required, an http(s) URL", "missing_field", "url")
        session = await pool.open(url)
        return {"id": session.id, "object": "session", "url": session.page.url,
                "title": await session.page.title()}

    @app.post("/v1/sessions/{session_id}/call")
    async def call(session_id: str, request: Request) -> dict[str, Any]:
        body = await read_json(request, limit)
        session = pool.get(session_id)
        parsed = from_json(body) if isinstance(body, dict) else None
        if not isinstance(parsed, ToolCall):
            why = parsed.message if parsed is not None else "expected a JSON object"
            raise ApiError(400, f"the call: {why}", "invalid_tool_call")
        async with session.lock:
            result = await _guarded(session, session.call(parsed))
        return {"role": "tool", "name": result.name, "content": result.text, "ok": result.ok,
                "error": result.error, "done": result.done, "answer": result.answer}

    @app.get("/v1/sessions/{session_id}/observation")
    async def observation(session_id: str, mode: str = "") -> dict[str, Any]:
        session = pool.get(session_id)
        mode = check_mode(mode or pool.settings.mode)
        async with session.lock:
            page = await _guarded(session, session.current())
        seen = observe(page, mode, session.previous)
        return {"mode": mode, "text": seen.text, "tokens": seen.tokens,
                "url": page.state.url, "title": page.state.title, "elements": len(page.refs)}

    @app.delete("/v1/sessions/{session_id}")
    async def delete(session_id: str) -> dict[str, Any]:
        await pool.close(session_id)
        return {"id": session_id, "object": "session", "deleted": True}


async def _guarded(session: BrowserSession, work: Any) -> Any:
    """Run browser work for a session; a browser that dies under it becomes the session's
    410, never a 500."""
    from playwright.async_api import Error as PlaywrightError

    try:
        return await work
    except (PlaywrightError, ApiError) as exc:
        if isinstance(exc, ApiError) and session.error is None:
            raise
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        session.error = session.error or f"the browser failed: {first}"
        raise ApiError(410, f"session {session.id}: {session.error}; DELETE it and open a new "
                       "one", "browser_crashed") from None
    finally:
        session.last_used = time.monotonic()


def check_mode(mode: str) -> Mode:
    """The agent mode, or a 400 naming the choices."""
    try:
        return modes.check_mode(mode)
    except ValueError as exc:
        raise ApiError(400, f"mode: {exc}", "invalid_value", "mode") from None
