"""The chain report's verdict: the fine-tuned model beats a baseline only when its 95% interval
clears the baseline's."""

from __future__ import annotations

from eval.chain_report import margin_lines


def _run(value: float, low: float, high: float, n: int) -> dict:
    return {"aggregate": {"success_rate": {"value": value, "low": low, "high": high, "n": n}},
            "groups": {}}


def test_a_win_needs_the_intervals_apart():
    results = {"runs": {"oracle/query_only": _run(1.0, 0.86, 1.0, 24),
                        "random/query_only": _run(0.08, 0.03, 0.19, 48),
                        "base/query_only": _run(0.0, 0.0, 0.24, 12),
                        "checkpoint/query_only": _run(0.42, 0.27, 0.58, 36),
                        "checkpoint/full": _run(0.17, 0.05, 0.45, 12)}}
    lines = margin_lines(results)
    assert len(lines) == 4  # two checkpoint runs x (random, base); never the oracle
    assert "checkpoint/query_only" in lines[0] and "random/query_only" in lines[0]
    assert lines[0].endswith("beats it beyond the intervals")
    assert lines[1].endswith("beats it beyond the intervals")  # 27 > 24
    assert all(line.endswith("(not a clear win)") for line in lines[2:])


def test_the_planner_is_a_baseline_the_model_must_clear():
    results = {"runs": {"planner/query_only": _run(0.5, 0.35, 0.65, 24),
                        "checkpoint/query_only": _run(0.42, 0.27, 0.58, 36)}}
    lines = margin_lines(results)
    assert len(lines) == 1 and "planner/query_only" in lines[0]
    assert lines[0].endswith("(not a clear win)")
    results["runs"]["planner/query_only"] = _run(0.78, 0.62, 0.88, 36)
    assert margin_lines(results)[0].endswith("loses to it beyond the intervals")
