"""Browser sessions and agent runs over real HTTP, with a real headless Chromium opening the
fixture pages from a loopback server (allowed by config for the test)."""

from __future__ import annotations

import json
import os
import signal
import time

import httpx
import psutil
import pytest
from serve_helpers import ScriptedPolicy, serve_config

from pipeline.serve.config import SessionSettings
from pipeline.serve.main import build_app, running_server

pytestmark = pytest.mark.browser


def agent_script(messages):
    """Query the full-name field, type into it, then say done."""
    if "- none" not in messages[1]["content"]:
        return "Done.\n<bu_done>{}<bu_end>"
    if messages[-1]["role"] == "tool":
        index = messages[-1]["content"].split("[", 1)[1].split("]", 1)[0]
        return f'Typing.\n<bu_type>{{"index": {index}, "text": "Ada"}}<bu_end>'
    return 'Finding it.\n<bu_query>{"text": "full name", "role": "textbox"}<bu_end>'


def sessions_config(**changes):
    return serve_config(sessions=SessionSettings(allow_private=True, **changes))


@pytest.fixture(scope="module")
def served(policy):
    from tests.conftest import require_chromium

    require_chromium()
    script = ScriptedPolicy(policy.tokenizer, reply=agent_script)
    with running_server(build_app(sessions_config(), script)) as url:
        yield url


def test_a_session_queries_acts_and_observes(served, fixture_server):
    with httpx.Client(base_url=served, timeout=60) as http:
        opened = http.post("/v1/sessions", json={"url": f"{fixture_server}/forms.html"}).json()
        sid = opened["id"]
        seen = http.get(f"/v1/sessions/{sid}/observation", params={"mode": "query_only"}).json()
        found = http.post(f"/v1/sessions/{sid}/call", json={
            "name": "query_elements", "arguments": {"text": "full name", "role": "textbox"}}
        ).json()
        assert "content" in found, found
        index = int(found["content"].split("[", 1)[1].split("]", 1)[0])
        typed = http.post(f"/v1/sessions/{sid}/call", json={
            "name": "type", "arguments": {"index": index, "text": "Ada Lovelace"}}).json()
        details = http.post(f"/v1/sessions/{sid}/call", json={
            "name": "get_element_details", "arguments": {"index": index}}).json()
        full = http.get(f"/v1/sessions/{sid}/observation", params={"mode": "full"}).json()
        bad = http.post(f"/v1/sessions/{sid}/call", json={"name": "fly", "arguments": {}})
        wrong_mode = http.get(f"/v1/sessions/{sid}/observation", params={"mode": "all"})
        assert http.delete(f"/v1/sessions/{sid}").json()["deleted"] is True
        gone = http.get(f"/v1/sessions/{sid}/observation")
    assert seen["mode"] == "query_only" and seen["elements"] > 3 and "Tools:" in seen["text"]
    assert found["role"] == "tool" and found["ok"] and found["name"] == "query_elements"
    assert typed["ok"], typed
    assert "Ada Lovelace" in details["content"] or "Ada Lovelace" in full["text"]
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_tool_call"
    assert wrong_mode.status_code == 400
    assert gone.status_code == 404


@pytest.mark.parametrize("url", ["file:///etc/passwd", "chrome://settings",
                                 "javascript:alert(1)", "ftp://example.com/"])
def test_only_http_urls_open(served, url):
    response = httpx.post(f"{served}/v1/sessions", json={"url": url})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "url_not_allowed"


def test_loopback_is_refused_unless_allowed(policy, fixture_server):
    script = ScriptedPolicy(policy.tokenizer)
    with running_server(build_app(serve_config(), script)) as url:
        for target in (f"{fixture_server}/forms.html", "http://localhost:9/",
                       "http://169.254.169.254/latest/meta-data/"):
            response = httpx.post(f"{url}/v1/sessions", json={"url": target})
            assert response.status_code == 400, target
            assert "private" in response.json()["error"]["message"]


def test_idle_sessions_are_reaped(policy, fixture_server):
    """On its own server: a 1 s idle limit on the shared one reaped a session between two calls
    of another test when a loaded machine stalled the client for a second."""
    app = build_app(sessions_config(idle_timeout_s=1.0), ScriptedPolicy(policy.tokenizer))
    with running_server(app) as served, httpx.Client(base_url=served, timeout=60) as http:
        sid = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"}).json()["id"]
        time.sleep(2.5)
        assert http.get(f"/v1/sessions/{sid}/observation").status_code == 404
        assert http.get("/health").json()["sessions"] == 0


