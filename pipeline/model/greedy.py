"""Greedy decoding of a batch of prompts: each prompt prefilled after the prefix the cache
already holds (alone, or beside prompts that arrived with it), then all answers decoded
together -- a lone one several tokens a forward, from a draft of its next tokens that the
forward confirms.

    stats = DecodeStats()
    answers = greedy(model, [ids_a, ids_b], max_new_tokens=96, stops=[eos, end], cache=cache,
                     stats=stats, lookup=4)
    answers[0].ids          # generated ids, up to and including the first stop id
    answers[0].cached       # prompt tokens whose keys and values came from the cache
    answers[0].runners_up   # the model's second choice at each answer id (and .gaps: how close)
    stats.accepted_tokens / stats.drafted_tokens    # the share of draft ids confirmed

    batch = DecodeBatch(model, stops=[eos, end], lookup=4, stats=stats, together=16)
    rows = batch.prefill([(ids_c, 96, None), (ids_d, 96, choose)], cache=cache)  # come and go
    batch.join(rows)                # between steps, beside the rows already decoding
    finished = batch.step()         # one forward; the rows it finished have left the batch

``greedy`` prefills its prompts, joins them all and steps until every row is done; the
continuous engine (``pipeline.model.engine``) joins requests as they arrive, between steps.
A row may have a chooser (``Chooser``: given its ids so far and the logits of the next, the id
to take) in place of the greedy choice, such as ``pipeline.model.copy_span.CopySpan``; such a
row drafts nothing.

A prompt is prefilled from the longest prefix ``PrefixCache.lookup`` finds (none without a
cache), in chunks of ``CHUNK`` tokens at fixed positions. Only whole chunks of a prompt are
cached and reused, so every cached key and value is exactly what a prefill without the cache
computes: the answers are the same token for token whatever the cache held before (a prefix
cut at any other point would be rounded differently -- in bf16 enough to flip a near-tie).
With ``together`` > 1, prompts whose cached prefixes are as long share their chunks' forwards
(a shorter last chunk right-padded, which the causal mask keeps every real position from
seeing): on a 2-core CPU with AMX, 16 chunks of 117 tokens took 0.9 s in one forward and 2.4 s
one by one. The price is exactness in bf16: a forward of 16 x 117 positions rounds differently
from one of 117 (fp32 differs by ~1e-5), so an answer can depend on which prompts came with
it, and the chunks it caches on what later prompts reuse. ``together=1`` (the default; eval's
setting) keeps every answer what the prompt gets alone. Decoding
is bound by reading the weights, so the answers are decoded as a batch: the rows' keys and
values are left-padded to one width under an attention mask in a cache that grows in place
(``RoomyCache``: no copy of the whole cache per token), each row keeps its own positions, and
a row that reaches a stop id (or ``max_new_tokens``) leaves the batch. Each finished row's
prompt chunks go back into the cache for the next call of its conversation.

A forward reads the weights once for a few tokens as for one, so each row also feeds a
prompt-lookup draft after its pending token (``pipeline.model.lookup``: up to ``lookup`` ids
that followed the latest earlier occurrence of its last ids, in its own ids or, when the match
there is longer, in the batch's ``AnswerMemory`` of earlier answers, which every greedy row adds
its answer to when it ends: the call syntax is in no prompt. On 12 live episodes of the
checkpoint that took a lone row from 246 decode forwards to 97 for the same 292 tokens, and
the decode time from 27.2 to 16.8 s). The logits at each slot give the model's greedy token
after it, so a row keeps its pending token and the draft ids up to the first the model would
not have chosen, and gains the model's token after the last one kept: one to ``lookup + 1``
tokens per forward, each the token plain decoding picks (a token's logits come from a wider
forward, which may round differently: the tests find the same answers on real prompts, in fp32
and bf16). The rows' drafts are as long as the longest (the shorter padded with slots nobody
keeps); the slots no row kept are cropped from the cache (``crop``), and a row that kept fewer
than another has the difference masked as holes in the batch's cache, which no later position
attends to and which a finished row leaves without (its own columns are gathered). A forward of
B x (lookup + 1) tokens is compute on a CPU, so only batches of up to ``DRAFT_ROWS`` rows draft
(32 recorded prompts, fp32 at 2 threads on a 2-core EPYC: decode 1.77x plain in batches of 2,
1.65x in batches of 4, where drafting only a batch's last row gave 1.04x and 1.06x; the same
answers). ``lookup=0`` is plain decoding.
The model is any Hugging Face causal LM (peft-wrapped or not) that takes ``position_ids``,
``attention_mask``, ``cache`` (a ``RoomyCache``: a ``DynamicCache`` that grows in place) and
``logits_to_keep``; a plain Llama model (SmolLM2, a merged checkpoint) runs through
``pipeline.model.llama_forward``, its forward in one function: the same logits, bit for bit.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn.functional as F

from pipeline.model.kv_cache import RoomyCache
from pipeline.model.llama_forward import autocast_dtype, llama_forward
from pipeline.model.lookup import LOOKUP_TOKENS, AnswerMemory, draft
from pipeline.model.prefix_cache import Layers, PrefixCache

CHUNK = 128  # prefill positions [0, 128), [128, 256), ... each in one forward, cached or not
DRAFT_ROWS = 4  # the most rows a decode forward verifies drafts for (a wider batch: none)

# a row's own choice of its next id: (the ids it generated so far, the logits of the next one)
Chooser = Callable[[Sequence[int], torch.Tensor], int]


@dataclass(slots=True)
class DecodeStats:
    """Running totals of the prefill and decode work (``ModelPolicy.stats`` reports them)."""

    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens taken from the prefix cache, not prefilled
    prefill_seconds: float = 0.0
    prefill_forwards: int = 0  # forwards of one chunk of one or several prompts
    decode_tokens: int = 0  # answer tokens after each answer's first (that one ends prefill)
    decode_steps: int = 0  # batched forwards: one token per row, and its draft if any
    decode_rows: int = 0  # rows over all those forwards (/ decode_steps: the mean batch)
    decode_seconds: float = 0.0
    drafted_tokens: int = 0  # prompt-lookup draft ids verified
    accepted_tokens: int = 0  # of which the model chose the same (their slots kept)


@dataclass(frozen=True, slots=True)
class Answer:
    ids: list[int]
    cached: int
    # per answer id: the model's second choice there, and how far behind the first it was (the
    # logit gap, which is also the log-probability gap): where another answer would fork
    runners_up: list[int] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)


@dataclass(slots=True)
class Row:
    """One answer in the making: ``fed`` are the ids whose keys and values the batch (or, once
    done, ``layers``) holds; ``generated`` ends with the pending token, not yet fed."""

    fed: list[int]
    layers: Layers
    limit: int  # max_new_tokens of this answer
    generated: list[int] = field(default_factory=list)
    cached: int = 0
    done: bool = False
    runners_up: list[int] = field(default_factory=list)  # per generated id (``Answer``)
    gaps: list[float] = field(default_factory=list)
    choose: Chooser | None = None  # takes the next id in place of the greedy choice

    def answer(self) -> Answer:
        return Answer(self.generated, self.cached, self.runners_up, self.gaps)


@torch.inference_mode()
def greedy(model: Any, prompts: Sequence[Sequence[int]], *, max_new_tokens: int,
           stops: Sequence[int], cache: PrefixCache | None, stats: DecodeStats,
           lookup: int = LOOKUP_TOKENS, together: int = 1,
           memory: AnswerMemory | None = None) -> list[Answer]:
    """The greedy answer of each prompt, in input order (see module doc); ``lookup``: draft
    ids verified per forward and row (0: none); ``together``: prompts prefilled in one forward
    at most; ``memory``: earlier answers to draft from (None: only this call's)."""
    batch = DecodeBatch(model, stops, lookup, stats, together, memory)
    rows = batch.prefill([(ids, max_new_tokens, None) for ids in prompts], cache)
    batch.join([row for row in rows if not row.done])
    while batch.rows:
        batch.step()
    if cache is not None:
        for row in rows:
            keep_prompt(cache, row)
    return [row.answer() for row in rows]


def keep_prompt(cache: PrefixCache, row: Row) -> None:
    """Store a finished row's prompt in ``cache``: only whole chunks, what any later prefill
    computes the same way."""
    whole = len(row.fed) - len(row.generated) + 1
    whole -= whole % CHUNK
    cache.store(row.fed[:whole], tuple((k[:, :, :whole], v[:, :, :whole])
                                       for k, v in row.layers))


class DecodeBatch:
    """The rows decoded together. Prompts are prefilled (``prefill``: alone, or up to
    ``together`` in a forward); rows ``join`` the batch (their keys and values left-padded into
    one ``RoomyCache`` with room for their answers, at any time: ``greedy`` joins all its
    prompts at once, the continuous engine joins requests between steps); ``step`` runs one
    forward and returns the rows it finished, which leave the batch with a copy of their own
    keys and values. Not thread-safe: one thread drives a batch."""

    def __init__(self, model: Any, stops: Sequence[int], lookup: int, stats: DecodeStats,
                 together: int = 1, memory: AnswerMemory | None = None) -> None:
        self.stops, self.lookup, self.stats = set(stops), lookup, stats
        self.memory = memory if memory is not None else AnswerMemory()
        self.together = max(together, 1)
        self.forward = llama_forward(model) or model  # the same logits, less Python
        self.device = next(model.parameters()).device
        self.layer_count = model.config.get_text_config().num_hidden_layers
        self.rows: list[Row] = []
        self.past: RoomyCache | None = None
        self.mask = torch.zeros(0, 0, dtype=torch.long, device=self.device)

    def prefill(self, prompts: Sequence[tuple[Sequence[int], int, Chooser | None]],
                cache: PrefixCache | None) -> list[Row]:
        """The rows of ``(ids, limit, chooser or None)`` prompts, in order, each prefilled after
        the longest whole-chunk prefix ``cache`` holds, with its first answer token pending
        (done when that is a stop id or its ``limit`` is 1). Prompts whose cached prefixes are
        as long are prefilled together, up to ``together`` in a forward."""
        looked = []
        for ids, limit, choose in prompts:
            keep, layers = (0, None) if cache is None else cache.lookup(ids)
            keep -= keep % CHUNK
            looked.append((list(ids), limit, keep, layers if keep else None, choose))
        groups: dict[int, list[int]] = {}
        for i, (_, _, keep, _, _) in enumerate(looked):
            groups.setdefault(keep, []).append(i)
        rows: list[Row | None] = [None] * len(looked)
        for keep, members in groups.items():
            for first in range(0, len(members), self.together):
                part = members[first:first + self.together]
                for i, row in zip(part, self._prefill_group([looked[i] for i in part], keep),
                                  strict=True):
                    rows[i] = row
        return rows

    def _prefill_group(self, prompts: list[tuple[list[int], int, int, Layers | None,
                                                 Chooser | None]],
                       keep: int) -> list[Row]:
        """Prefill prompts that share the cached length ``keep`` as one batch, chunk by chunk
        at the same positions: a chunk shorter than the others (a prompt's last) is padded on
        the right, which no real position attends to under the causal mask, and a prompt
        leaves the batch with its own keys and values after its last chunk (views of the
        buffer when it was the only one left in it, else a copy, so that no row, nor the
        prefix cache's entry of it, holds the whole group's buffer)."""
        started = time.perf_counter()
        width = max(len(ids) for ids, *_ in prompts)
        past = RoomyCache(self.layer_count, width,
                          [[(layers[i][0][:, :, :keep], layers[i][1][:, :, :keep], 0)
                            for _, _, _, layers, _ in prompts] for i in range(self.layer_count)]
                          if keep else (), _stored_dtype(self.device))
        active = list(range(len(prompts)))
        rows: list[Row | None] = [None] * len(prompts)
        for start in range(keep, width, CHUNK):
            ends = [min(start + CHUNK, len(prompts[p][0])) for p in active]
            size = max(ends) - start
            ending = sorted({end - 1 - start for p, end in zip(active, ends, strict=True)
                             if end == len(prompts[p][0])})
            out = self.forward(
                input_ids=torch.tensor([_padded(prompts[p][0][start:e], size)
                                        for p, e in zip(active, ends, strict=True)],
                                       device=self.device),
                position_ids=torch.arange(start, start + size,
                                          device=self.device).expand(len(active), size),
                cache=past, use_cache=True, logits_to_keep=_positions(ending, self.device))
            self.stats.prefill_forwards += 1
            staying = []
            for b, (p, end) in enumerate(zip(active, ends, strict=True)):
                ids, limit, *_, choose = prompts[p]
                if end < len(ids):
                    staying.append(b)
                    continue
                logits = out.logits[b, ending.index(end - 1 - start)]
                best, second, gap = _choices(logits)
                token = int(best) if choose is None else choose([], logits)
                layers = tuple((k[b:b + 1, :, :end], v[b:b + 1, :, :end])
                               for k, v in _layers(past))
                if len(active) > 1:
                    layers = tuple((k.clone(), v.clone()) for k, v in layers)
                rows[p] = Row(ids, layers, limit, [token], keep,
                              token in self.stops or limit <= 1, [int(second)], [float(gap)],
                              choose)
            if len(staying) < len(active):
                past.keep_rows(staying)
                active = [active[b] for b in staying]
        self.stats.prompt_tokens += sum(len(ids) for ids, *_ in prompts)
        self.stats.cached_tokens += keep * len(prompts)
        self.stats.prefill_seconds += time.perf_counter() - started
        return rows

    def join(self, rows: Sequence[Row]) -> None:
        """Add prefilled, unfinished rows: the batch is re-packed once, as wide as its longest
        row, with room for every answer's remaining tokens (and a draft)."""
        if not rows:
            return
        width_now = self.mask.shape[1]
        width = max(width_now, *(len(r.fed) for r in rows))
        shift = width - width_now
        current = _layers(self.past) if self.rows else None
        room = max(r.limit - len(r.generated) for r in [*self.rows, *rows]) + self.lookup + 1
        joining = [(row, width - len(row.fed)) for row in rows]  # each left-padded to ``width``
        self.past = RoomyCache(self.layer_count, width + room, [
            ([(*current[i], shift)] if current else [])
            + [(*row.layers[i], pad) for row, pad in joining]
            for i in range(self.layer_count)], _stored_dtype(self.device))
        for row in rows:
            row.layers = ()  # the batch holds them now
        joined = torch.tensor([[0] * pad + [1] * len(row.fed) for row, pad in joining],
                              device=self.device)
        self.mask = torch.cat([F.pad(self.mask, (shift, 0)), joined])  # holes stay holes
        self.rows = [*self.rows, *rows]

    def step(self) -> list[Row]:
        """One forward of every row with its prompt-lookup draft (none in a batch of more than
        ``DRAFT_ROWS``); returns the rows that finished, which have left the batch."""
        started = time.perf_counter()
        drafting = self.lookup if len(self.rows) <= DRAFT_ROWS else 0
        self.mask = _step(self.forward, self.rows, self.past, self.mask, self.stops, drafting,
                          self.stats, self.device, self.memory.ids)
        finished = [row for row in self.rows if row.done]
        for row in finished:
            if row.choose is None:
                self.memory.add(row.generated)
        self._leave(finished)
        self.stats.decode_seconds += time.perf_counter() - started
        return finished

    def _leave(self, leaving: list[Row]) -> None:
        if not leaving:
            return
        layers = _layers(self.past)
        kept = []
        for b, row in enumerate(self.rows):
            if any(row is r for r in leaving):  # its own columns: no padding, no holes
                own = self.mask[b].nonzero().squeeze(1)
                row.layers = tuple((k[b:b + 1].index_select(2, own),
                                    v[b:b + 1].index_select(2, own)) for k, v in layers)
            else:
                kept.append(b)
        if kept:
            mask = self.mask[kept]
            trim = int(mask.any(0).nonzero()[0])  # left padding of every row that stays
            self.past.keep_rows(kept, trim)
            self.mask = mask[:, trim:]
        else:
            self.past, self.mask = None, self.mask[:0, :0]
        self.rows = [self.rows[b] for b in kept]


def _step(model: Any, active: list[Row], past: RoomyCache, mask: torch.Tensor,
          stops: set[int], lookup: int, stats: DecodeStats, device: torch.device,
          earlier: Sequence[int]) -> torch.Tensor:
    """One forward of the batch: each row's pending token, then its draft of up to ``lookup``
    ids (shorter drafts padded with unkept slots); each row keeps what greedy decoding chooses.
    The slots no row kept are cropped from ``past``; a row that kept fewer than another has
    its unkept slots masked as holes. Returns the mask, as long as ``past``."""
    drafts = [row_draft(r, stops, lookup, earlier) for r in active]
    slots = 1 + max(len(d) for d in drafts)
    width = mask.shape[1]
    mask = torch.cat([mask, mask.new_ones(len(active), slots)], dim=1)
    out = model(input_ids=torch.tensor([_padded([r.generated[-1], *d], slots) for r, d in
                                        zip(active, drafts, strict=True)], device=device),
                position_ids=torch.tensor([[len(r.fed) + j for j in range(slots)]
                                           for r in active], device=device),
                attention_mask=mask, cache=past, use_cache=True, logits_to_keep=slots)
    stats.decode_steps += 1
    stats.decode_rows += len(active)
    best, second, gap = (t.tolist() for t in _choices(out.logits))
    for b, row in enumerate(active):
        if row.choose is not None:  # a chooser's row has no draft: one slot
            best[b][0] = row.choose(row.generated, out.logits[b, 0])
    kept = [accept_draft(r, d, list(zip(b, s, g, strict=True)), stops, stats)
            for r, d, b, s, g in zip(active, drafts, best, second, gap, strict=True)]
    most = max(kept)
    for b, count in enumerate(kept):
        mask[b, width + count:width + most] = 0
    if slots > most:
        past.crop(most - slots)
        mask = mask[:, :width + most]
    return mask


def row_draft(row: Row, stops: set[int], lookup: int, earlier: Sequence[int]) -> list[int]:
    """The row's prompt-lookup draft (from its own ids or the ``earlier`` answers; none for a
    row with a chooser): no longer than the answer may still grow besides the token every
    forward adds, and cut after its first stop id (nothing after one is kept)."""
    room = min(lookup, row.limit - len(row.generated) - 1)
    if room <= 0 or row.choose is not None:
        return []
    ids = draft(row.fed + row.generated[-1:], room, earlier=earlier)
    for position, token in enumerate(ids):
        if token in stops:
            return ids[:position + 1]
    return ids


def accept_draft(row: Row, drafted: list[int], best: list[tuple[int, int, float]],
            stops: set[int], stats: DecodeStats) -> int:
    """Append to ``row`` the tokens greedy decoding chooses after its pending token and after
    each draft id that matched the model's own choice (``best[j]``: the model's token after
    slot j, with its runner-up and gap, so after a mismatch nothing more is read). Returns how
    many tokens it appended: also the number of slots whose keys and values the row keeps
    (``row.fed`` grew as much)."""
    row.fed.append(row.generated[-1])
    emitted = 0
    for j, (token, second, gap) in enumerate(best[:len(drafted) + 1]):
        row.generated.append(token)
        row.runners_up.append(second)
        row.gaps.append(gap)
        emitted += 1
        row.done = token in stops or len(row.generated) >= row.limit
        if row.done or j == len(drafted) or drafted[j] != token:
            break
        row.fed.append(token)
    stats.decode_tokens += emitted
    stats.drafted_tokens += len(drafted)
    stats.accepted_tokens += emitted - 1
    return emitted


def _choices(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The greedy choice over the last axis, the runner-up and the logit gap between them.
    The choice is the first maximum of the logits in fp32 (``max``: every bf16 value is exact
    in fp32, ties go to the first index as with ``argmax``, at half ``argmax``'s time on a CPU);
    the runner-up is the other of the two largest (``topk``, as fast as ``argmax``): together
    ~1.9 ms for 16 rows of SmolLM2's 49,152 logits, beside forwards of ~40 ms."""
    scores = logits.float()
    top, best = scores.max(-1)
    values, indices = scores.topk(2, dim=-1)
    second = torch.where(indices[..., 0] == best, indices[..., 1], indices[..., 0])
    return best, second, top - values[..., 1]


def _padded(ids: list[int], size: int) -> list[int]:
    """``ids`` right-padded to ``size`` with its last id (any real id: nothing attends to it)."""
    return ids + ids[-1:] * (size - len(ids))


def _positions(kept: list[int], device: torch.device) -> torch.Tensor:
    """``logits_to_keep`` for a prefill chunk: the positions whose logits are wanted (the last
    one in the prompt's last chunk, none in the others), as indices. The integer form (1: the
    last position) slices a view that keeps the chunk's strides, which ``matmul`` cannot fold
    into one matrix product: it copied the whole output embedding (576 x 49,152 for SmolLM2)
    into a batched product on every chunk, 60% of a 128-token chunk's time on a CPU. Indexing
    gives a compact tensor, and a chunk with no kept position skips the head."""
    return torch.tensor(kept, dtype=torch.long, device=device)


def _stored_dtype(device: torch.device) -> torch.dtype | None:
    """The dtype a batch keeps keys and values in: bf16 under bf16 autocast (see
    ``pipeline.model.kv_cache``), else as the model gives them."""
    return torch.bfloat16 if autocast_dtype(device) == torch.bfloat16 else None


def _layers(past: Any) -> Layers:
    return tuple((keys, values) for keys, values, *_ in past)
