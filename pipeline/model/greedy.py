"""Greedy decoding of a batch of prompts: each prompt prefilled on its own after the prefix the
cache already holds, then all answers decoded together -- a lone one several tokens a forward,
from a draft of its next tokens that the forward confirms.

    stats = DecodeStats()
    answers = greedy(model, [ids_a, ids_b], max_new_tokens=96, stops=[eos, end], cache=cache,
                     stats=stats, lookup=4)
    answers[0].ids          # generated ids, up to and including the first stop id
    answers[0].cached       # prompt tokens whose keys and values came from the cache
    stats.accepted_tokens / stats.drafted_tokens    # the share of draft ids confirmed

Prefill is compute-bound, so a prompt gains nothing from company: each one runs alone, with no
padding, from the longest prefix ``PrefixCache.lookup`` finds (none without a cache), in
chunks of ``CHUNK`` tokens at fixed positions. Only whole chunks of a prompt are cached and
reused, so every cached key and value is exactly what a prefill without the cache computes:
the answers are the same token for token whatever the cache held before (a prefix cut at any
other point would be rounded differently -- in bf16 enough to flip a near-tie). Decoding
is bound by reading the weights, so the answers are decoded as a batch: the rows' keys and
values are left-padded to one width under an attention mask in a cache that grows in place
(``RoomyCache``: no copy of the whole cache per token), each row keeps its own positions, and
a row that reaches a stop id (or ``max_new_tokens``) leaves the batch. Each finished row's
prompt chunks go back into the cache for the next call of its conversation.

A forward reads the weights once for a few tokens as for one, so a lone row also feeds a
prompt-lookup draft after its pending token (``pipeline.model.lookup``: up to ``lookup`` ids
that followed the latest earlier occurrence of its last ids). The logits at each slot give the
model's greedy token after it, so the row keeps its pending token and the draft ids up to the
first the model would not have chosen, and gains the model's token after the last one kept:
one to ``lookup + 1`` tokens per forward, each the token plain decoding picks (a token's logits
come from a wider forward, which may round differently: the tests find the same answers on
real prompts, in fp32 and bf16). The draft slots it did not keep are cropped from the cache
(``crop``), so the cache holds exactly the row's fed ids again. Only a lone row
drafts -- a prompt decoded alone, or the last row of a batch: verifying drafts for B rows
feeds B x (lookup + 1) tokens per forward, which on a CPU costs compute the few confirmed ids
do not repay (a batch of 4 with ragged acceptance, the rows' unkept slots masked as holes in
the batch's cache, measured 1.0x plain at lookup 4 and 0.8x at 8), and rows in company keep
one slot each, so nothing ragged enters the batch's cache. ``lookup=0`` is plain decoding.
The model is any Hugging Face causal LM (peft-wrapped or not) that takes
``position_ids``, ``attention_mask``, ``cache`` (a ``RoomyCache``: a ``DynamicCache`` that grows in place) and
``logits_to_keep``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from pipeline.model.kv_cache import RoomyCache
from pipeline.model.lookup import LOOKUP_TOKENS, draft
from pipeline.model.prefix_cache import Layers, PrefixCache

CHUNK = 128  # prefill positions [0, 128), [128, 256), ... each in one forward, cached or not


@dataclass(slots=True)
class DecodeStats:
    """Running totals of the prefill and decode work (``ModelPolicy.stats`` reports them)."""

    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens taken from the prefix cache, not prefilled
    prefill_seconds: float = 0.0
    decode_tokens: int = 0  # answer tokens after each answer's first (that one ends prefill)
    decode_steps: int = 0  # batched forwards: one token per row, and its draft if any
    decode_seconds: float = 0.0
    drafted_tokens: int = 0  # prompt-lookup draft ids verified
    accepted_tokens: int = 0  # of which the model chose the same (their slots kept)


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
           stops: Sequence[int], cache: PrefixCache | None, stats: DecodeStats,
           lookup: int = LOOKUP_TOKENS) -> list[Answer]:
    """The greedy answer of each prompt, in input order (see module doc); ``lookup``: draft
    ids verified per forward and row (0: none)."""
    device = next(model.parameters()).device
    rows = [_prefill(model, list(ids), cache, stats, max_new_tokens, set(stops), device)
            for ids in prompts]
    _decode(model, rows, max_new_tokens, set(stops), lookup, stats, device)
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
    past = RoomyCache(_layer_count(model), len(ids),
                      [(k[:, :, :keep], v[:, :, :keep]) for k, v in layers] if layers and keep
                      else ())
    for start in range(keep, len(ids), CHUNK):
        end = min(start + CHUNK, len(ids))
        out = model(input_ids=torch.tensor([ids[start:end]], device=device),
                    position_ids=torch.arange(start, end, device=device).unsqueeze(0),
                    cache=past, use_cache=True,
                    logits_to_keep=_positions([end - start - 1] if end == len(ids) else [],
                                              device))
    token = int(out.logits[0, -1].argmax())
    row = _Row(ids, _layers(past), [token], keep, token in stops or max_new_tokens <= 1)
    stats.prompt_tokens += len(ids)
    stats.cached_tokens += keep
    stats.prefill_seconds += time.perf_counter() - started
    return row


def _decode(model: Any, rows: list[_Row], max_new_tokens: int, stops: set[int], lookup: int,
            stats: DecodeStats, device: torch.device) -> None:
    """Decode the unfinished rows together until each is done. The rows' keys and values are
    left-padded into one ``RoomyCache`` with room for the answers; a row that finishes takes a
    copy of its own and leaves the batch (``keep_rows``, which also drops the left padding no
    remaining row needs). Only a lone row drafts (see module doc)."""
    started = time.perf_counter()
    active = [r for r in rows if not r.done]
    if active:
        width = max(len(r.fed) for r in active)
        pads = [width - len(r.fed) for r in active]
        past = RoomyCache(_layer_count(model), width + max_new_tokens + lookup + 1, [
            (_stack([r.layers[i][0] for r in active], pads),
             _stack([r.layers[i][1] for r in active], pads))
            for i in range(len(active[0].layers))])
        mask = torch.tensor([[0] * p + [1] * (width - p) for p in pads], device=device)
    while active:
        drafting = lookup if len(active) == 1 else 0
        mask = _step(model, active, past, mask, max_new_tokens, stops, drafting, stats, device)
        if not any(r.done for r in active):
            continue
        layers = _layers(past)
        for b, row in enumerate(active):
            if row.done:
                row.layers = tuple((k[b:b + 1, :, pads[b]:].clone(),
                                    v[b:b + 1, :, pads[b]:].clone()) for k, v in layers)
        kept = [b for b, row in enumerate(active) if not row.done]
        if kept:
            trim = min(pads[b] for b in kept)
            past.keep_rows(kept, trim)
            mask = mask[kept][:, trim:]
            pads = [pads[b] - trim for b in kept]
        active = [active[b] for b in kept]
    stats.decode_seconds += time.perf_counter() - started


def _step(model: Any, active: list[_Row], past: RoomyCache, mask: torch.Tensor,
          max_new_tokens: int, stops: set[int], lookup: int, stats: DecodeStats,
          device: torch.device) -> torch.Tensor:
    """One forward of the batch: each row's pending token, then its draft of up to ``lookup``
    ids (only a lone row has one); each row keeps what greedy decoding chooses, and the draft
    slots the row did not keep are cropped from ``past``. Returns the mask, as long as ``past``."""
    drafts = [_draft(r, max_new_tokens, stops, lookup) for r in active]
    slots = 1 + len(drafts[0])
    mask = torch.cat([mask, mask.new_ones(len(active), slots)], dim=1)
    out = model(input_ids=torch.tensor([[r.generated[-1], *d] for r, d in
                                        zip(active, drafts, strict=True)], device=device),
                position_ids=torch.tensor([[len(r.fed) + j for j in range(slots)]
                                           for r in active], device=device),
                attention_mask=mask, cache=past, use_cache=True, logits_to_keep=slots)
    stats.decode_steps += 1
    best = out.logits.argmax(-1).tolist()
    kept = [_accept(r, d, b, max_new_tokens, stops, stats)
            for r, d, b in zip(active, drafts, best, strict=True)]
    unkept = slots - kept[0]  # rows in company have no draft and keep their one slot
    if unkept:
        past.crop(-unkept)
        mask = mask[:, :-unkept]
    return mask


def _draft(row: _Row, max_new_tokens: int, stops: set[int], lookup: int) -> list[int]:
    """The row's prompt-lookup draft: no longer than the answer may still grow besides the
    token every forward adds, and cut after its first stop id (nothing after one is kept)."""
    room = min(lookup, max_new_tokens - len(row.generated) - 1)
    ids = draft(row.fed + row.generated[-1:], room) if room > 0 else []
    for position, token in enumerate(ids):
        if token in stops:
            return ids[:position + 1]
    return ids


def _accept(row: _Row, drafted: list[int], best: list[int], max_new_tokens: int,
            stops: set[int], stats: DecodeStats) -> int:
    """Append to ``row`` the tokens greedy decoding chooses after its pending token and after
    each draft id that matched the model's own choice (``best[j]``: the model's token after
    slot j, so after a mismatch nothing more is read). Returns how many tokens it appended:
    also the number of slots whose keys and values the row keeps (``row.fed`` grew as much)."""
    row.fed.append(row.generated[-1])
    emitted = 0
    for j, token in enumerate(best[:len(drafted) + 1]):
        row.generated.append(token)
        emitted += 1
        row.done = token in stops or len(row.generated) >= max_new_tokens
        if row.done or j == len(drafted) or drafted[j] != token:
            break
        row.fed.append(token)
    stats.decode_tokens += emitted
    stats.drafted_tokens += len(drafted)
    stats.accepted_tokens += emitted - 1
    return emitted


def _positions(kept: list[int], device: torch.device) -> torch.Tensor:
    """``logits_to_keep`` for a prefill chunk: the positions whose logits are wanted (the last
    one in the prompt's last chunk, none in the others), as indices. The integer form (1: the
    last position) slices a view that keeps the chunk's strides, which ``matmul`` cannot fold
    into one matrix product: it copied the whole output embedding (576 x 49,152 for SmolLM2)
    into a batched product on every chunk, 60% of a 128-token chunk's time on a CPU. Indexing
    gives a compact tensor, and a chunk with no kept position skips the head."""
    return torch.tensor(kept, dtype=torch.long, device=device)


def _layer_count(model: Any) -> int:
    return model.config.get_text_config().num_hidden_layers


def _layers(past: Any) -> Layers:
    return tuple((keys, values) for keys, values, *_ in past)


def _stack(tensors: list[torch.Tensor], pads: list[int]) -> torch.Tensor:
    """Rows of (1, H, T_i, D) left-padded with zeros to one (B, H, T, D) tensor."""
    return torch.cat([torch.nn.functional.pad(t, (0, 0, pad, 0)) for t, pad in
                      zip(tensors, pads, strict=True)])
