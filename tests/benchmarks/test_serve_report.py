"""The serving benchmark's targets and its section of docs/BENCHMARKS.md, from made-up rows."""

from __future__ import annotations

from report_serve import serve_section
from serve_benchmark import serve_targets

BASELINE = {"server": "one at a time", "clients": 16, "requests": 32, "requests_per_s": 0.4,
            "p50_s": 40.0, "p95_s": 44.0, "tokens_per_s": 12.0, "errors": 0, "mean_batch": 1.0}


def rows(rps: float, p95: float) -> list[dict]:
    return [{**BASELINE, "server": "batching", "clients": c, "requests_per_s": rps,
             "p50_s": p95 / 2, "p95_s": p95} for c in (1, 4, 16)]


def test_targets_say_met_and_the_gap():
    met = serve_targets(BASELINE, rows(1.2, 4.0))
    assert [t.met for t in met] == [True, True] and "3.00x" in met[0].measured
    missed = serve_targets(BASELINE, rows(0.6, 10.0))
    assert [t.met for t in missed] == [False, False]
    assert missed[0].gap == "0.50x short" and missed[1].gap == "2.0x the budget"


def test_the_section_names_a_missing_result_and_prints_the_rows():
    assert "missing" in serve_section(None)[-1]
    result = {"command": "python benchmarks/serve_benchmark.py", "commit": "abc",
              "machine": {"load_avg_1m": 3.0}, "model": "base:smollm2", "prompt": "trained",
              "prompt_tokens": 236, "max_new_tokens": 32, "threads": 1,
              "requests_per_client": 2, "rows": [BASELINE, *rows(1.2, 4.0)],
              "targets": [t.to_dict() for t in serve_targets(BASELINE, rows(1.2, 4.0))]}
    text = "\n".join(serve_section(result))
    assert "| one at a time | 16 | 32 | 0.4 | 40.0 | 44.0 | 12.0 | 1.0 | 0 |" in text
    assert "| serving latency, 16 clients | p95 < 5 s |" in text
