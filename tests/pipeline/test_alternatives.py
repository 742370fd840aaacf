"""Another answer when the greedy one repeats a refused call: decoding records each answer id's
runner-up and gap (checked against a plain forward of the real SmolLM2), forks branch off where
the gap was smallest, and the policy takes the first forked answer that writes a valid call the
step has not refused."""

from __future__ import annotations

import asyncio

import pytest
import torch

from pipeline.agent.alternatives import fork_prefixes, refused_calls
from pipeline.agent.conversation import assistant_message, tool_message
from pipeline.agent.model_policy import GenerationSettings, ModelPolicy, load_model_policy
from pipeline.agent.policy import Situation
from pipeline.model.generate import Generation
from pipeline.tools import ToolCall, make_call

ASK = ("Click the Submit button, element 2. Reply with exactly this JSON and nothing else:\n"
       '{"name": "click", "arguments": {"index": 2}}')


def test_refused_calls_are_the_calls_an_error_answered():
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
                assistant_message(make_call("query_elements", text="submit"), "", 0),
                tool_message("query_elements", "1 element matches:\n[2]<button>Submit</button>"),
                assistant_message(make_call("click", index=2), "", 1),
                tool_message("click", "Error: [2] is covered by another element."),
                assistant_message(make_call("type", index=1, text="x"), "", 2),
                tool_message("type", "Error: this is the action of the step before, which "
                             "changed nothing on the page; doing it again will not help.")]
    assert refused_calls(messages) == [make_call("click", index=2),
                                       make_call("type", index=1, text="x")]
    assert refused_calls(messages[:4]) == []


def test_forks_branch_off_where_the_runner_up_came_closest():
    generation = Generation("ab c<bu_end>", 10, 4, ids=(5, 6, 7, 8), runners_up=(15, 16, 17, 18),
                            gaps=(3.0, 0.5, 1.5, 0.1))
    # the closing <bu_end> (gap 0.1) is no fork: a call follows nothing after it
    assert fork_prefixes(generation, 2) == [[5, 16], [5, 6, 17]]
    assert fork_prefixes(generation, 9) == [[5, 16], [5, 6, 17], [15]]
    cut = Generation("ab c", 10, 4, ids=(5, 6, 7, 8), runners_up=(15, 16, 17, 18),
                     gaps=(3.0, 0.5, 1.5, 0.1))  # cut at the token limit: every id may fork
    assert fork_prefixes(cut, 1) == [[5, 6, 7, 18]]


@pytest.fixture(scope="module")
def base_policy() -> ModelPolicy:
    return load_model_policy("smollm2", GenerationSettings(max_new_tokens=24, bf16=False,
                                                           prefix_cache=0, alternatives=16))


@pytest.mark.slow
def test_decoding_records_each_ids_runner_up_and_its_gap(base_policy):
    messages = [{"role": "system", "content": "You are a web agent."},
                {"role": "user", "content": ASK}]
    ids = base_policy.prompt_ids(messages)
    generation = asyncio.run(base_policy.generate_ids(ids))
    assert len(generation.ids) == len(generation.runners_up) == len(generation.gaps) > 3
    assert all(r != i for r, i in zip(generation.runners_up, generation.ids, strict=True))
    assert all(g >= 0 for g in generation.gaps)
    with torch.inference_mode():  # a plain forward of the prompt and the answer's first ids
        logits = base_policy.model(torch.tensor([ids + list(generation.ids[:3])])).logits[0]
    for position in range(3):
        top = logits[len(ids) - 1 + position].float().topk(2)
        assert top.indices.tolist() == [generation.ids[position],
                                        generation.runners_up[position]]
        gap = float(top.values[0] - top.values[1])
        assert generation.gaps[position] == pytest.approx(gap, abs=1e-3)


@pytest.mark.slow
def test_a_repeated_refused_call_gives_way_to_a_forked_answer(base_policy):
    messages = [{"role": "system", "content": "You are a web agent. Answer with one JSON call."},
                {"role": "user", "content": ASK},
                assistant_message(make_call("click", index=2), "", 0),
                tool_message("click", "Error: [2] is covered by another element."),
                {"role": "user", "content": ASK}]  # the model copies the call it is shown
    greedy_only = ModelPolicy(base_policy.model, base_policy.tokenizer, "untuned", "greedy",
                              GenerationSettings(max_new_tokens=24, bf16=False, prefix_cache=0,
                                                 alternatives=0))
    situation = Situation("Click Submit", [], "query_only", messages, None)
    greedy = asyncio.run(greedy_only.next_turn(situation))
    assert greedy.call == make_call("click", index=2) and "fork" not in greedy.meta

    turn = asyncio.run(base_policy.next_turn(situation))
    assert isinstance(turn.call, ToolCall) and turn.call != make_call("click", index=2)
    assert turn.meta["fork"] >= 1
    assert turn.completion_tokens > greedy.completion_tokens  # the forks' tokens count too
