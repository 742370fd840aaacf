"""The HTTP server: an OpenAI-compatible chat endpoint, browser sessions, agent runs, health and
metrics, as one FastAPI app.

    app = create_app(config, policy)                         # policy: a ModelPolicy
    app = create_app(config, policy, sessions=SessionPool(...), runs=AgentRuns(...))
    uvicorn.run(app, host=config.host, port=config.port)     # what ``python -m pipeline serve`` does

Every route but ``/health`` wants ``Authorization: Bearer <token>`` when a token is set (always
the case off loopback; compared in constant time). Bodies over ``limits.max_body_bytes`` get
413; every error is an OpenAI error body (``pipeline.serve.errors``); an exception nobody
expected is a 500 with the same body, logged, and the server stays up.
"""

from __future__ import annotations

import hmac
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.exceptions import HTTPException

from pipeline.agent.policy import calls_before
from pipeline.serve.chat import completion_body, conversation, parse_chat_request, stream_chunks
from pipeline.serve.config import ServeConfig
from pipeline.serve.errors import ApiError, error_body
from pipeline.serve.generation import Generator
from pipeline.serve.metrics import Metrics, model_metrics

log = logging.getLogger("pagescout.serve")
OPEN_PATHS = ("/health",)


@dataclass(slots=True)
class ServerState:
    config: ServeConfig
    policy: Any
    metrics: Metrics
    generator: Generator
    sessions: Any = None  # pipeline.serve.sessions.SessionPool
    runs: Any = None  # pipeline.serve.runs.AgentRuns
    started: float = 0.0


def create_app(config: ServeConfig, policy: Any, sessions: Any = None, runs: Any = None,
               lifespan: Any = None) -> FastAPI:
    metrics = Metrics()
    state = ServerState(config, policy, metrics, Generator(policy, config.limits, metrics),
                        sessions, runs, time.time())
    app = FastAPI(title="pagescout", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.serve = state
    _install_guards(app, state)
    _install_errors(app)
    _install_routes(app, state)
    if sessions is not None:
        from pipeline.serve.sessions import install_session_routes

        install_session_routes(app, sessions)
    if runs is not None:
        from pipeline.serve.runs import install_run_routes

        install_run_routes(app, runs)
    return app


async def read_json(request: Request, limit: int) -> Any:
    """The request's JSON body, read up to ``limit`` bytes (413 beyond, 400 when not JSON)."""
    body = bytearray()
    async for part in request.stream():
        body += part
        if len(body) > limit:
            raise ApiError(413, f"request body over {limit} bytes", "body_too_large")
    try:
        return json.loads(body)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"the body is not valid JSON: {exc}", "invalid_json") from None


def _install_guards(app: FastAPI, state: ServerState) -> None:
    token = state.config.token()
    expected = f"Bearer {token}".encode() if token else None
    limit = state.config.limits.max_body_bytes

    @app.middleware("http")
    async def guard(request: Request, call_next):
        started = time.perf_counter()
        response = _refusal(request, expected, limit)
        if response is None:
            try:
                response = await call_next(request)
            except Exception:  # one broken request must not take the server down
                log.exception("unhandled error in %s %s", request.method, request.url.path)
                response = JSONResponse(error_body(500, "internal error; see the server log",
                                                   "internal_error"), status_code=500)
        route = request.scope.get("route")
        path = getattr(route, "path", None) or "unmatched"
        state.metrics.observe(path, response.status_code, time.perf_counter() - started)
        return response


def _refusal(request: Request, expected: bytes | None, limit: int) -> JSONResponse | None:
    """The 401/413 a request gets before it reaches a route, or None to let it through."""
    if request.url.path not in OPEN_PATHS:
        refused = _unauthorized(request.headers.get("authorization", "").encode(), expected)
        if refused is not None:
            return refused
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        return ApiError(413, f"request body over {limit} bytes", "body_too_large").response()
    return None


def _unauthorized(given: bytes, expected: bytes | None) -> JSONResponse | None:
    """The 401 for a missing or wrong token (compared in constant time), else None."""
    if expected is None or hmac.compare_digest(given, expected):
        return None
    return ApiError(401, "missing or wrong bearer token: send Authorization: Bearer <token>",
                    "invalid_api_key").response()


def bearer_guard(app: Any, token: str | None) -> Any:
    """An ASGI app that answers 401 unless ``Authorization: Bearer <token>`` (for apps built
    elsewhere, such as the MCP server's); ``app`` itself when there is no token."""
    if not token:
        return app
    expected = f"Bearer {token}".encode()

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            refused = _unauthorized(given, expected)
            if refused is not None:
                await refused(scope, receive, send)
                return
        await app(scope, receive, send)

    return guarded


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first["loc"] if p != "body") or "body"
        return ApiError(400, f"{where}: {first['msg']}", "invalid_value", where).response()

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code)
        return ApiError(exc.status_code, str(exc.detail), code).response()


def _install_routes(app: FastAPI, state: ServerState) -> None:
    config = state.config

    @app.get("/health")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "model": config.served_name, "policy": state.policy.name,
                "queue": state.generator.waiting,
                "sessions": len(state.sessions) if state.sessions is not None else 0,
                "uptime_s": round(time.time() - state.started, 1)}

    @app.get("/metrics")
    async def metrics() -> PlainTextResponse:
        gauges = {"pagescout_queue_length": state.generator.waiting,
                  "pagescout_open_sessions": len(state.sessions) if state.sessions else 0,
                  "pagescout_running_agent_runs": state.runs.running if state.runs else 0}
        text = state.metrics.text(gauges, model_metrics(state.policy.stats()))
        return PlainTextResponse(text, media_type="text/plain; version=0.0.4")

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [_model_card(state)]}

    @app.get("/v1/models/{model_id}")
    async def model(model_id: str) -> dict[str, Any]:
        if model_id != config.served_name:
            raise ApiError(404, f"The model {model_id!r} does not exist", "model_not_found")
        return _model_card(state)

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Any:
        body = await read_json(request, config.limits.max_body_bytes)
        chat_request = parse_chat_request(body, config.limits, config.served_name)
        messages = conversation(chat_request)
        generation = await state.generator(messages, chat_request.max_completion_tokens
                                           or chat_request.max_tokens)
        completion = completion_body(chat_request, generation.text, generation.prompt_tokens,
                                     generation.completion_tokens, calls_before(messages))
        if not chat_request.stream:
            return completion
        usage = bool((chat_request.stream_options or {}).get("include_usage"))
        return StreamingResponse(iter(stream_chunks(completion, usage)),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})


def _model_card(state: ServerState) -> dict[str, Any]:
    return {"id": state.config.served_name, "object": "model", "created": int(state.started),
            "owned_by": "pagescout", "root": state.policy.name}
