"""The openai judge against a real local OpenAI-compatible server over HTTP."""

from __future__ import annotations

import pytest
from openai_server import ChatServer, scripted
from verify_helpers import fixture_page, good_signup_calls, make_step, trajectory

from datagen.verify import OpenAIJudge, VerifyConfig, verify_batch
from datagen.verify.config import JudgeConfig
from datagen.verify.judges import JUDGE_SYSTEM, parse_yes_no
from pipeline.agent.openai_client import ClientConfig

PROMPT = "Task: click OK\nFinal action: click({\"index\": 1})\nAnswer yes or no."


def judge_for(server: ChatServer) -> OpenAIJudge:
    return OpenAIJudge(ClientConfig(base_url=server.base_url, model="judge-model", retries=0))


def reply(text: str) -> dict:
    return {"content": text}


@pytest.mark.parametrize("text, status, code", [
    ("Yes.", "pass", "judge_yes"),
    ("No, the query does not look for the name field.", "fail", "judge_no"),
    ("I am not sure what you mean.", "fail", "judge_unparsable"),
    ("", "fail", "judge_unparsable"),
])
def test_answers_become_verdicts(text, status, code):
    with ChatServer(scripted([reply(text)])) as server:
        answer = judge_for(server).judge([PROMPT])[0]
        sent = server.requests[0]
    assert (answer.status, answer.reason.split(":")[0]) == (status, code), answer
    assert answer.tokens > 0 and answer.p_yes is None
    assert sent["model"] == "judge-model"
    assert sent["messages"] == [{"role": "system", "content": JUDGE_SYSTEM},
                                {"role": "user", "content": PROMPT}]
    if code == "judge_unparsable":
        assert "not yes or no" in answer.reason and repr(text[:20])[1:-1] in answer.reason


def test_a_failed_request_is_a_judge_error_naming_the_fix():
    with ChatServer(scripted([reply("Yes")])) as server:
        server.fail_next(400)
        answer = judge_for(server).judge([PROMPT])[0]
    assert answer.status == "fail" and answer.reason.startswith("judge_error: ")
    assert "400" in answer.reason and "check model" in answer.reason


def test_parse_yes_no():
    assert parse_yes_no("YES") is True and parse_yes_no("no.") is False
    assert parse_yes_no("The answer is no") is False
    assert parse_yes_no("<think>yes or no? maybe no</think>\nYes") is True
    assert parse_yes_no("yes and no") is True  # it leads with yes
    assert parse_yes_no("Maybe, yes or no") is None
    assert parse_yes_no("Nope") is None and parse_yes_no("") is None


def test_verify_batch_builds_the_judge_from_config_and_counts_tokens():
    page = fixture_page()
    step = make_step(page, "full-name", "TYPE", "Ada Lovelace")
    good = trajectory(page, step, good_signup_calls(page))
    with ChatServer(scripted([reply("yes")])) as server:
        endpoint = ClientConfig(base_url=server.base_url, model="judge-model")
        config = VerifyConfig(judge=JudgeConfig(kind="openai", openai=endpoint))
        checked = verify_batch([(good, step, page)] * 3, config)
        requests = len(server.requests)
    assert requests == 3
    for item in checked:
        assert item.verdict("semantic").status == "pass" and item.accepted
        assert item.meta["judge"]["name"] == "openai:judge-model"
        assert item.meta["judge"]["tokens"] > 0
    assert "Full name" in server.requests[0]["messages"][1]["content"]
