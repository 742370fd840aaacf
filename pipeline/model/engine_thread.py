"""The request queue and the one decoding thread an engine runs on (the torch engine,
``pipeline.model.engine``, and the llama.cpp one, ``pipeline.model.llamacpp_engine``).

    class MyEngine(EngineThread):
        def _run(self):                       # the thread: loop taking requests
            taken = self._take(decoding=len(rows))     # None: idle, the thread ends
            ...
    future = engine.submit(prompt_ids, limit=96, choose=None)

``submit`` queues a request and starts the thread when none runs; ``_take`` hands the thread
the waiting requests its batch has room for (waiting for one while nothing decodes) and ends
the thread after ``idle_s`` without one. A request whose future was cancelled before the thread
took it (a caller that gave up waiting) is skipped.

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
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from concurrent.futures import Future

from pipeline.model.greedy import Chooser

IDLE_S = 5.0
Request = tuple[list[int], int, Chooser | None, Future]  # ids, limit, chooser, the answer


class EngineClosed(RuntimeError):
    """The engine was closed (at interpreter exit) before this answer was decoded."""


class EngineThread(ABC):
    """Requests in, one thread decoding them (see module doc); subclasses write ``_run``."""

    thread_name = "pagescout-engine"

    def __init__(self, batch_size: int, idle_s: float = IDLE_S) -> None:
        self.batch_size, self.idle_s = batch_size, idle_s
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
                self._thread = threading.Thread(target=self._run, name=self.thread_name,
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

    @abstractmethod
    def _run(self) -> None:
        """The thread's loop: ``_take`` requests between decode steps, answer their futures,
        return when ``_take`` gives None or, after ``_abandon``, when ``_closing`` is set."""

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

    def _abandon(self, decoding: Iterable[Future]) -> None:
        """Fail the answers being decoded and the waiting requests, and let the thread go."""
        with self._wake:
            waiting, self._queue, self._thread = self._queue, [], None
        closed = EngineClosed("the engine was closed before this answer was decoded")
        for future in decoding:
            future.set_exception(closed)
        for *_, future in waiting:
            if future.set_running_or_notify_cancel():  # False: its caller cancelled it
                future.set_exception(closed)


_LIVE: weakref.WeakSet[EngineThread] = weakref.WeakSet()


@atexit.register
def _close_live_engines() -> None:
    """Let every engine's thread leave its forward before the interpreter finalizes."""
    for engine in list(_LIVE):
        engine.close()
