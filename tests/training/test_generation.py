"""Greedy generation for the held-out metrics: prompts are batched by length, and the answers
come back in the prompts' own order."""

from __future__ import annotations

import pytest
from training_helpers import TASKS, trajectory

from training.data import eval_prompts
from training.metrics import generate_answers
from training.render import render_prompt

pytestmark = pytest.mark.slow


def test_answers_come_back_in_the_order_of_the_prompts(base_folder):
    from pipeline.hf_model import load_causal_lm
    from training.tokens import add_functional_tokens

    model, tokenizer = load_causal_lm(base_folder, dtype="float32")
    add_functional_tokens(model, tokenizer)
    prompts = eval_prompts([trajectory(*task) for task in TASKS[:3]], None, seed=0)
    lengths = [len(render_prompt(p.messages, tokenizer, max_length=1024)) for p in prompts]
    assert len(set(lengths)) == len(prompts) > 4  # distinct: the same batches either way
    options = {"max_length": 1024 + 12, "max_new_tokens": 12, "batch_size": 2}
    forward = generate_answers(model, tokenizer, prompts, **options)
    backward = generate_answers(model, tokenizer, prompts[::-1], **options)
    assert forward == backward[::-1]
    assert len(set(forward)) > 1  # different prompts, different answers
