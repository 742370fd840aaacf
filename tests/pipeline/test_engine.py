"""The continuous-batching engine with the real SmolLM2 code (a LoRA adapter with
functional-token rows): requests that arrive while others decode join the running batch, and
every answer is the one the request gets alone; a request that breaks a forward gets the error
and the engine serves the next ones."""

from __future__ import annotations

import asyncio

import pytest
from model_helpers import STEPS, adapted_model, conversations

from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
from pipeline.model.generate import generate_turns, generation_of
from pipeline.model.render import render_prompt

OPTIONS = {"max_length": 1024, "max_new_tokens": 12}


@pytest.fixture(scope="module")
def adapted(base_folder):
    return adapted_model(base_folder)


def engine_policy(model, tokenizer, batch_size: int = 4) -> ModelPolicy:
    return ModelPolicy(model, tokenizer, "trained", "test", GenerationSettings(
        batch_size=batch_size, bf16=False, prefix_cache=0, **OPTIONS))


@pytest.mark.slow
def test_requests_join_the_running_batch_and_answer_as_if_alone(adapted):
    model, tokenizer = adapted
    prompts = [c for step in STEPS for c in conversations(step)]
    alone = [g.text for g in generate_turns(model, tokenizer, prompts, batch_size=1, **OPTIONS)]
    policy = engine_policy(model, tokenizer)

    async def staggered() -> list[str]:
        async def later(i: int) -> str:
            await asyncio.sleep(0.05 * i)  # arrivals spread over the first answers' decoding
            return (await policy.generate(prompts[i])).text
        return list(await asyncio.gather(*(later(i) for i in range(len(prompts)))))

    assert asyncio.run(staggered()) == alone
    stats = policy.stats()
    assert stats["prompts"] == len(prompts) and stats["mean_batch"] > 1.5
    assert stats["decode_rows"] > stats["decode_steps"]  # forwards advanced several answers


@pytest.mark.slow
def test_a_request_that_breaks_a_forward_gets_the_error_and_the_next_ones_are_served(adapted):
    model, tokenizer = adapted
    policy = engine_policy(model, tokenizer, batch_size=2)
    prompt = conversations(STEPS[0])[0]
    ids = render_prompt(prompt, tokenizer, max_length=OPTIONS["max_length"] - 12)
    broken = policy.engine.submit([*ids[:-1], 10 ** 9], limit=12)  # no such token id
    with pytest.raises(IndexError):
        broken.result(timeout=120)
    answer = policy.engine.submit(ids, limit=12).result(timeout=120)
    expected = generate_turns(model, tokenizer, [prompt], batch_size=1, **OPTIONS)[0]
    assert generation_of(answer, len(ids), tokenizer).text == expected.text


@pytest.mark.slow
def test_a_request_whose_caller_gave_up_before_it_was_taken_is_never_prefilled(adapted):
    model, tokenizer = adapted
    policy = engine_policy(model, tokenizer, batch_size=1)
    prompts = [render_prompt(c, tokenizer, max_length=OPTIONS["max_length"] - 12)
               for c in conversations(STEPS[0])[:2]]
    first = policy.engine.submit(prompts[0], limit=12)
    second = policy.engine.submit(prompts[1], limit=12)  # waits: the batch holds one answer
    assert second.cancel()
    first.result(timeout=120)
    third = policy.engine.submit(prompts[0], limit=12).result(timeout=120)
    assert third.ids == first.result().ids
    assert policy.stats()["prompt_tokens"] == 0  # counted by generate(), which was not used
    assert policy.engine.stats.prompt_tokens == 2 * len(prompts[0])  # prefilled: first, third
