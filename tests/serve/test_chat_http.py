"""The OpenAI-compatible chat endpoint over real HTTP: the official ``openai`` client (plain and
streaming) and httpx, against the untuned smollm2 and a scripted model."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import openai
import pytest
from serve_helpers import ScriptedPolicy, serve_config

from pipeline.agent.openai_policy import tool_schemas
from pipeline.agent.prompts import system_prompt
from pipeline.serve.app import create_app
from pipeline.serve.main import running_server

TASK = [{"role": "system", "content": system_prompt("query_only")},
        {"role": "user", "content": "Task: click the OK button.\nCurrent page:\n[3] <button>OK"}]


@pytest.fixture(scope="module")
def scripted(policy):
    return ScriptedPolicy(policy.tokenizer)


@pytest.fixture(scope="module")
def scripted_url(scripted):
    with running_server(create_app(serve_config(), scripted)) as url:
        yield url


def client(base_url: str, key: str = "none") -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{base_url}/v1", api_key=key, max_retries=0, timeout=120)


def test_tool_calls_round_trip_through_the_openai_client(scripted_url):
    reply = client(scripted_url).chat.completions.create(
        model="pagescout", messages=TASK, tools=tool_schemas())
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == 'Clicking the "OK" button: [3].'
    (call,) = choice.message.tool_calls
    assert call.id.startswith("call_") and call.function.name == "click"
    assert json.loads(call.function.arguments) == {"index": 3}
    assert reply.usage.prompt_tokens == 10 and reply.usage.total_tokens == 15
    # the call goes back into the conversation, with its result, for the next turn
    follow = TASK + [choice.message.model_dump(exclude_none=True),
                     {"role": "tool", "tool_call_id": call.id, "content": "clicked [3]"}]
    again = client(scripted_url).chat.completions.create(model="pagescout", messages=follow)
    assert again.choices[0].message.tool_calls[0].id != call.id  # ids count earlier calls


def test_streaming_sends_the_same_reply_in_chunks(scripted_url):
    stream = client(scripted_url).chat.completions.create(
        model="pagescout", messages=TASK, tools=tool_schemas(), stream=True,
        stream_options={"include_usage": True})
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    calls = [t for c in chunks if c.choices for t in c.choices[0].delta.tool_calls or []]
    finish = [c.choices[0].finish_reason for c in chunks if c.choices and
              c.choices[0].finish_reason]
    assert text == 'Clicking the "OK" button: [3].'
    assert [(t.function.name, json.loads(t.function.arguments)) for t in calls] == \
        [("click", {"index": 3})]
    assert finish == ["tool_calls"] and chunks[-1].usage.completion_tokens == 5


def test_unparseable_output_is_text_with_stop(policy):
    garbled = ScriptedPolicy(policy.tokenizer, reply=lambda m: 'Hmm <bu_click>{"index": <bu_end>')
    with running_server(create_app(serve_config(), garbled)) as url:
        reply = client(url).chat.completions.create(model="pagescout", messages=TASK)
    assert reply.choices[0].finish_reason == "stop"
    assert reply.choices[0].message.tool_calls is None
    assert reply.choices[0].message.content.startswith("Hmm")


def test_the_untuned_model_answers_over_http(policy):
    with running_server(create_app(serve_config(), policy)) as url:
        models = client(url).models.list()
        reply = client(url).chat.completions.create(model="pagescout", messages=TASK,
                                                    tools=tool_schemas(), max_tokens=64)
        short = client(url).chat.completions.create(model="pagescout", messages=TASK,
                                                    max_tokens=3)
        health = httpx.get(f"{url}/health").json()
        metrics = httpx.get(f"{url}/metrics").text
    assert [m.id for m in models.data] == ["pagescout"]
    assert reply.choices[0].finish_reason in ("stop", "tool_calls")
    # the agent's system prompt becomes the untuned model's long one (tools, worked examples)
    assert 0 < reply.usage.completion_tokens <= 12 and reply.usage.prompt_tokens > 300
    assert short.usage.completion_tokens <= 3  # max_tokens lowers the server's limit
    assert health["status"] == "ok" and health["policy"] == "base:smollm2"
    assert 'pagescout_requests_total{route="/v1/chat/completions",status="200"} 2' in metrics
    assert "pagescout_generated_tokens_total" in metrics and "pagescout_queue_length 0" in metrics
    forwards = [line.split()[1] for line in metrics.splitlines()
                if line.startswith("pagescout_prefill_forwards_total ")]
    assert float(forwards[0]) >= 2  # two prompts: a forward each at least


@pytest.mark.parametrize(("body", "status", "code"), [
    (b"{not json", 400, "invalid_json"),
    (json.dumps({"model": "pagescout"}).encode(), 400, "missing_field"),
    (json.dumps({"model": "gpt-9", "messages": TASK}).encode(), 404, "model_not_found"),
    (json.dumps({"model": "pagescout", "messages": [{"role": "robot", "content": "hi"}]}
                ).encode(), 400, "invalid_value"),
    (json.dumps({"model": "pagescout", "messages": TASK, "tools": [
        {"type": "function", "function": {"name": "rm_rf"}}]}).encode(), 400, "unsupported_tool"),
    (json.dumps({"model": "pagescout", "messages": TASK, "max_tokens": 10_000}).encode(), 400,
     "invalid_value"),
    (json.dumps({"model": "pagescout", "messages": TASK + [{"role": "assistant", "tool_calls": [
        {"id": "x", "type": "function", "function": {"name": "click", "arguments": "{"}}]}]}
                ).encode(), 400, "invalid_tool_call"),
    (b"{" + b" " * 30_000 + b"}", 413, "body_too_large"),
])
def test_bad_requests_get_openai_error_bodies(scripted_url, body, status, code):
    response = httpx.post(f"{scripted_url}/v1/chat/completions", content=body,
                          headers={"content-type": "application/json"})
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and error["message"] and error["type"]


def test_the_openai_client_raises_its_usual_errors(scripted_url):
    with pytest.raises(openai.NotFoundError):
        client(scripted_url).chat.completions.create(model="gpt-9", messages=TASK)
    with pytest.raises(openai.BadRequestError):
        client(scripted_url).chat.completions.create(model="pagescout", messages=[])
    assert httpx.get(f"{scripted_url}/v2/nothing").json()["error"]["code"] == "not_found"


def test_a_token_is_required_when_set(scripted, monkeypatch):
    monkeypatch.setenv("PAGESCOUT_TOKEN", "s3cret")
    with running_server(create_app(serve_config(), scripted)) as url:
        with pytest.raises(openai.AuthenticationError):
            client(url).chat.completions.create(model="pagescout", messages=TASK)
        with pytest.raises(openai.AuthenticationError):
            client(url, "wrong").chat.completions.create(model="pagescout", messages=TASK)
        ok = client(url, "s3cret").chat.completions.create(model="pagescout", messages=TASK)
        assert httpx.get(f"{url}/health").status_code == 200  # health stays open
        assert httpx.get(f"{url}/metrics").status_code == 401
    assert ok.choices[0].finish_reason == "tool_calls"


def test_a_full_queue_answers_429(policy):
    slow = ScriptedPolicy(policy.tokenizer, delay_s=0.5)
    with running_server(create_app(serve_config({"max_queue": 4}), slow)) as url:
        def post(_):
            return httpx.post(f"{url}/v1/chat/completions", timeout=60,
                              json={"model": "pagescout", "messages": TASK}).status_code
        with ThreadPoolExecutor(12) as pool:
            statuses = list(pool.map(post, range(12)))
    assert statuses.count(429) >= 1 and statuses.count(200) >= 4


def test_load_of_200_requests_from_16_clients_has_no_5xx(policy):
    fast = ScriptedPolicy(policy.tokenizer, delay_s=0.02)
    with running_server(create_app(serve_config(), fast)) as url, \
            httpx.Client(timeout=60) as http:
        def post(i):
            return http.post(f"{url}/v1/chat/completions", json={
                "model": "pagescout", "messages": TASK, "stream": i % 2 == 0}).status_code
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(post, range(200)))
    assert not [s for s in statuses if s >= 500]
    assert statuses.count(200) + statuses.count(429) == 200 and statuses.count(200) > 100


def test_a_request_over_its_time_gets_504_and_the_server_stays_up(policy):
    slow = ScriptedPolicy(policy.tokenizer, delay_s=1.5, batch_size=1)
    with running_server(create_app(serve_config({"request_timeout_s": 0.3}), slow)) as url:
        def post(_):
            return httpx.post(f"{url}/v1/chat/completions", timeout=30,
                              json={"model": "pagescout", "messages": TASK})
        with ThreadPoolExecutor(2) as pool:  # one generating, one waiting behind it
            late = list(pool.map(post, range(2)))
        assert [r.status_code for r in late] == [504, 504]
        assert late[0].json()["error"]["code"] == "timeout"
        time.sleep(2.0)
        assert httpx.get(f"{url}/health").json()["status"] == "ok"
        assert 'pagescout_rejected_total{reason="timeout"} 2' in httpx.get(f"{url}/metrics").text
