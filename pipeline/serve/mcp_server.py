"""The query tools and actions as an MCP server (stdio, or streamable HTTP at ``/mcp``), so an MCP
client browses a live page through pagescout's compact tools instead of a DOM dump.

    python -m pipeline serve --config configs/serve/default.yaml --mcp stdio
    python -m pipeline serve --config configs/serve/default.yaml --mcp http port=8012

Tools: ``open_page(url)`` opens a page in the pooled headless Chromium (same URL rules as the
HTTP sessions) and makes it the current page; ``observe(mode)`` says what the page shows
(``query_only``, ``hybrid`` or ``full``); ``get_page_summary``, ``query_elements``,
``get_region``, ``get_element_details``, ``click``, ``type``, ``select`` and ``press`` take the
arguments of the tool registry's schemas; ``close_page`` closes it. Every tool takes an optional
``session`` (the id ``open_page`` returned) to work on another open page. Refused calls (a bad
URL, an unknown index, a hidden element ...) come back as tool results with ``isError`` and the
same text the agent loop gives a model, never as protocol errors.
"""

from __future__ import annotations

import copy
from typing import Any

import mcp_types as types
from mcp.server import Server

from pipeline.serve.config import ServeConfig
from pipeline.serve.errors import ApiError
from pipeline.serve.sessions import SessionPool, check_mode
from pipeline.tools import TOOLS, ToolCall, openai_tools, validate_call

PAGE_TOOLS = [t.name for t in TOOLS if t.name != "done"]  # done ends an agent's task, not a page
SESSION_PROPERTY = {"type": "string", "description": "the page to use (an id open_page "
                    "returned); default: the page opened last"}


def tool_list() -> list[types.Tool]:
    schemas = {t["function"]["name"]: t["function"] for t in openai_tools()}
    tools = [
        types.Tool(name="open_page", description="Open a web page (http or https URL) in a "
                   "headless browser and make it the current page; returns its id and title.",
                   input_schema={"type": "object", "properties": {
                       "url": {"type": "string", "description": "the page's http(s) URL"}},
                       "required": ["url"]}),
        types.Tool(name="observe", description="What the current page shows: query_only (URL, "
                   "title, landmarks and counts), hybrid (an outline by region) or full (every "
                   "interactive element with its index).",
                   input_schema={"type": "object", "properties": {
                       "mode": {"type": "string", "enum": ["query_only", "hybrid", "full"]},
                       "session": SESSION_PROPERTY}}),
        types.Tool(name="close_page", description="Close the current page (or `session`).",
                   input_schema={"type": "object", "properties": {"session": SESSION_PROPERTY}}),
    ]
    for name in PAGE_TOOLS:
        schema = copy.deepcopy(schemas[name]["parameters"])
        schema.setdefault("properties", {})["session"] = SESSION_PROPERTY
        tools.append(types.Tool(name=name, description=schemas[name]["description"],
                                input_schema=schema))
    return tools


class PageTools:
    """The tools' state: the pool and which page is current."""

    def __init__(self, pool: SessionPool) -> None:
        self.pool = pool
        self.current: str | None = None

    async def call(self, name: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        """(the tool's text, whether it succeeded); ApiError when the call is refused."""
        arguments = dict(arguments)
        session_id = arguments.pop("session", None) or self.current
        if name == "open_page":
            session = await self.pool.open(str(arguments.get("url", "")))
            self.current = session.id
            title = await session.page.title()
            return f"opened {session.page.url} (session {session.id}): {title!r}", True
        if session_id is None:
            raise ApiError(400, "no page is open: call open_page first", "no_page")
        if name == "close_page":
            await self.pool.close(session_id)
            self.current = None if session_id == self.current else self.current
            return f"closed session {session_id}", True
        session = self.pool.get(session_id)
        if name == "observe":
            from pipeline.agent.observe import observe

            mode = check_mode(arguments.get("mode") or self.pool.settings.mode)
            async with session.lock:
                page = await session.current()
            return observe(page, mode, session.previous).text, True
        call = validate_call(name, arguments)
        if not isinstance(call, ToolCall) or name not in PAGE_TOOLS:
            raise ApiError(400, call.message if not isinstance(call, ToolCall) else
                           f"unknown tool {name!r}", "invalid_tool_call")
        async with session.lock:
            result = await session.call(call)
        return result.text, result.ok


def build_mcp_server(config: ServeConfig, pool: SessionPool | None = None) -> tuple[Server, Any]:
    """The low-level MCP server and its ``PageTools``."""
    tools = PageTools(pool or SessionPool(config.sessions))

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tool_list())

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            text, ok = await tools.call(params.name, params.arguments or {})
            error = not ok
        except ApiError as exc:
            text, error = f"Error: {exc.message}", True
        return types.CallToolResult(content=[types.TextContent(text=text)], is_error=error)

    server = Server("pagescout", version="0.1.0", instructions=(
        "Browse a live web page with compact query tools: open_page, then query_elements / "
        "get_region / get_element_details to find elements by index, then click / type / "
        "select / press."), on_list_tools=list_tools, on_call_tool=call_tool)
    return server, tools


def mcp_http_app(config: ServeConfig, pool: SessionPool | None = None) -> Any:
    """The streamable-HTTP MCP app (endpoint ``/mcp``), behind the bearer token when set."""
    from pipeline.serve.app import bearer_guard

    server, tools = build_mcp_server(config, pool)
    app = server.streamable_http_app(host=config.host,
                                     max_request_body_size=config.limits.max_body_bytes)
    app.state.page_tools = tools
    return bearer_guard(app, config.token())


def serve_mcp(config: ServeConfig, transport: str) -> int:
    import anyio

    if transport == "http":
        import uvicorn

        uvicorn.run(mcp_http_app(config), host=config.host, port=config.port,
                    log_level=config.log_level)
        return 0
    server, tools = build_mcp_server(config)

    async def run_stdio() -> None:
        from mcp.server.stdio import stdio_server

        try:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
        finally:
            await tools.pool.close_all()

    anyio.run(run_stdio)
    return 0
