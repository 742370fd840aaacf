"""The server's counters, served as Prometheus text at ``GET /metrics``.

    metrics = Metrics()
    metrics.observe("/v1/chat/completions", 200, 0.41)
    metrics.text(gauges={"pagescout_queue_length": 3})

Requests are counted by route and status; latencies go into one histogram per route; the
gauges (queue length, open sessions, running agent runs) and the model's generation figures
(prompts, batches, tokens, tokens/s) are read when the page is asked for.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


class Metrics:
    def __init__(self) -> None:
        self.requests: dict[tuple[str, int], int] = defaultdict(int)
        self.buckets: dict[str, list[int]] = defaultdict(lambda: [0] * len(BUCKETS))
        self.sums: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)
        self.rejected: dict[str, int] = defaultdict(int)  # why: queue_full, timeout ...

    def observe(self, route: str, status: int, seconds: float) -> None:
        self.requests[(route, status)] += 1
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                self.buckets[route][i] += 1
        self.sums[route] += seconds
        self.counts[route] += 1

    def text(self, gauges: Mapping[str, float] = {}, model: Mapping[str, float] = {}) -> str:
        lines = ["# HELP pagescout_requests_total HTTP requests by route and status.",
                 "# TYPE pagescout_requests_total counter"]
        for (route, status), n in sorted(self.requests.items()):
            lines.append(f'pagescout_requests_total{{route="{route}",status="{status}"}} {n}')
        lines += ["# HELP pagescout_request_seconds Request latency by route.",
                  "# TYPE pagescout_request_seconds histogram"]
        for route in sorted(self.counts):
            for bound, n in zip(BUCKETS, self.buckets[route], strict=True):
                lines.append(f'pagescout_request_seconds_bucket{{route="{route}",le="{bound}"}} {n}')
            lines.append(f'pagescout_request_seconds_bucket{{route="{route}",le="+Inf"}} '
                         f'{self.counts[route]}')
            lines.append(f'pagescout_request_seconds_sum{{route="{route}"}} '
                         f'{self.sums[route]:.6f}')
            lines.append(f'pagescout_request_seconds_count{{route="{route}"}} '
                         f'{self.counts[route]}')
        lines += ["# HELP pagescout_rejected_total Requests turned away, by reason.",
                  "# TYPE pagescout_rejected_total counter"]
        lines += [f'pagescout_rejected_total{{reason="{why}"}} {n}'
                  for why, n in sorted(self.rejected.items())]
        for name, value in {**gauges, **model}.items():
            kind = "counter" if name.endswith("_total") else "gauge"
            lines += [f"# TYPE {name} {kind}", f"{name} {value}"]
        return "\n".join(lines) + "\n"


def model_metrics(stats: Mapping[str, float]) -> dict[str, float]:
    """ModelPolicy.stats() as metric names."""
    return {"pagescout_generation_prompts_total": stats.get("prompts", 0),
            "pagescout_generation_batches_total": stats.get("batches", 0),
            "pagescout_prompt_tokens_total": stats.get("prompt_tokens", 0),
            "pagescout_cached_prompt_tokens_total": stats.get("cached_tokens", 0),
            "pagescout_prefill_forwards_total": stats.get("prefill_forwards", 0),
            "pagescout_generated_tokens_total": stats.get("generated_tokens", 0),
            "pagescout_generation_seconds_total": stats.get("seconds", 0.0),
            "pagescout_tokens_per_second": stats.get("tokens_per_s", 0.0)}
