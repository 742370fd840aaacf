"""Live throughput of a checkpoint: N MiniWoB++ episodes, episodes per minute, generation speed.

    python benchmarks/throughput_benchmark.py --episodes 100 --checkpoint outputs/demo/train
    python benchmarks/throughput_benchmark.py --episodes 20 --checkpoint ... --no-cache   # main's way

Plays the first N episodes of configs/eval/miniwob.yaml's plan (every scripted task, task-major,
held-out seeds 10000..) with ``policy=checkpoint`` in ``query_only`` mode, from a fresh journal in
``outputs/throughput/<name>``, through the eval harness (``python -m eval``'s ``main``), and
prints: episodes per minute and the wall time of the N episodes, mean episode seconds, success,
calls and tokens per call, and the generation figures of ``ModelPolicy.stats()`` -- prefill
tokens/s (prompt tokens actually prefilled), decode tokens/s, generated tokens/s over all
generation time, the prefix cache's hit share, and the share of the wall time the model was
busy. ``--no-cache`` turns the prefix cache off (``generation.prefix_cache=0``). The machine is
shared: the load average at start and end goes into ``benchmarks/results/throughput_<name>.json``.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import time
from pathlib import Path
from typing import Any

from common import REPO, finish, machine_info, print_table

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
    parser.add_argument("overrides", nargs="*", help="more eval config key=value")
    args = parser.parse_args()
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
        ("cache hit share", g["cache_hit_share"]), ("model busy share", p["model_busy_share"]),
        ("load avg start / end", f"{p['load_avg_start'][0]} / {p['load_avg_end'][0]}")])


if __name__ == "__main__":
    main()
