"""Conversations: a datasets round-trip with the TRL features, the OpenAI request form, seeding."""

from __future__ import annotations

import json

from teacher_helpers import make_step, page, retrieval_steps
from verify_helpers import ref_of

from datagen.dataset import trl_features
from datagen.teachers import (
    Conversation,
    OracleTeacher,
    api_messages,
    step_rng,
)
from pipeline.tools import make_call


def _without_nulls(value):
    """What ``datasets`` gives back, minus the null keys its fixed schema adds."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def test_trajectories_load_in_datasets_and_come_back_unchanged():
    from datasets import Dataset

    teacher = OracleTeacher()
    rows = []
    for step, page_ in retrieval_steps()[:30]:
        trajectory = teacher.propose(step, page_, "query_only", step_rng(0, step.step_id))
        rows.append({"messages": trajectory.messages, "tools": trajectory.tools})
    dataset = Dataset.from_list(rows, features=trl_features())
    assert dataset.column_names == ["messages", "tools"] and len(dataset) == len(rows)
    for row, original in zip(dataset, rows, strict=True):
        assert _without_nulls(row) == original
        assert json.loads(json.dumps(row)) == row


def test_api_messages_carry_json_arguments_and_tool_call_ids():
    forms = page("forms.html")
    step = make_step(forms, [ref_of(forms, "login-submit")], "Sign in")
    convo = Conversation.open(step.task, step.history, forms, "query_only")
    result = convo.call(make_call("query_elements", text="sign in", role="button"), "Looking.")
    convo.act(make_call("click", index=result.refs[0]), "Clicking.")
    sent = api_messages(convo.messages)
    call_entry = sent[2]["tool_calls"][0]
    assert json.loads(call_entry["function"]["arguments"]) == {"text": "sign in",
                                                              "role": "button"}
    assert sent[3]["role"] == "tool" and sent[3]["tool_call_id"] == call_entry["id"]
    assert isinstance(convo.messages[2]["tool_calls"][0]["function"]["arguments"], dict)


def test_a_steps_random_stream_depends_on_seed_and_step_only():
    assert step_rng(3, "a:1").random() == step_rng(3, "a:1").random()
    assert step_rng(3, "a:1").random() != step_rng(4, "a:1").random()
    assert step_rng(3, "a:1").random() != step_rng(3, "a:2").random()
