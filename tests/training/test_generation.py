"""Greedy generation for the held-out metrics: prompts are batched by length, and the answers
come back in the prompts' own order."""

from __future__ import annotations

import pytest
from training_helpers import TASKS, trajectory

from pipeline.model.generate import generate_turns
from pipeline.model.render import render_prompt
from training.data import eval_prompts

pytestmark = pytest.mark.slow


def test_answers_come_back_in_the_order_of_the_prompts(base_folder):
    from pipeline.model.functional_tokens import add_functional_tokens
    from pipeline.model.hf import load_causal_lm

    model, tokenizer = load_causal_lm(base_folder, dtype="float32")
    add_functional_tokens(model, tokenizer)
    prompts = eval_prompts([trajectory(*task) for task in TASKS[:3]], None, seed=0)
    lengths = [len(render_prompt(p.messages, tokenizer, max_length=1024)) for p in prompts]
    assert len(set(lengths)) == len(prompts) > 4  # distinct: the same batches either way
    options = {"max_length": 1024 + 12, "max_new_tokens": 12, "batch_size": 2}
    conversations = [p.messages for p in prompts]
    forward = generate_turns(model, tokenizer, conversations, **options)
    backward = generate_turns(model, tokenizer, conversations[::-1], **options)
    assert forward == backward[::-1]
    assert [g.prompt_tokens for g in forward] == lengths
    assert all(0 < g.completion_tokens <= 12 for g in forward)
    assert len({g.text for g in forward}) > 1  # different prompts, different answers
