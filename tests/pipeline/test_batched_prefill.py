"""Prompts prefilled together and keys kept in bf16, with the real SmolLM2 code (a LoRA adapter
with functional-token rows): prompts of five lengths, some with a cached prefix, prefilled in
shared forwards answer as each does alone (fp32); under bf16 autocast a cache that stores its
keys in bf16 gives the same logits, bit for bit, as one that keeps the rotary embedding's fp32
keys."""

from __future__ import annotations

import copy

import pytest
import torch
from model_helpers import STEPS, adapted_model, conversations

from pipeline.model.generate import bf16_linear_weights, stop_ids
from pipeline.model.greedy import CHUNK, DecodeStats, greedy
from pipeline.model.kv_cache import RoomyCache
from pipeline.model.prefix_cache import PrefixCache
from pipeline.model.render import render_prompt


@pytest.fixture(scope="module")
def adapted(base_folder):
    return adapted_model(base_folder)


def prompt_ids(tokenizer) -> list[list[int]]:
    return [render_prompt(c, tokenizer, max_length=1000)
            for step in STEPS for c in conversations(step)]


@pytest.mark.slow
def test_prompts_prefilled_together_answer_as_each_alone_with_and_without_the_cache(adapted):
    model, tokenizer = adapted
    prompts = prompt_ids(tokenizer)
    chunks = [-(-len(ids) // CHUNK) for ids in prompts]
    assert len(set(chunks)) > 1  # rows leave the shared forwards after different chunks

    def answers(together: int, cache: PrefixCache | None, stats: DecodeStats) -> list[list[int]]:
        return [a.ids for a in greedy(model, prompts, max_new_tokens=10,
                                      stops=stop_ids(tokenizer), cache=cache, stats=stats,
                                      lookup=0, together=together)]

    alone_stats, together_stats, cached_stats = DecodeStats(), DecodeStats(), DecodeStats()
    alone = answers(1, None, alone_stats)
    assert answers(8, None, together_stats) == alone
    assert alone_stats.prefill_forwards == sum(chunks)
    assert together_stats.prefill_forwards == max(chunks)  # one group: nothing cached

    cache = PrefixCache(8)
    greedy(model, prompts, max_new_tokens=1, stops=[], cache=cache, stats=DecodeStats())
    assert answers(8, cache, cached_stats) == alone  # two groups: a chunk cached, or none
    assert cached_stats.cached_tokens == CHUNK * sum(c > 1 for c in chunks)
    assert cached_stats.prefill_forwards == 2


@pytest.mark.slow
def test_keys_stored_in_bf16_give_the_logits_of_fp32_keys_under_autocast(adapted):
    model, tokenizer = adapted
    in_bf16 = copy.deepcopy(model)
    bf16_linear_weights(in_bf16)
    ids = torch.tensor([max(prompt_ids(tokenizer), key=len)])
    layers = in_bf16.config.get_text_config().num_hidden_layers
    logits, kept = {}, {}
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        for dtype in (None, torch.bfloat16):
            past = RoomyCache(layers, ids.shape[1], dtype=dtype)
            pieces = [in_bf16(input_ids=ids[:, start:start + CHUNK],
                              position_ids=torch.arange(start, min(start + CHUNK, ids.shape[1]))
                              .unsqueeze(0), cache=past, use_cache=True).logits
                      for start in range(0, ids.shape[1], CHUNK)]
            logits[dtype], kept[dtype] = torch.cat(pieces, dim=1), past.layers[0].keys.dtype
    assert kept == {None: torch.float32, torch.bfloat16: torch.bfloat16}
    assert torch.equal(logits[None], logits[torch.bfloat16])
