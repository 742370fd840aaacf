"""The policy's torch thread setting is capped by OMP_NUM_THREADS, the standard knob of processes
that share a machine (the test suite's workers set it), and is kept as asked without it."""

from __future__ import annotations

import pytest

from pipeline.model.generate import thread_count


@pytest.mark.parametrize(("cap", "wanted", "used"), [
    ("1", 2, 1), ("4", 2, 2), ("2", 2, 2), (None, 2, 2), ("", 3, 3), ("0", 2, 2), ("two", 2, 2),
])
def test_threads_are_capped_by_omp_num_threads_when_it_is_a_positive_number(
        monkeypatch, cap, wanted, used):
    if cap is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", cap)
    assert thread_count(wanted) == used
