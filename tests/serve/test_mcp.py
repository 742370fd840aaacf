"""The MCP server with a real MCP client session from the ``mcp`` package: over stdio (the
server runs as ``python -m pipeline serve --mcp stdio``) and over streamable HTTP, browsing a
fixture page in a real headless Chromium."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from serve_helpers import serve_config

from pipeline.serve.config import SessionSettings
from pipeline.serve.main import running_server
from pipeline.serve.mcp_server import PAGE_TOOLS, mcp_http_app

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def chromium():
    from tests.conftest import require_chromium

    require_chromium()


async def browse(client: Client, page_url: str) -> dict[str, object]:
    """List the tools, open the page, query, type, observe, and make two refused calls."""
    names = [t.name for t in (await client.list_tools()).tools]
    opened = await client.call_tool("open_page", {"url": page_url})
    found = await client.call_tool("query_elements", {"text": "full name", "role": "textbox"})
    index = int(found.content[0].text.split("[", 1)[1].split("]", 1)[0])
    typed = await client.call_tool("type", {"index": index, "text": "Ada"})
    seen = await client.call_tool("observe", {"mode": "full"})
    refused = await client.call_tool("click", {"index": 99_999})
    blocked = await client.call_tool("open_page", {"url": "file:///etc/passwd"})
    closed = await client.call_tool("close_page", {})
    return {"names": names, "opened": opened, "typed": typed, "seen": seen, "refused": refused,
            "blocked": blocked, "closed": closed}


def check(out: dict) -> None:
    assert set(PAGE_TOOLS) | {"open_page", "observe", "close_page"} == set(out["names"])
    assert not out["opened"].is_error and "forms.html" in out["opened"].content[0].text
    assert not out["typed"].is_error, out["typed"].content[0].text
    assert "Ada" in out["seen"].content[0].text
    assert out["refused"].is_error
    assert "no element [99999]" in out["refused"].content[0].text
    assert out["blocked"].is_error and "http(s)" in out["blocked"].content[0].text
    assert not out["closed"].is_error


def test_mcp_over_stdio(fixture_server):
    params = StdioServerParameters(command=sys.executable, cwd=str(ROOT), args=[
        "-m", "pipeline", "serve", "--config", "configs/serve/default.yaml", "--mcp", "stdio",
        "sessions.allow_private=true"])

    async def session():
        async with Client(params, read_timeout_seconds=120) as client:
            return await browse(client, f"{fixture_server}/forms.html")

    check(asyncio.run(session()))


def test_mcp_over_streamable_http(fixture_server):
    config = serve_config(sessions=SessionSettings(allow_private=True))
    with running_server(mcp_http_app(config)) as url:
        async def session():
            async with Client(f"{url}/mcp", read_timeout_seconds=120) as client:
                return await browse(client, f"{fixture_server}/forms.html")

        check(asyncio.run(session()))


def test_mcp_over_http_wants_the_token_when_set(monkeypatch):
    import httpx

    monkeypatch.setenv("PAGESCOUT_TOKEN", "s3cret")
    with running_server(mcp_http_app(serve_config())) as url:
        refused = httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key"
