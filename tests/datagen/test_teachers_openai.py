"""The openai teacher against a local OpenAI-compatible server over real HTTP."""

from __future__ import annotations

import random

from openai_server import ChatServer, query_then_click, scripted
from teacher_helpers import make_step, page
from verify_helpers import ref_of

from datagen.teachers import OpenAITeacher, OpenAITeacherConfig
from datagen.verify.execution_stage import check_execution
from datagen.verify.format_stage import check_format
from pipeline.agent.execute import execute_offline
from pipeline.agent.openai_client import ClientConfig
from pipeline.tools import TOOLS, make_call

QUERY = {"text": "sign in", "role": "button"}


def teacher_for(server: ChatServer, max_turns: int = 4, **client) -> OpenAITeacher:
    settings = {"backoff": 0.01, "max_backoff": 0.05} | client
    config = ClientConfig(base_url=server.base_url, model="test-model", **settings)
    return OpenAITeacher(OpenAITeacherConfig(client=config, max_turns=max_turns))


def sign_in_step(step_id: str = "t:1"):
    forms = page("forms.html")
    return make_step(forms, [ref_of(forms, "login-submit")], 'Click "Sign in"',
                     step_id=step_id), forms


def play(server: ChatServer, **options):
    step, forms = sign_in_step()
    trajectory = teacher_for(server, **options).propose(step, forms, "query_only",
                                                        random.Random(0))
    return trajectory, step, forms


def test_a_model_that_queries_then_clicks_gives_a_complete_trajectory():
    with ChatServer(query_then_click(QUERY)) as server:
        trajectory, step, forms = play(server)
    roles = [m["role"] for m in trajectory.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert trajectory.teacher == "openai:test-model" and trajectory.meta["stop"] == "action"
    expected = execute_offline(make_call("query_elements", **QUERY), forms).text
    assert trajectory.messages[3] == {"role": "tool", "name": "query_elements",
                                      "content": expected}
    verdict, conversation = check_format(trajectory.messages)
    assert verdict.status == "pass"
    assert check_execution(conversation, step, forms, "query_only").status == "pass"
    turns = trajectory.meta["turns"]
    assert len(turns) == 2 and trajectory.meta["usage"]["total_tokens"] == sum(
        t["total_tokens"] for t in turns) > 0
    assert trajectory.meta["latency"] > 0
    second = server.requests[1]
    assert len(second["tools"]) == len(TOOLS) and second["seed"] == server.requests[0]["seed"]
    assert second["messages"][3]["tool_call_id"] == second["messages"][2]["tool_calls"][0]["id"]


def test_rate_limits_and_server_errors_are_retried():
    with ChatServer(query_then_click(QUERY)) as server:
        server.fail_next(429)
        server.fail_next(500)
        trajectory, _, _ = play(server)
    assert trajectory.meta["stop"] == "action" and trajectory.meta["attempts"] == 4
    assert trajectory.meta["turns"][0]["attempts"] == 3


def test_a_timeout_is_recorded_not_raised():
    with ChatServer(query_then_click(QUERY)) as server:
        server.delay = 1.0
        trajectory, _, _ = play(server, timeout=0.2, retries=1)
    assert trajectory.meta["stop"] == "error"
    assert trajectory.meta["error"].startswith("timeout:")
    assert [m["role"] for m in trajectory.messages] == ["system", "user"]


def test_an_invalid_call_is_kept_as_the_model_wrote_it():
    broken = {"content": "Clicking.", "calls": [("click", '{"index": "first"}')]}
    with ChatServer(scripted([broken])) as server:
        trajectory, _, _ = play(server)
    assert trajectory.meta["stop"] == "invalid_call: bad_arguments"
    recorded = trajectory.messages[-1]["tool_calls"][0]["function"]
    assert recorded == {"name": "click", "arguments": {"index": "first"}}
    assert check_format(trajectory.messages)[0].status == "fail"


def test_unparseable_arguments_stay_text_and_a_reply_without_calls_ends_the_play():
    with ChatServer(scripted([{"content": None, "calls": [("click", '{"index": 3')]}])) as server:
        trajectory, _, _ = play(server)
    assert trajectory.messages[-1]["tool_calls"][0]["function"]["arguments"] == '{"index": 3'
    with ChatServer(scripted([{"content": "I would click Sign in."}])) as server:
        trajectory, _, _ = play(server)
    assert trajectory.meta["stop"] == "no_tool_call"
    assert trajectory.messages[-1] == {"role": "assistant", "content": "I would click Sign in."}


def test_a_model_that_never_acts_stops_at_max_turns():
    with ChatServer(scripted([{"content": "", "calls": [("get_page_summary", {})]}])) as server:
        trajectory, _, _ = play(server, max_turns=3)
    assert trajectory.meta["stop"] == "max_turns" and len(trajectory.meta["turns"]) == 3
    assert len(server.requests) == 3


def test_parallel_proposals_never_exceed_the_concurrency_limit():
    with ChatServer(query_then_click(QUERY)) as server:
        server.delay = 0.05
        teacher = teacher_for(server, concurrency=2)
        items = [(*sign_in_step(f"t:{i}"), "query_only", random.Random(i)) for i in range(6)]
        trajectories = teacher.propose_many(items)
    assert [t.step_id for t in trajectories] == [f"t:{i}" for i in range(6)]
    assert all(t.meta["stop"] == "action" for t in trajectories)
    assert server.max_concurrent == 2 and len(server.requests) == 12
