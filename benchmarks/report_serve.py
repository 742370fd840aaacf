"""The serve issue's section of docs/BENCHMARKS.md, from ``benchmarks/results/serve.json``
(written by ``benchmarks/serve_benchmark.py``).

    parts += serve_section(results["serve"])
"""

from __future__ import annotations

from typing import Any

from common import markdown_table

SERVE_RESULTS = ("serve", "backends_c1", "backends_c2")
COLUMNS = (("server", "server"), ("clients", "clients"), ("requests", "requests"),
           ("requests_per_s", "req/s"), ("p50_s", "p50 s"), ("p95_s", "p95 s"),
           ("tokens_per_s", "tokens/s"), ("mean_batch", "mean batch"), ("errors", "errors"))


def serve_section(serve: dict[str, Any] | None) -> list[str]:
    out = ["## Serving: chat completions over HTTP", ""]
    if serve is None:
        return out + ["_`benchmarks/results/serve.json` is missing: that benchmark has not run._"]
    targets = [[t["name"], t["target"], t["measured"],
                {True: "met", False: "NOT met", None: "not measured"}[t["met"]], t["gap"]]
               for t in serve["targets"]]
    note = (f"Command: `{serve['command']}` at `{serve['commit']}` (1-minute load average "
            f"{serve['machine'].get('load_avg_1m')}). Model `{serve['model']}` rendered as "
            f"a {serve['prompt']} model reads a query_only step ({serve['prompt_tokens']} prompt "
            f"tokens), {serve['max_new_tokens']} new tokens per answer, greedy, "
            f"{serve.get('threads')} torch thread(s); each client sends "
            f"{serve['requests_per_client']} requests back to back. The baseline is the same "
            "server generating one request at a time (batch size 1).")
    rounds = serve.get("rounds", [])
    if rounds:
        note += (f" The two servers took turns over {max(r['round'] for r in rounds)} rounds "
                 "(baseline, then batching, in each); the first table pools the rounds, the "
                 "second shows each.")
    out += [note, "",
            markdown_table(["target", "goal", "measured", "verdict", "gap"], targets), "",
            markdown_table([label for _, label in COLUMNS],
                           [[row.get(key) for key, _ in COLUMNS] for row in serve["rows"]])]
    if rounds:
        out += ["", markdown_table(["round", *(label for _, label in COLUMNS)],
                                   [[row["round"], *(row.get(key) for key, _ in COLUMNS)]
                                    for row in rounds])]
    return out


def backends_section(runs: list[dict[str, Any] | None]) -> list[str]:
    """``benchmarks/backend_benchmark.py``: torch against llama.cpp on recorded prompts."""
    out = ["## Decoding backends: torch and llama.cpp", ""]
    runs = [r for r in runs if r]
    if not runs:
        missing = ("_`benchmarks/results/backends_c*.json` is missing: "
                   "`benchmarks/backend_benchmark.py` has not run._")
        return [*out, missing]
    for run in runs:
        load = run["backends"][0]["load_avg_start_end"]
        line = (f"`{run['command']}` at `{run['commit']}`: {run['prompts']} recorded prompts "
                f"of the `{run['split']}` split, {run['concurrency']} at once, {run['threads']} "
                "threads, each prompt answered by every backend in turn (1-minute load average "
                f"{load[0]} -> {load[3]}).")
        out += [line, "",
                markdown_table(["backend", "s/answer", "time vs torch", "prefill tokens/s",
                                "decode tokens/s", "prefix cache hits", "answers as torch's"],
                               [[r["backend"], f"{r['seconds_per_answer']:.3f}",
                                 f"{r['ratio']:.3f}", r["prefill_tokens_per_s"],
                                 r["decode_tokens_per_s"], f"{100 * r['cache_hit_share']:.1f}%",
                                 f"{r['same_answers']}/{r['answers']}"]
                                for r in run["backends"]]), ""]
    return out
