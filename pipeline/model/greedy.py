"""Greedy decoding of a batch of prompts: each prompt prefilled on its own after the prefix the
cache already holds, then all answers decoded together one token per forward.

    stats = DecodeStats()
    answers = greedy(model, [ids_a, ids_b], max_new_tokens=96, stops=[eos, end], cache=cache,
                     stats=stats)
    answers[0].ids          # generated ids, up to and including the first stop id
    answers[0].cached       # prompt tokens whose keys and values came from the cache

Prefill is compute-bound, so a prompt gains nothing from company: each one runs alone, with no
padding, from the longest prefix ``PrefixCache.lookup`` finds (none without a cache), in
chunks of ``CHUNK`` tokens at fixed positions. Only whole chunks of a prompt are cached and
reused, so every cached key and value is exactly what a prefill without the cache computes:
the answers are the same token for token whatever the cache held before (a prefix cut at any
other point would be rounded differently -- in bf16 enough to flip a near-tie). Decoding
one token is bound by reading the weights, so the answers are decoded as a batch: the rows'
keys and values are left-padded to one width under an attention mask, each row keeps its own
positions, and a row that reaches a stop id (or ``max_new_tokens``) leaves the batch. Each
finished row's keys and values (its prompt and answer, as fed) go back into the cache for the
next call of its conversation. The model is any Hugging Face causal LM (peft-wrapped or not)
that takes ``position_ids``, ``attention_mask``, ``cache`` (a ``DynamicCache``, extended in place)
and ``logits_to_keep``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
from transformers import DynamicCache

from pipeline.model.prefix_cache import Layers, PrefixCache

CHUNK = 128  # prefill positions [0, 128), [128, 256), ... each in one forward, cached or not


@dataclass(slots=True)
class DecodeStats:
    """Running totals of the prefill and decode work (``ModelPolicy.stats`` reports them)."""

    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens taken from the prefix cache, not prefilled
    prefill_seconds: float = 0.0
    decode_tokens: int = 0  # answer tokens after each answer's first (that one ends prefill)
    decode_steps: int = 0  # batched forwards of one token per row
    decode_seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class Answer:
    ids: list[int]
    cached: int


@dataclass(slots=True)
class _Row:
    fed: list[int]  # the ids whose keys and values ``layers`` holds
    layers: Layers
    generated: list[int] = field(default_factory=list)
    cached: int = 0
    done: bool = False


@torch.inference_mode()
def greedy(model: Any, prompts: Sequence[Sequence[int]], *, max_new_tokens: int,
           stops: Sequence[int], cache: PrefixCache | None, stats: DecodeStats) -> list[Answer]:
    """The greedy answer of each prompt, in input order (see module doc)."""
    device = next(model.parameters()).device
    rows = [_prefill(model, list(ids), cache, stats, max_new_tokens, set(stops), device)
            for ids in prompts]
    _decode(model, rows, max_new_tokens, set(stops), stats, device)
    if cache is not None:
        for row in rows:  # only whole chunks: what any later prefill computes the same way
            whole = len(row.fed) - len(row.generated) + 1
            whole -= whole % CHUNK
            cache.store(row.fed[:whole], tuple((k[:, :, :whole], v[:, :, :whole])
                                               for k, v in row.layers))
    return [Answer(row.generated, row.cached) for row in rows]


def _prefill(model: Any, ids: list[int], cache: PrefixCache | None, stats: DecodeStats,
             max_new_tokens: int, stops: set[int], device: torch.device) -> _Row:
    started = time.perf_counter()
    keep, layers = (0, None) if cache is None else cache.lookup(ids)
    keep -= keep % CHUNK
    past = DynamicCache(ddp_cache_data=[(k[:, :, :keep], v[:, :, :keep]) for k, v in layers]) \
        if layers and keep else DynamicCache()
    for start in range(keep, len(ids), CHUNK):
        end = min(start + CHUNK, len(ids))
        out = model(input_ids=torch.tensor([ids[start:end]], device=device),
                    position_ids=torch.arange(start, end, device=device).unsqueeze(0),
                    cache=past, use_cache=True, logits_to_keep=1)
    token = int(out.logits[0, -1].argmax())
    row = _Row(ids, _layers(past), [token], keep, token in stops or max_new_tokens <= 1)
    stats.prompt_tokens += len(ids)
    stats.cached_tokens += keep
    stats.prefill_seconds += time.perf_counter() - started
    return row


def _decode(model: Any, rows: list[_Row], max_new_tokens: int, stops: set[int],
            stats: DecodeStats, device: torch.device) -> None:
    """Decode the unfinished rows together until each is done; a row that finishes leaves
    the batch (the rest are re-packed without it)."""
    started = time.perf_counter()
    active = [r for r in rows if not r.done]
    while active:
        width = max(len(r.fed) for r in active)
        pads = [width - len(r.fed) for r in active]
        past = DynamicCache(ddp_cache_data=[
            (_stack([r.layers[i][0] for r in active], pads),
             _stack([r.layers[i][1] for r in active], pads))
            for i in range(len(active[0].layers))])
        mask = torch.tensor([[0] * p + [1] * (width - p) for p in pads], device=device)
        while not any(r.done for r in active):
            mask = torch.cat([mask, torch.ones_like(mask[:, :1])], dim=1)
            out = model(input_ids=torch.tensor([[r.generated[-1]] for r in active], device=device),
                        position_ids=torch.tensor([[len(r.fed)] for r in active], device=device),
                        attention_mask=mask, cache=past, use_cache=True,
                        logits_to_keep=1)
            stats.decode_steps += 1
            for row, token in zip(active, out.logits[:, -1].argmax(-1).tolist(), strict=True):
                row.fed.append(row.generated[-1])
                row.generated.append(token)
                row.done = token in stops or len(row.generated) >= max_new_tokens
                stats.decode_tokens += 1
        layers = _layers(past)
        for b, (row, pad) in enumerate(zip(active, pads, strict=True)):
            row.layers = tuple((k[b:b + 1, :, pad:].clone(), v[b:b + 1, :, pad:].clone())
                               for k, v in layers)
        active = [r for r in active if not r.done]
    stats.decode_seconds += time.perf_counter() - started


def _layers(past: Any) -> Layers:
    return tuple((keys, values) for keys, values, *_ in past)


def _stack(tensors: list[torch.Tensor], pads: list[int]) -> torch.Tensor:
    """Rows of (1, H, T_i, D) left-padded with zeros to one (B, H, T, D) tensor."""
    return torch.cat([torch.nn.functional.pad(t, (0, 0, pad, 0)) for t, pad in
                      zip(tensors, pads, strict=True)])
