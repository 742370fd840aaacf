"""Decoding backends on the recorded agent prompts: torch (the model's own forward, in bf16 where
the CPU runs it natively, or fp32) against llama.cpp (a GGUF export: f16, q8_0, f32), the same
checkpoint and prompts in one run.

    python benchmarks/backend_benchmark.py --checkpoint outputs/dagger/select/best \
        --prompts outputs/dagger/dataset-2 --count 48 --threads 2

The prompts are the conversations before ``--count`` recorded tool-calling turns of a built
dataset (``--split``, drawn with seed 0). Each prompt is answered by every backend in turn (the
order rotating prompt by prompt, so the machine's load falls on all alike), ``--concurrency``
prompts at once (1: one episode's steps; 2: the eval's two workers), each backend with its own
prefix cache. Per backend: seconds per answer and their ratio to torch's, prefill and decode
tokens/s, answers identical to torch's, and the load average at start and end; written to
``benchmarks/results/backends_c<concurrency>.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from pathlib import Path
from typing import Any

from common import finish, fmt, machine_info, print_table

BACKENDS = ("torch", "torch/fp32", "llama.cpp/f16", "llama.cpp/q8_0", "llama.cpp/f32")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--prompts", required=True, metavar="DATASET")
    parser.add_argument("--split", default="test_task")
    parser.add_argument("--count", type=int, default=48)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--backends", nargs="+", default=list(BACKENDS), choices=BACKENDS)
    args = parser.parse_args()

    from throughput_benchmark import recorded_prompts

    prompts = recorded_prompts(Path(args.prompts), args.split, args.count)
    policies = {name: policy_of(args.checkpoint, name, args.threads) for name in args.backends}
    load_start = os.getloadavg()
    answers, seconds = asyncio.run(answer_all(policies, prompts, args.concurrency))
    load = [round(x, 2) for x in load_start + os.getloadavg()]
    reference = args.backends[0]
    rows = [row(name, policies[name], answers, seconds, reference, load) for name in policies]
    print_table(f"Decoding backends: {len(prompts)} recorded prompts, {args.concurrency} at "
                f"once, {args.threads} threads (same prompts, interleaved)",
                ["backend", "s/answer", f"ratio to {reference}", "prefill tok/s",
                 "decode tok/s", f"same as {reference}", "load 1m start / end"],
                [(r["backend"], r["seconds_per_answer"], fmt(r["ratio"], 3),
                  r["prefill_tokens_per_s"], r["decode_tokens_per_s"],
                  f"{r['same_answers']}/{r['answers']}", f"{load[0]} / {load[3]}")
                 for r in rows])
    finish({"machine": machine_info(), "checkpoint": args.checkpoint, "prompts": len(prompts),
            "split": args.split, "threads": args.threads, "concurrency": args.concurrency,
            "backends": rows}, Path("benchmarks/results") / f"backends_c{args.concurrency}.json")


def policy_of(checkpoint: str, name: str, threads: int) -> Any:
    from pipeline.agent.model_policy import GenerationSettings, load_model_policy

    backend, _, weights = name.partition("/")
    if backend == "torch":  # "torch": bf16 where the CPU runs it natively; "torch/fp32": never
        settings = GenerationSettings(threads=threads, bf16=False if weights == "fp32" else None)
    else:
        settings = GenerationSettings(threads=threads, backend=backend, gguf_weights=weights)
    return load_model_policy(checkpoint, settings)


async def answer_all(policies: dict[str, Any], prompts: list[list[dict[str, Any]]],
                     concurrency: int) -> tuple[dict[str, list[str]], dict[str, float]]:
    """Every group of ``concurrency`` prompts answered by each backend in turn (rotating)."""
    names = list(policies)
    answers: dict[str, list[str]] = {n: [] for n in names}
    seconds = dict.fromkeys(names, 0.0)
    for n, start in enumerate(range(0, len(prompts), concurrency)):
        group = prompts[start:start + concurrency]
        for name in names[n % len(names):] + names[:n % len(names)]:
            policy = policies[name]
            started = time.perf_counter()
            generations = await asyncio.gather(*(policy.generate(policy.prompt_messages(p))
                                                 for p in group))
            seconds[name] += time.perf_counter() - started
            answers[name] += [g.text for g in generations]
    return answers, seconds


def row(name: str, policy: Any, answers: dict[str, list[str]], seconds: dict[str, float],
        reference: str, load: list[float]) -> dict[str, Any]:
    stats = policy.stats()
    count = len(answers[name])
    return {
        "backend": name, "answers": count,
        "seconds_per_answer": round(seconds[name] / count, 3),
        "ratio": round(seconds[name] / seconds[reference], 3),
        "prefill_tokens_per_s": stats["prefill_tokens_per_s"],
        "decode_tokens_per_s": stats["decode_tokens_per_s"],
        "cache_hit_share": stats["cache_hit_share"],
        "same_answers": sum(a == b for a, b in zip(answers[name], answers[reference],
                                                   strict=True)),
        "load_avg_start_end": load,
    }


if __name__ == "__main__":
    main()
