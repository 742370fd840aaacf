"""Live throughput of a checkpoint: N MiniWoB++ episodes, episodes per minute, generation speed.

    python benchmarks/throughput_benchmark.py --episodes 100 --checkpoint outputs/demo/train
    python benchmarks/throughput_benchmark.py --episodes 20 --checkpoint ... --no-cache   # main's way

Plays the first N episodes of configs/eval/miniwob.yaml's plan (every scripted task, task-major,
held-out seeds 10000..) with ``policy=checkpoint`` in ``query_only`` mode, from a fresh journal in
``outputs/throughput/<name>``, through the eval harness (``python -m eval``'s ``main``), and
prints: episodes per minute and the wall time of the N episodes, mean episode seconds, success,
calls and tokens per call, and the generation figures of ``ModelPolicy.stats()`` -- prefill
tokens/s (prompt tokens actually prefilled), decode tokens/s, generated tokens/s over all
generation time, the prefix cache's hit share, the share of prompt-lookup draft ids confirmed,
and the share of the wall time the model was busy. ``--no-cache`` turns the prefix cache off
(``generation.prefix_cache=0``). The machine is shared: the load average at start and end goes
into ``benchmarks/results/throughput_<name>.json``.

    python benchmarks/throughput_benchmark.py --checkpoint outputs/demo/train \
        --lookup-prompts outputs/demo/dataset --prompts 24 --batch-sizes 1 4

``--lookup-prompts DATASET`` measures prompt-lookup decoding instead, in this process: the
recorded step prompts of a built dataset (``--split``; every assistant turn that calls a tool,
``--prompts`` of them drawn with seed 0) answered by plain greedy decoding and by lookup with
each ``--lookup-tokens`` K, interleaved batch by batch (each batch of prompts runs under every K
in turn, the order rotating), so the machine's load falls on all alike. Per batch size and K:
generated and decode tokens/s and their ratio to plain, the draft acceptance rate, and how many
answers are plain greedy's own (all, up to floating-point near-ties), with the load average
(``benchmarks/results/throughput_lookup.json``).
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import time
from pathlib import Path
from typing import Any

from common import REPO, finish, fmt, machine_info, print_table

from pipeline.model.greedy import DecodeStats
from pipeline.model.lookup import AnswerMemory

CONFIG = REPO / "configs" / "eval" / "miniwob.yaml"
TASKS = 41  # scripted MiniWoB++ tasks the plan cycles through (datagen/miniwob/policies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--no-cache", action="store_true", help="prefill every prompt in full")
    parser.add_argument("--name", default=None, help="default: cache / nocache")
    parser.add_argument("--lookup-prompts", metavar="DATASET",
                        help="plain greedy vs prompt lookup on this dataset's recorded prompts")
    parser.add_argument("--split", default="test_task")
    parser.add_argument("--prompts", type=int, default=24)
    parser.add_argument("--lookup-tokens", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[1, 4])
    parser.add_argument("overrides", nargs="*", help="more eval config key=value")
    args = parser.parse_args()
    if args.lookup_prompts:
        compare_lookup(args)
        return
    name = args.name or ("nocache" if args.no_cache else "cache")
    out = REPO / "outputs" / "throughput" / name
    shutil.rmtree(out, ignore_errors=True)  # a fresh run, never a resumed one
    overrides = [f"checkpoint={args.checkpoint}", "policy=[checkpoint]", "mode=[query_only]",
                 f"limit={args.episodes}", f"workers={args.workers}",
                 f"miniwob.seeds_per_task={math.ceil(args.episodes / TASKS)}",
                 f"generation.threads={args.threads}", f"generation.batch_size={args.batch_size}",
                 f"generation.prefix_cache={0 if args.no_cache else 16}", "progress=true",
                 *args.overrides]
    load_start = os.getloadavg()
    started = time.perf_counter()
    results = run_eval(out, overrides)
    wall = time.perf_counter() - started
    payload = summary(results, wall, load_start, os.getloadavg(), args.episodes)
    show(payload)
    finish({"machine": machine_info(), "overrides": overrides, "throughput": payload},
           Path("benchmarks/results") / f"throughput_{name}.json")


def run_eval(out: Path, overrides: list[str]) -> dict[str, Any]:
    from eval.config import load_eval_config
    from eval.run import main as run

    return run(load_eval_config(str(CONFIG), [f"output_dir={out}", *overrides]))


def summary(results: dict[str, Any], wall: float, load_start: tuple[float, ...],
            load_end: tuple[float, ...], episodes: int) -> dict[str, Any]:
    run = results["runs"]["checkpoint/query_only"]
    agg, gen = run["aggregate"], run["generation"]
    per_minute = agg["episodes_per_minute"]
    calls = gen["prompts"]
    return {
        "episodes": agg["episodes"], "episodes_per_minute": per_minute,
        "minutes_per_100_episodes": round(100 / per_minute, 2) if per_minute else None,
        "wall_minutes_with_load": round(wall / 60, 2),  # model loading and report included
        "mean_episode_seconds": agg["seconds_per_episode"]["value"],
        "success_rate": agg["success_rate"]["value"], "errors": agg["errors"],
        "calls": calls, "calls_per_episode": round(calls / max(1, agg["episodes"]), 2),
        "prompt_tokens_per_call": round(gen["prompt_tokens"] / max(1, calls), 1),
        "generated_tokens_per_call": round(gen["generated_tokens"] / max(1, calls), 1),
        "generation": gen,
        "model_busy_share": round(gen["seconds"] / (60 * agg["episodes"] / per_minute), 3)
        if per_minute else None,
        "load_avg_start": [round(x, 2) for x in load_start],
        "load_avg_end": [round(x, 2) for x in load_end],
        "asked_episodes": episodes,
    }


def show(p: dict[str, Any]) -> None:
    g = p["generation"]
    print_table("Live throughput", ["figure", "value"], [
        ("episodes", p["episodes"]), ("episodes/min", p["episodes_per_minute"]),
        ("minutes per 100 episodes", p["minutes_per_100_episodes"]),
        ("mean episode s", p["mean_episode_seconds"]), ("success rate", p["success_rate"]),
        ("calls/episode", p["calls_per_episode"]),
        ("prompt tokens/call", p["prompt_tokens_per_call"]),
        ("generated tokens/call", p["generated_tokens_per_call"]),
        ("prefill tokens/s", g["prefill_tokens_per_s"]),
        ("decode tokens/s", g["decode_tokens_per_s"]),
        ("generated tokens/s (all generation time)", g["tokens_per_s"]),
        ("cache hit share", g["cache_hit_share"]), ("lookup acceptance", g["lookup_acceptance"]),
        ("model busy share", p["model_busy_share"]),
        ("load avg start / end", f"{p['load_avg_start'][0]} / {p['load_avg_end'][0]}")])


def compare_lookup(args: argparse.Namespace) -> None:
    from pipeline.agent.model_policy import GenerationSettings, load_model_policy

    policy = load_model_policy(args.checkpoint, GenerationSettings(threads=args.threads))
    prompts = recorded_prompts(Path(args.lookup_prompts), args.split, args.prompts)
    rows = []
    for batch_size in args.batch_sizes:
        rows += lookup_rows(policy, prompts, [0, *args.lookup_tokens], batch_size)
    show_lookup(rows)
    finish({"machine": machine_info(), "checkpoint": policy.name, "bf16": policy.bf16,
            "threads": args.threads, "prompts": len(prompts), "split": args.split,
            "lookup": rows}, Path("benchmarks/results") / "throughput_lookup.json")


def recorded_prompts(dataset: Path, split: str, count: int) -> list[list[dict[str, Any]]]:
    """The conversations before ``count`` recorded tool-calling turns (seed 0)."""
    from training.data import eval_prompts, load_split

    records, _ = load_split(dataset, split)
    return [p.messages for p in eval_prompts(records, count, seed=0)]


def lookup_rows(policy: Any, prompts: list[list[dict[str, Any]]], ks: list[int],
                batch_size: int) -> list[dict[str, Any]]:
    """One row per K (0: plain): every batch of ``prompts`` answered under each K in turn."""
    from pipeline.model.generate import generate_turns

    s = policy.settings
    stats = {k: DecodeStats() for k in ks}
    seconds = dict.fromkeys(ks, 0.0)
    answers: dict[int, list[Any]] = {k: [] for k in ks}
    memories = {k: AnswerMemory() for k in ks}  # each K drafts from its own earlier answers
    load_start = os.getloadavg()
    for n, start in enumerate(range(0, len(prompts), batch_size)):
        for k in ks[n % len(ks):] + ks[:n % len(ks)]:
            started = time.perf_counter()
            answers[k] += generate_turns(
                policy.model, policy.tokenizer, prompts[start:start + batch_size],
                max_length=s.max_length, max_new_tokens=s.max_new_tokens, batch_size=batch_size,
                bf16=policy.bf16, stats=stats[k], lookup_tokens=k,
                memory=memories[k])
            seconds[k] += time.perf_counter() - started
    load = [round(x, 2) for x in load_start + os.getloadavg()]
    return [lookup_row(k, batch_size, stats[k], seconds[k], answers[k], stats[0], seconds[0],
                       answers[0], load) for k in ks]


def lookup_row(k: int, batch_size: int, stats: DecodeStats, seconds: float, answers: list[Any],
               plain: DecodeStats, plain_seconds: float, plain_answers: list[Any],
               load: list[float]) -> dict[str, Any]:
    generated = sum(a.completion_tokens for a in answers)
    tokens_per_s = generated / seconds
    decode_per_s = stats.decode_tokens / stats.decode_seconds
    plain_decode_per_s = plain.decode_tokens / plain.decode_seconds
    return {
        "batch_size": batch_size, "lookup_tokens": k, "answers": len(answers),
        "generated_tokens": generated, "seconds": round(seconds, 1),
        "tokens_per_s": round(tokens_per_s, 2),
        "ratio": round(tokens_per_s / (sum(a.completion_tokens for a in plain_answers)
                                       / plain_seconds), 3),
        "decode_tokens_per_s": round(decode_per_s, 2),
        "decode_ratio": round(decode_per_s / plain_decode_per_s, 3),
        "decode_forwards": stats.decode_steps,
        "acceptance": round(stats.accepted_tokens / stats.drafted_tokens, 3)
        if stats.drafted_tokens else None,
        "drafted_tokens": stats.drafted_tokens, "accepted_tokens": stats.accepted_tokens,
        "same_as_plain": sum(a.text == p.text for a, p in zip(answers, plain_answers,
                                                              strict=True)),
        "load_avg_start_end": load,
    }


def show_lookup(rows: list[dict[str, Any]]) -> None:
    print_table("Prompt-lookup decoding vs plain greedy (same prompts, interleaved)",
                ["batch", "K", "tokens/s", "ratio", "decode tokens/s", "decode ratio",
                 "acceptance", "same answers", "load 1m start / end"],
                [(r["batch_size"], r["lookup_tokens"] or "plain", r["tokens_per_s"],
                  fmt(r["ratio"], 3), r["decode_tokens_per_s"], fmt(r["decode_ratio"], 3),
                  fmt(r["acceptance"], 3),
                  f"{r['same_as_plain']}/{r['answers']}",
                  f"{r['load_avg_start_end'][0]} / {r['load_avg_start_end'][3]}")
                 for r in rows])


if __name__ == "__main__":
    main()
