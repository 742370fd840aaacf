"""Rendering a trajectory: completion-only labels, weights on functional tokens, truncation of
observations and tool results only, the inference prompt matching training, and collation."""

from __future__ import annotations

import pytest
import torch
from training_helpers import TASKS, trajectory

from pipeline.model.functional_tokens import functional_token_ids
from pipeline.model.render import (
    IGNORE,
    TRUNCATED,
    RenderError,
    assistant_text,
    render_prompt,
    render_trajectory,
)
from training.data import Collator


@pytest.fixture(scope="module")
def messages():
    return trajectory(*TASKS[0])["messages"]


def _render(messages, tokenizer, max_length=4096, weight=5.0):
    return render_trajectory(messages, tokenizer, max_length=max_length, loss_weight=weight,
                             functional_ids=functional_token_ids(tokenizer))


def test_only_assistant_turns_carry_labels(messages, tokenizer):
    out = _render(messages, tokenizer)
    labelled = tokenizer.decode([y for y in out.labels if y != IGNORE], skip_special_tokens=False)
    answers = [assistant_text(m) + tokenizer.eos_token for m in messages if m["role"] == "assistant"]
    assert labelled == "".join(answers)
    assert answers[0].startswith("I search for email address.\n<bu_query>{")
    assert len(out.input_ids) == len(out.labels) == len(out.loss_weights)


def test_prompt_leaves_out_the_tool_list_and_keeps_the_page(messages, tokenizer):
    from pipeline.agent.observe import tool_list

    user = messages[1]["content"]
    assert user.endswith("\n\n" + tool_list())  # datagen's record carries the list ...
    text = tokenizer.decode(_render(messages, tokenizer).input_ids, skip_special_tokens=False)
    assert "Tools:" not in text and "- query_elements(" not in text  # ... training does not
    overview = user.removesuffix("\n\n" + tool_list())
    assert overview.split("Current page:\n")[1] in text
    assert render_prompt(messages[:2], tokenizer, max_length=4096) == tokenizer.encode(
        text.split("<|im_start|>assistant")[0] + "<|im_start|>assistant\n",
        add_special_tokens=False)


def test_system_prompt_is_rendered_in_its_brief_form(messages, tokenizer):
    from pipeline.agent.prompts import brief_system_prompt, system_prompt

    assert messages[0]["content"] == system_prompt("query_only")  # the record has the full one
    text = tokenizer.decode(_render(messages, tokenizer).input_ids, skip_special_tokens=False)
    assert f"system\n{brief_system_prompt(system_prompt('query_only'))}<|im_end|>" in text
    assert system_prompt("query_only") not in text
    briefs = {brief_system_prompt(system_prompt(mode)) for mode in ("query_only", "hybrid", "full")}
    assert len(briefs) == 3  # the mode stays
    assert all(len(tokenizer.encode(b)) < 30 for b in briefs)
    assert brief_system_prompt("Be terse.") == "Be terse."  # anyone else's prompt stays


def test_weights_are_w_on_functional_tokens(messages, tokenizer):
    out = _render(messages, tokenizer, weight=5.0)
    special = set(functional_token_ids(tokenizer))
    for label, weight in zip(out.labels, out.loss_weights, strict=True):
        assert weight == (0.0 if label == IGNORE else 5.0 if label in special else 1.0)
    assert out.loss_weights.count(5.0) == 4  # <bu_query> <bu_end> <bu_type> <bu_end>
    assert _render(messages, tokenizer, weight=1.0).loss_weights.count(5.0) == 0


def test_first_token_weight_is_on_each_answers_first_token(messages, tokenizer):
    out = render_trajectory(messages, tokenizer, max_length=4096, loss_weight=5.0,
                            functional_ids=functional_token_ids(tokenizer), first_token_weight=3.0)
    firsts = [tokenizer.decode([y]) for y, w in zip(out.labels, out.loss_weights, strict=True)
              if w == 3.0]
    answers = [assistant_text(m) for m in messages if m["role"] == "assistant"]
    assert firsts == [tokenizer.decode(tokenizer.encode(a)[:1]) for a in answers]
    assert out.loss_weights.count(5.0) == 4  # the functional tokens keep W
    plain = _render(messages, tokenizer, weight=5.0)
    assert [w for w in out.loss_weights if w != 3.0] == [w for w, v in
                                                           zip(plain.loss_weights,
                                                               out.loss_weights, strict=True)
                                                           if v != 3.0]


