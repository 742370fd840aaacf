"""The prefix cache: which entry a prompt reuses, what it keeps; and with the real SmolLM2 code
(a LoRA adapter with functional-token rows, as training builds it), greedy answers with the cache
are token for token those without it -- call by call along agent conversations, batched, across
episodes, and from concurrent episodes of one policy."""

from __future__ import annotations

import asyncio

import pytest
import torch
from model_helpers import STEPS, adapted_model, conversations

from pipeline.model.greedy import CHUNK
from pipeline.model.prefix_cache import PrefixCache, common_prefix


def layers(n: int, value: float = 0.0) -> tuple[tuple[torch.Tensor, torch.Tensor], ...]:
    k = torch.arange(n, dtype=torch.float32).view(1, 1, n, 1) + value
    return ((k, k.clone()),)


def test_lookup_takes_the_longest_prefix_and_leaves_one_token_to_prefill():
    cache = PrefixCache(4)
    cache.store([1, 2, 3], layers(3))
    cache.store([1, 2, 9, 9, 9], layers(5, 100))
    keep, found = cache.lookup([1, 2, 9, 9, 7])
    assert keep == 4 and found[0][0].shape[2] == 4 and found[0][0][0, 0, 0, 0] == 100
    keep, _ = cache.lookup([1, 2, 3])  # all three cached: the last one is prefilled again
    assert keep == 2
    assert cache.lookup([5, 6]) == (0, None)
    assert common_prefix([1, 2, 3], [1, 2, 4], 9) == 2


def test_an_entry_that_a_new_one_extends_is_dropped_and_capacity_evicts_the_oldest():
    cache = PrefixCache(2)
    cache.store([1, 2], layers(2))
    cache.store([1, 2, 3], layers(3))  # extends [1, 2]
    assert len(cache) == 1
    cache.store([7, 8], layers(2))
    cache.lookup([1, 2, 3, 4])  # [1, 2, 3] is now the most recently used
    cache.store([5, 6], layers(2))
    assert len(cache) == 2 and cache.lookup([7, 8, 9]) == (0, None)
    assert cache.lookup([1, 2, 3, 4])[0] == 3


def test_off_keeps_nothing():
    cache = PrefixCache(0)
    cache.store([1, 2, 3], layers(3))
    assert len(cache) == 0 and cache.lookup([1, 2, 3, 4]) == (0, None)


# --- the real model ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def adapted(base_folder):
    return adapted_model(base_folder)


OPTIONS = {"max_length": 1024, "max_new_tokens": 12}


@pytest.mark.slow
def test_cached_answers_are_the_uncached_ones_call_by_call_and_batched(adapted):
    from pipeline.model.generate import generate_turns
    from pipeline.model.greedy import DecodeStats

    model, tokenizer = adapted
    prompts = [c for step in STEPS for c in conversations(step)]
    plain = generate_turns(model, tokenizer, prompts, batch_size=1, **OPTIONS)
    cache, stats = PrefixCache(8), DecodeStats()
    one_by_one = [generate_turns(model, tokenizer, [p], batch_size=1, cache=cache, stats=stats,
                                 **OPTIONS)[0] for p in prompts]
    assert [g.text for g in one_by_one] == [g.text for g in plain]
    assert [g.completion_tokens for g in one_by_one] == [g.completion_tokens for g in plain]
    # a call that extends the one before reuses the whole chunks of its prompt
    assert one_by_one[0].cached_tokens == 0
    for i in (1, 3, 4):
        before = plain[i - 1].prompt_tokens
        assert one_by_one[i].cached_tokens == before - before % CHUNK
    assert stats.cached_tokens == sum(g.cached_tokens for g in one_by_one)
    batched = generate_turns(model, tokenizer, prompts, batch_size=3, cache=PrefixCache(8),
                             **OPTIONS)
    assert [g.text for g in batched] == [g.text for g in plain]


@pytest.mark.slow
def test_one_policy_serving_concurrent_episodes_answers_each_as_if_alone(adapted):
    """Calls of two episodes interleave over one cache; one call per batch, so that the answers
    can be compared exactly (a padded batch rounds differently from a lone prompt, with or
    without the cache)."""
    from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
    from pipeline.model.generate import generate_turns

    model, tokenizer = adapted
    first, second = (conversations(step) for step in STEPS)
    alone = [generate_turns(model, tokenizer, [p], batch_size=1, **OPTIONS)[0].text
             for p in first + second]
    policy = ModelPolicy(model, tokenizer, "trained", "test",
                         GenerationSettings(max_length=1024, max_new_tokens=12, batch_size=1, bf16=False,
                                            prefix_cache=3))

    async def episode(prompts: list[list[dict]]) -> list[str]:
        return [(await policy.generate(p)).text for p in prompts]

    async def both() -> list[list[str]]:
        return list(await asyncio.gather(episode(first), episode(second)))

    together = asyncio.run(both())
    assert together[0] + together[1] == alone
    again = asyncio.run(episode(second))  # a later episode over a cache the others filled
    assert again == alone[len(first):]
    stats = policy.stats()
    assert stats["cache_hit_share"] > 0.3 and len(policy.cache) <= 3
    assert stats["decode_tokens_per_s"] > 0 and stats["prefill_tokens_per_s"] > 0
