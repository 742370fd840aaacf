"""Wall-clock timing for the tests' complexity bounds, measured as ``timeit`` measures: the best
of a few runs with the cyclic garbage collector off. In the full suite the process holds torch,
transformers and datasets, and one full collection of that heap landing inside a timed call
cost ~600 ms on CI -- a pause that says nothing about the code under test."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def best_ms(call: Callable[[], T], repeats: int = 3) -> tuple[float, T]:
    """Fastest of ``repeats`` calls in milliseconds, and the last call's result."""
    gc.collect()
    gc.disable()
    try:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            result = call()
            times.append((time.perf_counter() - start) * 1000)
    finally:
        gc.enable()
    return min(times), result