def test_truncation_cuts_observation_and_tool_results_never_answers(messages, tokenizer):
    full = _render(messages, tokenizer)
    out = _render(messages, tokenizer, max_length=300)
    assert len(out.input_ids) <= 300 and out.truncated_tokens > 0
    text = tokenizer.decode(out.input_ids, skip_special_tokens=False)
    assert text.count(TRUNCATED) == 2  # the page part of the user turn and the tool result
    assert "Task: Type alice@example.com" in text and "Current page:\n" in text
    assert [y for y in out.labels if y != IGNORE] == [y for y in full.labels if y != IGNORE]


def test_answers_longer_than_max_length_are_an_error(messages, tokenizer):
    with pytest.raises(RenderError, match="max_length"):
        _render(messages, tokenizer, max_length=100)


def test_inference_prompt_is_the_training_prefix(messages, tokenizer):
    out = _render(messages, tokenizer)
    for turn in (2, 4):  # each assistant turn
        prompt = render_prompt(messages[:turn], tokenizer, max_length=4096)
        assert out.input_ids[: len(prompt)] == prompt
        assert out.labels[len(prompt) - 1] == IGNORE and out.labels[len(prompt)] != IGNORE


def test_bad_messages_are_named(tokenizer):
    with pytest.raises(RenderError, match="unknown role 'robot'"):
        _render([{"role": "robot", "content": "x"}], tokenizer)
    bad_call = {"role": "assistant", "content": "",
                "tool_calls": [{"type": "function", "function": {"name": "fly", "arguments": {}}}]}
    with pytest.raises(RenderError, match="invalid"):
        _render([bad_call], tokenizer)


def test_collator_pads_and_packs():
    a = {"input_ids": [1, 2, 3], "labels": [IGNORE, 2, 3], "loss_weights": [0.0, 1.0, 5.0]}
    b = {"input_ids": [4, 5], "labels": [IGNORE, 5], "loss_weights": [0.0, 1.0]}
    padded = Collator(pad_id=0)([a, b])
    assert padded["input_ids"].tolist() == [[1, 2, 3], [4, 5, 0]]
    assert padded["labels"].tolist() == [[IGNORE, 2, 3], [IGNORE, 5, IGNORE]]
    assert padded["attention_mask"].tolist() == [[1, 1, 1], [1, 1, 0]]
    assert padded["loss_weights"].dtype == torch.float32
    packed = Collator(pad_id=0, packing=True)([a, b])
    assert packed["input_ids"].tolist() == [[1, 2, 3, 4, 5]]
    assert packed["position_ids"].tolist() == [[0, 1, 2, 0, 1]]
    assert "attention_mask" not in packed


def test_collator_rounds_lengths_up_to_a_multiple():
    a = {"input_ids": [1, 2, 3], "labels": [IGNORE, 2, 3], "loss_weights": [0.0, 1.0, 5.0]}
    b = {"input_ids": [4, 5], "labels": [IGNORE, 5], "loss_weights": [0.0, 1.0]}
    padded = Collator(pad_id=0, pad_to_multiple_of=4)([a, b])
    assert padded["input_ids"].tolist() == [[1, 2, 3, 0], [4, 5, 0, 0]]
    assert padded["attention_mask"].tolist() == [[1, 1, 1, 0], [1, 1, 0, 0]]
    packed = Collator(pad_id=0, packing=True, pad_to_multiple_of=4)([a, b])
    assert packed["input_ids"].tolist() == [[1, 2, 3, 4, 5, 0, 0, 0]]
    assert packed["position_ids"].tolist() == [[0, 1, 2, 0, 1, 0, 1, 2]]  # the filler: its own
    assert packed["labels"].tolist() == [[IGNORE, 2, 3, IGNORE, 5, IGNORE, IGNORE, IGNORE]]
    assert packed["loss_weights"].tolist()[0][5:] == [0.0, 0.0, 0.0]
    assert packed["token_count"].item() == 5  # what tokens/s counts: the filler is not read
    exact = Collator(pad_id=0, packing=True, pad_to_multiple_of=5)([a, b])
    assert exact["input_ids"].shape == (1, 5)  # already a multiple: no filler


def test_every_batch_counts_its_real_tokens():
    a = {"input_ids": [1, 2, 3], "labels": [IGNORE, 2, 3], "loss_weights": [0.0, 1.0, 5.0]}
    b = {"input_ids": [4, 5], "labels": [IGNORE, 5], "loss_weights": [0.0, 1.0]}
    assert Collator(pad_id=0)([a, b])["token_count"].item() == 5  # not the 6 padded places
    assert Collator(pad_id=0, packing=True)([a, b])["token_count"].item() == 5