def test_an_agent_run_plays_an_episode(served, fixture_server):
    run = httpx.post(f"{served}/v1/agent/runs", timeout=120, json={
        "task": "Enter Ada as the full name.", "url": f"{fixture_server}/forms.html",
        "max_steps": 3}).json()
    assert run.get("stop") == "done", run
    assert len(run["steps"]) == 2 and run["steps"][0]["action"]["name"] == "type"
    assert run["steps"][0]["queries"] == 1 and run["history"][0].endswith("-> TYPE: Ada")
    assert run["prompt_tokens"] == 30 and run["completion_tokens"] == 15
    assert httpx.get(f"{served}/health").json()["sessions"] == 0


def test_a_killed_browser_leaves_the_server_up_and_the_session_saying_so(policy,
                                                                         fixture_server):
    app = build_app(sessions_config(), ScriptedPolicy(policy.tokenizer))
    with running_server(app) as served, httpx.Client(base_url=served, timeout=60) as http:
        others = chromium_pids()  # browsers of this test process that the session does not own
        sid = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"}).json()["id"]
        session_browser = chromium_pids() - others
        assert session_browser, "no Chromium process found for the session"
        for pid in session_browser:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(1.0)
        after = http.get(f"/v1/sessions/{sid}/observation")
        assert after.status_code == 410, after.text
        assert "browser" in after.json()["error"]["message"]
        assert http.get("/health").status_code == 200
        again = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"})
        assert again.status_code == 200  # a fresh browser
        http.delete(f"/v1/sessions/{again.json()['id']}")


def test_an_agent_run_streams_its_steps(served, fixture_server):
    events = []
    with httpx.stream("POST", f"{served}/v1/agent/runs", timeout=120, json={
            "task": "Enter Ada as the full name.", "url": f"{fixture_server}/forms.html",
            "max_steps": 3, "stream": True}) as response:
        assert response.status_code == 200
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line[len("event: "):]
            elif line.startswith("data: "):
                events.append((kind, line[len("data: "):]))
                kind = None
    kinds = [k for k, _ in events]
    assert kinds == ["step", "step", "run", None] and events[-1][1] == "[DONE]"
    assert json.loads(events[0][1])["action"]["name"] == "type"
    assert json.loads(events[2][1])["stop"] == "done"


def test_agent_runs_refuse_bad_requests(served):
    for body, code in (({"url": "http://x.test/"}, "missing_field"),
                       ({"task": "t", "url": "file:///etc/passwd"}, "url_not_allowed"),
                       ({"task": "t", "url": "http://x.test/", "max_steps": 99},
                        "invalid_value"),
                       ({"task": "t", "url": "http://x.test/", "mode": "all"}, "invalid_value")):
        for stream in (False, True):
            response = httpx.post(f"{served}/v1/agent/runs", json={**body, "stream": stream},
                                  timeout=60)
            assert response.status_code == 400, body
            assert response.json()["error"]["code"] == code


def test_sessions_beyond_the_limit_get_429(policy, fixture_server):
    app = build_app(sessions_config(max_sessions=1), ScriptedPolicy(policy.tokenizer))
    with running_server(app) as url, httpx.Client(base_url=url, timeout=60) as http:
        first = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"})
        second = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"})
        http.delete(f"/v1/sessions/{first.json()['id']}")
        third = http.post("/v1/sessions", json={"url": f"{fixture_server}/shop.html"})
    assert first.status_code == 200 and third.status_code == 200
    assert second.status_code == 429 and second.json()["error"]["code"] == "too_many_sessions"


def test_a_run_over_its_time_is_stopped_with_504(policy, fixture_server):
    slow = ScriptedPolicy(policy.tokenizer, reply=agent_script, delay_s=1.0)
    with running_server(build_app(sessions_config(run_timeout_s=0.5), slow)) as url:
        late = httpx.post(f"{url}/v1/agent/runs", timeout=60, json={
            "task": "Enter Ada as the full name.", "url": f"{fixture_server}/forms.html"})
        assert late.status_code == 504 and late.json()["error"]["code"] == "timeout"
        assert httpx.get(f"{url}/health").json()["sessions"] == 0  # its session was closed


def chromium_pids() -> set[int]:
    """Chromium processes under this test process (a shared browser of another test included)."""
    return {p.pid for p in psutil.Process().children(recursive=True)
            if "chrom" in p.name().lower()}
