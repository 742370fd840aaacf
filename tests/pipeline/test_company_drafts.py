"""Drafts of rows decoded in company (``pipeline.model.greedy``): every row of a small batch
verifies its own draft in the shared forward, rows that keep fewer slots than another carry the
difference as masked holes, and still each answer is the prompt's plain greedy one -- also for
a row that joins a batch with holes, and the keys and values a finished row leaves with (what
the prefix cache stores) are its own prefill's. A random Llama in fp32, so the mechanism is
tested in seconds; the real model's answers are checked in test_prompt_lookup.py."""

from __future__ import annotations

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from pipeline.model.greedy import DRAFT_ROWS, DecodeBatch, DecodeStats, greedy
from pipeline.model.kv_cache import RoomyCache
from pipeline.model.lookup import AnswerMemory

LIMIT = 20


@pytest.fixture(scope="module")
def model() -> LlamaForCausalLM:
    torch.manual_seed(3)
    config = LlamaConfig(vocab_size=64, hidden_size=64, intermediate_size=128,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=256, attn_implementation="sdpa")
    return LlamaForCausalLM(config).eval()


PROMPTS = [[5, 9, 14, 3, 27, 40, 8, 2, 33], [11, 12, 13, 50, 7, 7, 21],
           [60, 1, 44, 19, 23, 36, 2, 5, 17, 30, 41, 9]]


def alone(model: LlamaForCausalLM, ids: list[int]) -> list[int]:
    return greedy(model, [ids], max_new_tokens=LIMIT, stops=[], cache=None, stats=DecodeStats(),
                  lookup=0)[0].ids


def has_hole(mask: torch.Tensor) -> bool:
    """A 0 after a 1 in some row: a slot that row did not keep while another row kept it."""
    ones = mask.cumsum(1) > 0
    return bool((ones & (mask == 0)).any())


@torch.inference_mode()
def test_rows_in_company_draft_with_holes_and_answer_as_alone(model):
    plain = [alone(model, ids) for ids in PROMPTS]
    memory = AnswerMemory()
    memory.add(plain[0])  # the first row's answer drafts all of itself; the others' do not
    stats = DecodeStats()
    batch = DecodeBatch(model, stops=[], lookup=4, stats=stats, memory=memory)
    rows = batch.prefill([(ids, LIMIT, None) for ids in PROMPTS[:2]], cache=None)
    batch.join(rows)
    holes = False
    while batch.rows:
        if not holes and len(batch.rows) == 2 and has_hole(batch.mask):
            holes = True
            late = batch.prefill([(PROMPTS[2], LIMIT, None)], cache=None)
            batch.join(late)  # joins a batch whose mask has holes
            rows += late
        for row in batch.step():
            prefilled = RoomyCache(2, len(row.fed))
            model(input_ids=torch.tensor([row.fed]), cache=prefilled, use_cache=True,
                  position_ids=torch.arange(len(row.fed))[None])
            for (keys, values), layer in zip(row.layers, prefilled.layers, strict=True):
                assert torch.allclose(keys, layer.keys, atol=1e-5)
                assert torch.allclose(values, layer.values, atol=1e-5)
    assert holes and len(rows) == 3
    assert [row.generated for row in rows] == plain
    assert stats.decode_rows > stats.decode_steps  # forwards of several drafting rows
    assert 0 < stats.accepted_tokens < stats.drafted_tokens


def test_a_batch_wider_than_the_draft_limit_decodes_one_token_a_row(model):
    stats = DecodeStats()
    prompts = [[i + 1, i + 2, i + 3, i + 1, i + 2] for i in range(DRAFT_ROWS + 2)]
    answers = greedy(model, prompts, max_new_tokens=6, stops=[], cache=None, stats=stats,
                     lookup=4)
    assert [a.ids for a in answers] == [alone(model, ids)[:6] for ids in prompts]
    assert stats.drafted_tokens == 0 and stats.decode_steps == 5
