"""Continuous batching: one thread decodes the answers of every caller, and a request joins the
running batch between two decode steps instead of waiting for the batch before it to finish.

    engine = Engine(model, stops=stop_ids(tokenizer), batch_size=16, lookup=4, cache=cache,
                    stats=stats, bf16=True, prefill_batch=16)
    answer = await asyncio.wrap_future(engine.submit(prompt_ids, limit=96))
    copied = engine.submit(prompt_ids + prefix_ids, limit=24, choose=CopySpan(tokenizer, source))
    answer.ids, answer.cached                                  # as ``greedy`` returns them

With batches formed once and decoded to the end (the earlier scheme), a request that arrived
a moment after a batch started waited for all of that batch's answers before its own began:
under steady load the latency was about two batch times. Here the engine's thread loops:
take waiting requests while the batch has room (``batch_size`` rows), prefill them
(``DecodeBatch.prefill``, from the prefix cache; alone, or up to ``prefill_batch`` in a
forward), ``join`` them, run one ``step`` of all rows, and hand each finished answer to its
caller (its prompt's whole chunks go into the prefix cache). With ``prefill_batch`` 1 the
answers are ``greedy``'s token for token: a row's tokens do not depend on the other rows (each
keeps its own positions under the attention mask); prefilled in company, a bf16 answer may
differ by rounding (``pipeline.model.greedy``). The thread starts on the first
request and ends after ``idle_s`` without one. torch's inference mode and bf16 autocast are
per thread, so the thread sets both itself. A request whose future was cancelled before the
engine took it (a caller that gave up waiting) is skipped; once taken, its answer runs to its
end (at most its limit). An error in a forward fails the requests in the batch (each caller
gets the exception) and the engine goes on with the next ones.

The queue, the thread's start and end, and closing at interpreter exit are
``pipeline.model.engine_thread``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

import torch

from pipeline.model.engine_thread import IDLE_S, EngineThread, Request
from pipeline.model.greedy import DecodeBatch, DecodeStats, Row, keep_prompt
from pipeline.model.lookup import AnswerMemory
from pipeline.model.prefix_cache import PrefixCache


class Engine(EngineThread):
    def __init__(self, model: Any, *, stops: Sequence[int], batch_size: int, lookup: int,
                 cache: PrefixCache | None, stats: DecodeStats, bf16: bool,
                 prefill_batch: int = 1, idle_s: float = IDLE_S) -> None:
        super().__init__(batch_size, idle_s)
        self.model, self.stops, self.lookup = model, list(stops), lookup
        self.prefill_batch = prefill_batch
        self.cache, self.stats, self.bf16 = cache, stats, bf16
        self.memory = AnswerMemory()  # every batch drafts from the answers of the ones before

    def _run(self) -> None:
        device = next(self.model.parameters()).device
        with torch.inference_mode(), torch.autocast(device.type, dtype=torch.bfloat16,
                                                    enabled=self.bf16):
            batch = self._batch()
            members: dict[int, tuple[Row, Future]] = {}  # id(row) -> (row, its caller)
            while True:
                if self._closing:
                    self._abandon(future for _, future in members.values())
                    return
                taken = self._take(len(members))
                if taken is None:
                    return
                try:
                    self._admit(batch, taken, members)
                    if batch.rows:
                        for row in batch.step():
                            self._finish(row, members.pop(id(row))[1])
                except Exception as exc:  # noqa: BLE001 -- handed to every caller in the batch
                    for _, future in members.values():
                        future.set_exception(exc)
                    for *_, future in taken:
                        if not future.done():
                            future.set_exception(exc)
                    batch = self._batch()
                    members = {}

    def _batch(self) -> DecodeBatch:
        return DecodeBatch(self.model, self.stops, self.lookup, self.stats, self.prefill_batch,
                           self.memory)

    def _admit(self, batch: DecodeBatch, taken: list[Request],
               members: dict[int, tuple[Row, Future]]) -> None:
        """Prefill the taken requests and join the unfinished ones to the batch."""
        joining = []
        rows = batch.prefill([(ids, limit, choose) for ids, limit, choose, _ in taken],
                             self.cache)
        for row, (*_, future) in zip(rows, taken, strict=True):
            if row.done:
                self._finish(row, future)
            else:
                joining.append(row)
                members[id(row)] = (row, future)
        batch.join(joining)

    def _finish(self, row: Row, future: Future) -> None:
        if self.cache is not None:
            keep_prompt(self.cache, row)
        future.set_result(row.answer())
