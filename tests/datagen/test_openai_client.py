"""The OpenAI-compatible client against a real local HTTP server: replies, usage, retries,
timeouts, bounded concurrency and config errors."""

from __future__ import annotations

import time

import pytest
from openai_server import ChatServer, scripted

from pipeline.agent.openai_client import ClientConfig, LLMError, OpenAIClient
from pipeline.errors import FormatError

MESSAGES = [{"role": "user", "content": "Click the OK button"}]
CLICK = {"content": "ok", "calls": [("click", {"index": 3})]}


def client_for(server: ChatServer, sleep=time.sleep, **overrides) -> OpenAIClient:
    settings = {"backoff": 0.01, "max_backoff": 0.05} | overrides
    config = ClientConfig(base_url=server.base_url, model="test-model", **settings)
    return OpenAIClient(config, sleep=sleep)


def test_a_reply_carries_the_message_usage_and_latency():
    with ChatServer(scripted([CLICK])) as server:
        client = client_for(server, temperature=0.3, max_tokens=64)
        result = client.chat(MESSAGES, tools=[{"type": "function", "function": {"name": "click"}}])
    call = result.message["tool_calls"][0]
    assert result.message["role"] == "assistant" and result.message["content"] == "ok"
    assert call["function"] == {"name": "click", "arguments": '{"index": 3}'}
    assert result.usage.prompt_tokens == len("Click the OK button") // 4
    assert result.usage.total_tokens == result.usage.prompt_tokens + result.usage.completion_tokens
    assert result.latency > 0 and result.attempts == 1 and result.finish_reason == "tool_calls"
    sent = server.requests[0]
    assert sent["model"] == "test-model" and sent["temperature"] == 0.3
    assert sent["max_tokens"] == 64 and sent["tools"][0]["function"]["name"] == "click"


def test_usage_is_summed_over_calls():
    with ChatServer(scripted([CLICK])) as server:
        client = client_for(server)
        results = [client.chat(MESSAGES) for _ in range(3)]
    totals = client.totals()
    assert totals["calls"] == 3 and totals["failures"] == 0
    assert totals["total_tokens"] == sum(r.usage.total_tokens for r in results) > 0


def test_429_and_500_are_retried_then_succeed():
    with ChatServer(scripted([CLICK])) as server:
        server.fail_next(429)
        server.fail_next(500)
        client = client_for(server)
        result = client.chat(MESSAGES)
    assert result.attempts == 3 and len(server.requests) == 3
    assert client.totals()["retries"] == 2


def test_backoff_grows_and_honours_retry_after():
    waits: list[float] = []
    with ChatServer(scripted([CLICK])) as server:
        server.fail_next(503, times=2)
        server.fail_next(429, retry_after=0.04)
        client_for(server, sleep=waits.append, backoff=0.01, max_backoff=1.0).chat(MESSAGES)
    assert len(waits) == 3
    assert 0.005 <= waits[0] <= 0.01 and 0.01 <= waits[1] <= 0.02  # equal jitter, doubling
    assert waits[2] >= 0.04  # the server's Retry-After


def test_a_client_error_is_not_retried():
    with ChatServer(scripted([CLICK])) as server:
        server.fail_next(400)
        with pytest.raises(LLMError) as caught:
            client_for(server).chat(MESSAGES)
    assert caught.value.kind == "bad_request" and caught.value.status == 400
    assert len(server.requests) == 1 and "test-model" in str(caught.value)


def test_retries_run_out_with_a_clear_error():
    with ChatServer(scripted([CLICK])) as server:
        server.fail_next(500, times=5)
        client = client_for(server, retries=2)
        with pytest.raises(LLMError) as caught:
            client.chat(MESSAGES)
    assert caught.value.kind == "server" and caught.value.attempts == 3
    assert "after 3 attempt(s)" in str(caught.value) and len(server.requests) == 3
    assert client.totals()["failures"] == 1


def test_a_slow_server_times_out():
    with ChatServer(scripted([CLICK])) as server:
        server.delay = 1.0
        started = time.perf_counter()
        with pytest.raises(LLMError) as caught:
            client_for(server, timeout=0.2, retries=1).chat(MESSAGES)
    assert caught.value.kind == "timeout" and caught.value.attempts == 2
    assert "raise timeout" in str(caught.value)
    assert time.perf_counter() - started < 1.5


def test_no_more_requests_in_flight_than_the_limit():
    with ChatServer(scripted([CLICK])) as server:
        server.delay = 0.15
        client = client_for(server, concurrency=2)
        results = client.map(lambda _: client.chat(MESSAGES), range(6))
    assert len(results) == 6 and server.max_concurrent == 2


def test_config_problems_name_the_key():
    with pytest.raises(FormatError, match="model: empty"):
        OpenAIClient(ClientConfig())
    problems = ClientConfig(base_url="localhost:8000", timeout=0, concurrency=0).validate()
    assert any(p.startswith("base_url") for p in problems)
    assert any(p.startswith("timeout") for p in problems)
    assert any(p.startswith("concurrency") for p in problems)


def test_the_key_comes_from_config_then_environment(monkeypatch):
    monkeypatch.delenv("TEST_KEY", raising=False)
    local = ClientConfig(model="m", api_key_env="TEST_KEY")
    assert local.resolve_key() == "none"  # a local server needs no key
    monkeypatch.setenv("TEST_KEY", "from-env")
    assert local.resolve_key() == "from-env"
    assert ClientConfig(model="m", api_key="given").resolve_key() == "given"
    monkeypatch.delenv("TEST_KEY")
    with pytest.raises(FormatError, match="export TEST_KEY"):
        ClientConfig(base_url="https://api.openai.com/v1", api_key_env="TEST_KEY").resolve_key()
