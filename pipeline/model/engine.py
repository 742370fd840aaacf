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

At interpreter exit every live engine is closed (``close``: its thread ends after the forward
it is in, and the answers nobody can read any more fail with ``EngineClosed``). An episode that
timed out leaves its answer decoding; a daemon thread still inside a forward when Python
finalizes is stopped as it takes the GIL back, by unwinding through torch's C++ frames, and the
process aborted with "terminate called without an active exception" after eval had written its
results. Decoding such answers to their end first made every such exit wait for them (up to
their limit of tokens).
"""

from __future__ import annotations

import atexit
import threading
import weakref
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any

import torch

from pipeline.model.greedy import Chooser, DecodeBatch, DecodeStats, Row, keep_prompt
from pipeline.model.lookup import AnswerMemory
from pipeline.model.prefix_cache import PrefixCache

IDLE_S = 5.0
Request = tuple[list[int], int, Chooser | None, Future]  # ids, limit, chooser, the answer


class EngineClosed(RuntimeError):
    """The engine was closed (at interpreter exit) before this answer was decoded."""


class Engine:
    def __init__(self, model: Any, *, stops: Sequence[int], batch_size: int, lookup: int,
                 cache: PrefixCache | None, stats: DecodeStats, bf16: bool,
                 prefill_batch: int = 1, idle_s: float = IDLE_S) -> None:
        self.model, self.stops, self.lookup = model, list(stops), lookup
        self.prefill_batch = prefill_batch
        self.batch_size, self.cache, self.stats, self.bf16 = batch_size, cache, stats, bf16
        self.idle_s = idle_s
        self.memory = AnswerMemory()  # every batch drafts from the answers of the ones before
        self._queue: list[Request] = []
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closing = False
        _LIVE.add(self)

    def submit(self, ids: Sequence[int], limit: int, choose: Chooser | None = None) -> Future:
        """The future answer of prompt ``ids`` (at most ``limit`` new tokens), each id taken by
        ``choose`` when given (``pipeline.model.greedy``), else greedily."""
        future: Future = Future()
        with self._wake:
            self._queue.append((list(ids), limit, choose, future))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="pagescout-engine",
                                                daemon=True)
                self._thread.start()
            self._wake.notify()
        return future

    def close(self, timeout: float | None = None) -> None:
        """End the thread after the forward it is in: the answers it is decoding and the
        requests still waiting fail with ``EngineClosed`` (a later ``submit`` starts a new
        thread)."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
        with self._wake:
            self._closing = False

    def _run(self) -> None:
        device = next(self.model.parameters()).device
        with torch.inference_mode(), torch.autocast(device.type, dtype=torch.bfloat16,
                                                    enabled=self.bf16):
            batch = self._batch()
            members: dict[int, tuple[Row, Future]] = {}  # id(row) -> (row, its caller)
            while True:
                if self._closing:
                    self._abandon(members)
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

    def _abandon(self, members: dict[int, tuple[Row, Future]]) -> None:
        """Fail the answers being decoded and the waiting requests, and let the thread go."""
        with self._wake:
            waiting, self._queue, self._thread = self._queue, [], None
        closed = EngineClosed("the engine was closed before this answer was decoded")
        for _, future in members.values():
            future.set_exception(closed)
        for *_, future in waiting:
            if future.set_running_or_notify_cancel():  # False: its caller cancelled it
                future.set_exception(closed)

    def _batch(self) -> DecodeBatch:
        return DecodeBatch(self.model, self.stops, self.lookup, self.stats, self.prefill_batch,
                           self.memory)

    def _take(self, decoding: int) -> list[Request] | None:
        """The waiting requests the batch has room for (waiting for one while nothing is
        decoding); None when ``idle_s`` passed with nothing to do (the thread then ends)."""
        with self._wake:
            if not decoding and not self._queue:
                self._wake.wait_for(lambda: self._queue or self._closing, timeout=self.idle_s)
                if not self._queue:
                    self._thread = None
                    return None
            room = max(self.batch_size - decoding, 0)
            taken, self._queue = self._queue[:room], self._queue[room:]
        return [t for t in taken if t[-1].set_running_or_notify_cancel()]

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


_LIVE: weakref.WeakSet[Engine] = weakref.WeakSet()


@atexit.register
def _close_live_engines() -> None:
    """Let every engine's thread leave torch before the interpreter finalizes (module doc)."""
    for engine in list(_LIVE):
        engine.close()
