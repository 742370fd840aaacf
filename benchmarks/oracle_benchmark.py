"""The scripted oracle policies on BrowserGym's 125 MiniWoB++ tasks: live success per task.

    python benchmarks/oracle_benchmark.py [--seeds 20] [--first-seed 1] [--tasks a,b,...]
                                          [--out benchmarks/results/oracle.json]

Every task of BrowserGym's list (``eval.browsergym.benchmark.TASKS``) is one row: a task with an
oracle policy (``datagen.miniwob.policies.POLICIES``) plays ``--seeds`` seeded episodes in one
headless Chromium exactly as ``datagen record`` plays them (``run_episode``: raw reward 1 is a
success); a task listed in ``datagen.miniwob.policies.impossible.IMPOSSIBLE`` is a failure with
its reason; any other task is "no policy" (also a failure). The summary counts the tasks covered
(a policy at >= 95% over >= 20 seeds) and names the tasks an episode of which took more actions
than BrowserGym's budget (``MAX_STEPS``). ``--tasks`` plays only those (their rows are merged into
an existing ``--out`` file, so batches of new policies can be measured one at a time; a task
whose policy no run has played yet is "not played").
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from common import REPO, finish, machine_info, print_table
from playwright.sync_api import Error as PlaywrightError

from datagen.miniwob.episode import EpisodeSettings, run_episode
from datagen.miniwob.policies import POLICIES
from datagen.miniwob.policies.impossible import IMPOSSIBLE
from eval.browsergym.benchmark import MAX_STEPS, TASKS
from pipeline.capture import CaptureSession
from pipeline.errors import CaptureError
from pipeline.live.browser import BrowserConfig
from pipeline.live.miniwob import serve_miniwob

TARGET_RATE = 0.95
TARGET_SEEDS = 20
SETTINGS = EpisodeSettings(BrowserConfig(), max_time_ms=60_000, max_steps=40,
                           target_wait_ms=2_000, disable_animations=True)


def play_task(session: CaptureSession, base_url: str, task: str, seeds: list[int]) -> dict:
    """One row: successes over ``seeds``, the most common failure reasons, and the most actions
    one episode took (BrowserGym ends an episode after ``MAX_STEPS``)."""
    started = time.perf_counter()
    failures: Counter[str] = Counter()
    wins = longest = 0
    for seed in seeds:
        try:
            run = session.run(run_episode(session.page, base_url, task, seed, SETTINGS))
            wins += run.success
            longest = max(longest, len(run.steps))
            if not run.success:
                failures[run.failure.split(":")[0] or "reward"] += 1
        except (TimeoutError, PlaywrightError, CaptureError) as exc:  # as datagen record does
            failures[f"error: {type(exc).__name__}"] += 1
    return {"task": task, "status": "policy", "episodes": len(seeds), "successes": wins,
            "rate": wins / len(seeds), "failures": dict(failures.most_common(3)),
            "longest": longest, "seconds": round(time.perf_counter() - started, 1)}


def row_without_policy(task: str) -> dict:
    if task in IMPOSSIBLE:
        return {"task": task, "status": "impossible", "reason": IMPOSSIBLE[task], "rate": 0.0}
    return {"task": task, "status": "no policy", "rate": 0.0}


def summary(rows: list[dict]) -> dict:
    played = [r for r in rows if r["status"] == "policy"]
    covered = [r for r in played if r["rate"] >= TARGET_RATE and r["episodes"] >= TARGET_SEEDS]
    return {"tasks": len(rows), "with_policy": len(played), "covered": len(covered),
            "over_browsergym_steps": sorted(r["task"] for r in played
                                            if r.get("longest", 0) > MAX_STEPS),
            "impossible": sum(r["status"] == "impossible" for r in rows),
            "no_policy": sum(r["status"] == "no policy" for r in rows),
            "not_played": sum(r["status"] == "not played" for r in rows),
            "mean_success_all_tasks": round(sum(r["rate"] for r in rows) / len(rows), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=TARGET_SEEDS)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--tasks", default="", help="comma-separated; default: all 125")
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "results" / "oracle.json"))
    args = parser.parse_args()
    wanted = [t for t in args.tasks.split(",") if t] or list(TASKS)
    unknown = sorted(set(wanted) - set(TASKS))
    if unknown:
        parser.error(f"not BrowserGym MiniWoB tasks: {', '.join(unknown)}")
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    previous = _previous_rows(Path(args.out)) if args.tasks else {}
    with serve_miniwob() as base_url, CaptureSession(BrowserConfig()) as session:
        for task in wanted:
            row = (play_task(session, base_url, task, seeds) if task in POLICIES
                   else row_without_policy(task))
            previous[task] = row
            print(f"{task}: {row['status']} {row['rate']:.0%} {row.get('failures', '')}",
                  flush=True)
    rows = [previous.get(t, {"task": t, "status": "not played", "rate": 0.0})
            if t in POLICIES else row_without_policy(t) for t in TASKS]
    print_table("Oracle policies, live", ["task", "status", "success", "episodes", "failures"],
                [[r["task"], r["status"], f"{r['rate']:.0%}", r.get("episodes", 0),
                  json.dumps(r.get("failures") or r.get("reason", ""))] for r in rows])
    payload = {"machine": machine_info(), "seeds": seeds, "summary": summary(rows), "rows": rows}
    print(json.dumps(payload["summary"]))
    finish(payload, args.out)


def _previous_rows(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    return {r["task"]: r for r in json.loads(path.read_text(encoding="utf-8"))["rows"]}


if __name__ == "__main__":
    main()
