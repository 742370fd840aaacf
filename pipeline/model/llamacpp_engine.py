"""Continuous batching over llama.cpp: ``pipeline.model.engine.Engine``'s interface (``submit``
a prompt's ids, get a future ``Answer``) decoded by a GGUF export of the model.

    engine = LlamaCppEngine(model, tokenizer, stops=stop_ids(tokenizer), batch_size=8,
                            cache_entries=16, stats=stats, threads=2, weights="f16")
    answer = engine.submit(prompt_ids, limit=96).result()      # ids, cached, runners_up, gaps
    copied = engine.submit(ids, 24, choose=CopySpan(tokenizer, source))

The model is written once as GGUF (``pipeline.model.gguf_export``, cached by a digest of its
weights) and run by llama.cpp (``pipeline.model.llamacpp``): on this 2-core CPU a SmolLM2-135M
token takes ~12 ms in f16 where the fp32 torch forward takes ~115. Decoding is greedy, as the
torch engine's: each answer id is the first maximum of its logits (or ``choose``'s pick), with
the runner-up and the gap recorded, and an answer ends at a stop id or its limit. f16 weights
round differently from fp32, so a near-tie may go the other way (the logits differ by ~0.03).

Each answer decodes in its own sequence of llama.cpp's unified cache; one thread takes
waiting requests between decode steps (at most ``batch_size`` answers at once), prefills each
after the longest prefix a sequence already holds (an earlier prompt and its answer: the
conversation so far, or the system prompt), and decodes one token of every answer per forward,
with up to ``lookup`` prompt-lookup draft ids each in a batch of at most ``DRAFT_ROWS``
(``pipeline.model.lookup``; the drafts and their acceptance are ``pipeline.model.greedy``'s, the
draft ids a row did not keep leave its sequence). A finished answer's sequence stays as a
cached prefix; ``cache_entries`` of them are kept, the least recently used given up first (also
when the cache of ``context`` positions is full); with 0 every prompt is prefilled whole.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from pipeline.model.engine_thread import IDLE_S, EngineThread
from pipeline.model.greedy import DRAFT_ROWS, Chooser, DecodeStats, Row, accept_draft, row_draft
from pipeline.model.llamacpp import CacheFull, LlamaCppModel
from pipeline.model.lookup import LOOKUP_TOKENS, AnswerMemory
from pipeline.model.prefix_cache import common_prefix

CONTEXT = 16384  # cache positions shared by all sequences (f16 keys and values: ~23 KB each)


@dataclass(slots=True)
class Slot:
    """A sequence of the cache: the ids whose keys and values it holds."""

    fed: list[int] = field(default_factory=list)
    used: float = 0.0  # when it last served an answer (least recently used goes first)
    busy: bool = False


class LlamaCppEngine(EngineThread):
    thread_name = "pagescout-llamacpp"

    def __init__(self, model: Any, tokenizer: Any, *, stops: Sequence[int], batch_size: int,
                 cache_entries: int, stats: DecodeStats, threads: int, weights: str = "f16",
                 lookup: int = LOOKUP_TOKENS, context: int = CONTEXT,
                 idle_s: float = IDLE_S) -> None:
        from pipeline.model.gguf_export import exported_gguf

        super().__init__(batch_size, idle_s)
        self.path = exported_gguf(model, tokenizer, weights)
        self.stops, self.stats, self.lookup = set(stops), stats, lookup
        self.reuse = cache_entries > 0  # 0: every prompt prefilled whole, as the torch engine
        self.slots = [Slot() for _ in range(batch_size + max(cache_entries, 1))]
        self.llm = LlamaCppModel(self.path, context=context, sequences=len(self.slots),
                                 threads=threads)
        self.memory = AnswerMemory()  # drafts come from the earlier answers too

    def _run(self) -> None:
        rows: dict[int, tuple[Row, int, Future]] = {}  # id(row) -> (row, its slot, its caller)
        while True:
            if self._closing:
                for _, slot, _ in rows.values():
                    self._release(slot)
                self._abandon(future for *_, future in rows.values())
                return
            taken = self._take(len(rows))
            if taken is None:
                return
            for ids, limit, choose, future in taken:
                try:
                    row, slot = self._prefill(ids, limit, choose)
                except Exception as exc:  # noqa: BLE001 -- the request's caller gets it
                    future.set_exception(exc)
                    continue
                if row.done:
                    self._finish(row, slot, future)
                else:
                    rows[id(row)] = (row, slot, future)
            try:
                if rows:
                    for row in self._step([(row, slot) for row, slot, _ in rows.values()]):
                        _, slot, future = rows.pop(id(row))
                        self._finish(row, slot, future)
            except Exception as exc:  # noqa: BLE001 -- handed to every caller in the batch
                for _, slot, future in rows.values():
                    self._release(slot)
                    future.set_exception(exc)
                rows = {}

    def _prefill(self, ids: list[int], limit: int, choose: Chooser | None) -> tuple[Row, int]:
        """A row for the prompt and its sequence: a free one holding the longest prefix any
        sequence computed (at most all but the prompt's last id, whose logits the first answer
        id needs), the rest of the prompt decoded."""
        started = time.perf_counter()
        outside = [i for i in ids if not 0 <= i < self.llm.vocab]
        if outside:
            raise IndexError(f"token id {outside[0]} is outside the model's vocabulary of "
                             f"{self.llm.vocab}")
        source, reused = self._longest_prefix(ids)
        target = self._free_slot(avoid=source)
        if source is None or reused == 0:
            self.llm.remove(target)
        elif source != target:
            self.llm.copy(source, target, reused)
        else:
            self.llm.truncate(target, reused)
        slot = self.slots[target]
        slot.busy, slot.fed = True, ids[:reused]
        try:
            logits = self._forward_evicting([(target, ids[reused:], reused)])[0][-1]
        except Exception:
            self._release(target, forget=True)
            raise
        slot.fed = list(ids)
        best, second, gap = _choices(logits)
        token = best if choose is None else choose([], torch.from_numpy(logits))
        row = Row(slot.fed, (), limit, [token], reused, token in self.stops or limit <= 1,
                  [second], [gap], choose)
        self.stats.prompt_tokens += len(ids)
        self.stats.cached_tokens += reused
        self.stats.prefill_forwards += 1
        self.stats.prefill_seconds += time.perf_counter() - started
        return row, target

    def _step(self, rows: list[tuple[Row, int]]) -> list[Row]:
        """One forward of every row's pending id and its prompt-lookup draft (none in a batch
        of more than ``DRAFT_ROWS``); each row keeps what greedy decoding chooses, and the
        draft ids it did not keep leave its sequence. Returns the rows that finished."""
        started = time.perf_counter()
        drafting = self.lookup if len(rows) <= DRAFT_ROWS else 0
        drafts = [row_draft(row, self.stops, drafting, self.memory.ids) for row, _ in rows]
        entries = [(slot, [row.generated[-1], *draft], len(row.fed))
                   for (row, slot), draft in zip(rows, drafts, strict=True)]
        logits = self._forward_evicting(entries, [1 + len(d) for d in drafts])
        finished = []
        for (row, slot), draft, row_logits in zip(rows, drafts, logits, strict=True):
            best = [_choices(position) for position in row_logits]
            if row.choose is not None:  # a chooser's row has no draft: one position
                best[0] = (row.choose(row.generated, torch.from_numpy(row_logits[0])),
                           *best[0][1:])
            accept_draft(row, draft, best, self.stops, self.stats)
            self.llm.truncate(slot, len(row.fed))  # the draft ids it did not keep
            if row.done:
                finished.append(row)
                if row.choose is None:
                    self.memory.add(row.generated)
        self.stats.decode_steps += 1
        self.stats.decode_rows += len(rows)
        self.stats.decode_seconds += time.perf_counter() - started
        return finished

    def _forward_evicting(self, entries: list[tuple[int, list[int], int]],
                          last: list[int] | None = None) -> list[np.ndarray]:
        """``forward``, giving up cached sequences (least recently used first) while the
        cache is full; a prefill's partly decoded prompt is cut back before each new try."""
        while True:
            try:
                return self.llm.forward(entries, last)
            except CacheFull:
                idle = [i for i, s in enumerate(self.slots) if not s.busy and s.fed]
                if not idle:
                    raise
                victim = min(idle, key=lambda i: self.slots[i].used)
                self.llm.remove(victim)
                self.slots[victim].fed = []
                for slot, _, first in entries:
                    self.llm.truncate(slot, first)

    def _longest_prefix(self, ids: list[int]) -> tuple[int | None, int]:
        best, length = None, 0
        if not self.reuse:
            return best, length
        for i, slot in enumerate(self.slots):
            n = common_prefix(slot.fed, ids, len(ids) - 1)
            if n > length:
                best, length = i, n
        return best, length

    def _free_slot(self, avoid: int | None) -> int:
        """A sequence no answer is using: an empty one, else the least recently used one
        (the prefix source only when nothing else is free)."""
        free = [i for i, s in enumerate(self.slots) if not s.busy]
        empty = [i for i in free if not self.slots[i].fed]
        if empty:
            return empty[0]
        others = [i for i in free if i != avoid] or free
        return min(others, key=lambda i: self.slots[i].used)

    def _finish(self, row: Row, slot: int, future: Future) -> None:
        self._release(slot)
        future.set_result(row.answer())

    def _release(self, slot: int, forget: bool = False) -> None:
        """The sequence serves no answer any more (``forget``: its cells are dropped too)."""
        if forget:
            self.llm.remove(slot)
            self.slots[slot].fed = []
        self.slots[slot].busy, self.slots[slot].used = False, time.monotonic()


def _choices(logits: np.ndarray) -> tuple[int, int, float]:
    """The first maximum of ``logits``, the runner-up and the gap between them (as
    ``pipeline.model.greedy`` reads a row's logits)."""
    best = int(logits.argmax())
    top = logits[best]
    logits[best] = -np.inf
    second = int(logits.argmax())
    gap = float(top - logits[second])
    logits[best] = top
    return best, second, gap
