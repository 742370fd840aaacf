"""The prefix cache: which entry a prompt reuses, what it keeps; and with the real SmolLM2 code
(a LoRA adapter with functional-token rows, as training builds it), greedy answers with the cache
are token for token those without it -- call by call along agent conversations, batched, across
episodes, and from concurrent episodes of one policy."""

from __future__ import annotations

import asyncio

import pytest
import torch

from pipeline.agent.conversation import assistant_message, tool_message
from pipeline.agent.prompts import system_prompt, user_turn
from pipeline.model.greedy import CHUNK
from pipeline.model.prefix_cache import PrefixCache, common_prefix
from pipeline.tools import make_call


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
STEPS = [  # (task, history, page, [(rationale, call, tool result or None for the action)])
    ("Click the \"Submit\" button.", [], "Page: \"Click Button\"\nElements: 3 (3 buttons)", [
        ("Searching for the Submit button.", make_call("query_elements", text="submit"),
         "1 element matches text=\"submit\":\n[2]<button>Submit</button>"),
        ("Clicking the \"Submit\" button: [2].", make_call("click", index=2), None)]),
    ("Enter \"Kenda\" as the username and log in.", ["[textbox] Username -> TYPE: Kenda"],
     "Page: \"Login User\"\nElements: 3 (2 inputs, 1 button)", [
         ("Listing the text fields.", make_call("query_elements", role="textbox"),
          "2 matches:\n[1]<input id=username />\n[2]<input type=password id=password />"),
         ("Searching for the login button.", make_call("query_elements", text="login"),
          "1 element matches text=\"login\":\n[3]<button>Login</button>"),
         ("Clicking \"Login\": [3].", make_call("click", index=3), None)]),
]


def conversations(step: tuple) -> list[list[dict]]:
    """The prompt of every call of one step: each extends the one before (append-only)."""
    task, history, page, turns = step
    messages = [{"role": "system", "content": system_prompt("query_only")},
                {"role": "user", "content": user_turn(task, history, page)}]
    out = []
    for position, (thinking, call, result) in enumerate(turns):
        out.append([dict(m) for m in messages])
        messages.append(assistant_message(call, thinking, position))
        if result is not None:
            messages.append(tool_message(call.name, result))
    return out


@pytest.fixture(scope="module")
def adapted(base_folder):
    """SmolLM2 with the functional tokens and a LoRA adapter whose weights and token rows are
    nudged off zero (an untrained adapter would leave the base's logits as they are; a random one
    would flatten them into near-ties that any rounding flips)."""
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from pipeline.model.functional_tokens import add_functional_tokens
    from pipeline.model.token_rows import use_row_forward

    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(str(base_folder))
    new_ids = add_functional_tokens(model, tokenizer)
    config = LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj", "down_proj"],
                        layers_to_transform=list(range(20, 30)),
                        trainable_token_indices={"embed_tokens": list(new_ids)})
    model = get_peft_model(model, config)
    use_row_forward(model)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_B" in name or "trainable_tokens_delta" in name:
                param.add_(0.02 * torch.randn_like(param))
    return model.eval(), tokenizer


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
