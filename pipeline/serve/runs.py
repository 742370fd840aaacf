"""Agent runs: a task played on a live page by the served model through the agent loop.

    POST /v1/agent/runs  {"task": "Click the OK button.", "url": "https://...",
                          "mode": "query_only", "max_steps": 5}
    -> {"id", "task", "url", "final_url", "stop", "answer", "history", "steps": [...],
        "prompt_tokens", "completion_tokens", "seconds"}

The run opens a browser session (same URL rules and pool as ``/v1/sessions``), plays
``play_episode`` with the served policy (the eval's loop: error feedback, ``StepLimits`` from
``sessions.limits``), closes the session and answers with the episode record. With
``"stream": true`` the answer is server-sent events: ``event: step`` with each step's record as
it ends, then ``event: run`` with the whole record (``event: error`` if the page would not open),
then ``data: [DONE]``. At most ``sessions.max_runs`` run at once; the next gets 429; a run
longer than ``sessions.run_timeout_s`` is stopped with 504.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse

from pipeline.agent.conversation import opening
from pipeline.agent.execute import ToolResult, execute
from pipeline.agent.history import history_line
from pipeline.agent.loop import StepLimits, StepOutcome, play_episode
from pipeline.agent.modes import Mode
from pipeline.distill.model import DistilledPage
from pipeline.serve.config import SessionSettings
from pipeline.serve.errors import ApiError
from pipeline.serve.sessions import BrowserSession, SessionPool, check_mode
from pipeline.serve.urls import check_url
from pipeline.tools import ToolCall

SETTLE_MS = 300  # after an action, before the next capture


class SessionEnvironment:
    """A browser session as the loop's ``Environment``: the episode ends by ``done``, the step
    limit or idling (a served page has no judge)."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self.acted = False

    async def observe(self) -> DistilledPage:
        if self.acted:
            await self.session.page.wait_for_timeout(SETTLE_MS)
            self.acted = False
        self.session.distilled = None
        return await self.session.current()

    async def act(self, call: ToolCall, page: DistilledPage) -> ToolResult:
        result = await execute(call, page, self.session.actions)
        self.acted = self.acted or result.ok
        return result

    async def finished(self) -> bool:
        return False


class AgentRuns:
    def __init__(self, policy: Any, settings: SessionSettings, pool: SessionPool) -> None:
        self.policy, self.settings, self.pool = policy, settings, pool
        self.running = 0

    async def run(self, body: Any) -> dict[str, Any]:
        """Play the run the body asks for; its record."""
        task, url, mode, limits = self._parse(body)
        self._reserve()
        return await self._play(task, url, mode, limits)

    async def stream(self, body: Any) -> AsyncIterator[str]:
        """The same run as server-sent events: one ``step`` event per step as it ends, then
        ``run`` with the record (or ``error``), then ``[DONE]``. Bad requests, refused URLs
        and a full server are answered before the stream starts."""
        task, url, mode, limits = self._parse(body)
        await check_url(url, self.settings.allow_private)
        self._reserve()
        events: asyncio.Queue[str | None] = asyncio.Queue()

        async def on_step(outcome: StepOutcome) -> None:
            await events.put(_event("step", outcome.to_dict()))

        async def play() -> None:
            try:
                await events.put(_event("run", await self._play(task, url, mode, limits,
                                                                 on_step)))
            except ApiError as exc:
                await events.put(_event("error", exc.body()))
            finally:
                await events.put(None)

        async def relay() -> AsyncIterator[str]:
            worker = asyncio.create_task(play())
            while (event := await events.get()) is not None:
                yield event
            await worker
            yield "data: [DONE]\n\n"

        return relay()

    def _reserve(self) -> None:
        if self.running >= self.settings.max_runs:
            raise ApiError(429, f"{self.running} agent runs are going, the most allowed "
                           "(sessions.max_runs); retry later", "too_many_runs",
                           headers={"Retry-After": "5"})
        self.running += 1

    async def _play(self, task: str, url: str, mode: Mode, limits: StepLimits,
                    on_step: Any = None) -> dict[str, Any]:
        """Open the session, play the episode, close it; frees the run's slot."""
        try:
            session = await self.pool.open(url)
            session.pinned = True
            try:
                record = await asyncio.wait_for(
                    play_episode(self.policy, SessionEnvironment(session), task, mode, limits,
                                 history_line, opening, on_step=on_step),
                    self.settings.run_timeout_s)
                final_url = session.page.url if session.error is None else None
            except TimeoutError:
                raise ApiError(504, f"the run took longer than sessions.run_timeout_s="
                               f"{self.settings.run_timeout_s:g} s; give fewer max_steps",
                               "timeout") from None
            finally:
                await self.pool.close(session.id)
        finally:
            self.running -= 1
        return {"id": f"run-{uuid.uuid4().hex[:16]}", "object": "agent.run", "url": url,
                "final_url": final_url, "policy": getattr(self.policy, "name", "?"),
                **record.to_dict(),
                "prompt_tokens": sum(s.prompt_tokens for s in record.steps),
                "completion_tokens": sum(s.completion_tokens for s in record.steps)}

    def _parse(self, body: Any) -> tuple[str, str, Mode, StepLimits]:
        if not isinstance(body, dict):
            raise ApiError(400, "the body must be a JSON object with task and url",
                           "invalid_value")
        for key in ("task", "url"):
            if not isinstance(body.get(key), str) or not body[key].strip():
                raise ApiError(400, f"{key}: required, a non-empty string", "missing_field", key)
        mode = check_mode(body.get("mode") or self.settings.mode)
        limits = self.settings.limits
        steps = body.get("max_steps")
        if steps is not None:
            if not isinstance(steps, int) or not 0 < steps <= limits.max_steps:
                raise ApiError(400, f"max_steps: give 1..{limits.max_steps}", "invalid_value",
                               "max_steps")
            limits = dataclasses.replace(limits, max_steps=steps)
        return body["task"], body["url"], mode, limits


def install_run_routes(app: FastAPI, runs: AgentRuns) -> None:
    from pipeline.serve.app import read_json

    limit = app.state.serve.config.limits.max_body_bytes

    @app.post("/v1/agent/runs")
    async def run(request: Request) -> Any:
        body = await read_json(request, limit)
        if isinstance(body, dict) and body.get("stream"):
            return StreamingResponse(await runs.stream(body), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache"})
        return await runs.run(body)


def _event(kind: str, data: dict[str, Any]) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"
