"""Rows (one per live episode or offline step) -> the figures of results.json.

    summary = summarize_live(rows)         # per run: aggregate, per group, per family, per task
    summary = summarize_offline(rows)      # per run: aggregate, per split, per website
    write_results(out, cfg, summaries, extra)

Every figure is a ``Figure`` dict ``{value, n, low, high}`` (a 95% interval). The aggregate keys
are stable: ``success_rate``, ``valid_call_rate`` (live); ``element_accuracy``, ``operation_f1``,
``step_sr``, ``task_sr``, ``valid_call_rate`` (offline); plus the cost figures
(``prompt_tokens_per_step``, ``observation_tokens_per_step``, ``tool_calls_per_step``,
``seconds_per_episode`` / ``seconds_per_step``).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from datagen.miniwob.heldout import family_of
from eval.metrics import StepScore, mean_interval, mind2web_metrics, share, wilson
from pipeline.config import config_to_dict

SCHEMA_VERSION = 1
RESULTS_NAME = "results.json"
_VERSIONED = ("torch", "transformers", "peft", "playwright", "miniwob", "pagescout")


def by(rows: Iterable[dict[str, Any]], key: Callable[[dict[str, Any]], str]
       ) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        out[key(row)].append(row)
    return dict(out)


def live_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    def per_step(key: str) -> dict[str, Any]:
        return mean_interval([n for r in rows for n in r[key]]).to_dict()

    turns = sum(r["turns"] for r in rows)
    return {
        "success_rate": share(r["success"] for r in rows).to_dict(),
        "mean_reward": mean_interval([r["reward"] for r in rows]).to_dict(),
        "valid_call_rate": wilson(sum(r["valid_calls"] for r in rows), turns).to_dict(),
        "steps_per_episode": mean_interval([r["steps"] for r in rows]).to_dict(),
        "tool_calls_per_episode": mean_interval([r["tool_calls"] for r in rows]).to_dict(),
        "tool_calls_per_step": per_step("step_tool_calls"),
        "prompt_tokens_per_step": per_step("step_prompt_tokens"),
        "completion_tokens_per_step": per_step("step_completion_tokens"),
        "observation_tokens_per_step": per_step("observation_tokens"),
        "seconds_per_episode": mean_interval([r["seconds"] for r in rows]).to_dict(),
        "episodes_per_minute": _throughput(rows),
        "episodes": len(rows),
        "errors": sum(1 for r in rows if r.get("error")),
    }


def summarize_live(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for run, run_rows in by(rows, lambda r: r["run"]).items():
        out[run] = {
            "policy": run_rows[0]["policy"], "mode": run_rows[0]["mode"],
            "aggregate": live_figures(run_rows),
            "groups": {g: live_figures(rs) for g, rs in by(run_rows, lambda r: r["group"]).items()},
            "per_family": {f: {g: share(r["success"] for r in gs).to_dict()
                               for g, gs in by(rs, lambda r: r["group"]).items()}
                           for f, rs in sorted(by(run_rows, lambda r: family_of(r["task"])).items())},
            "per_task": {t: {"group": rs[0]["group"],
                             "success_rate": share(r["success"] for r in rs).to_dict(),
                             "stops": _counts(r["stop"] for r in rs)}
                         for t, rs in sorted(by(run_rows, lambda r: r["task"]).items())},
        }
    return out


def offline_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    scores = [StepScore(r["task_id"], r["element"], r["op_f1"]) for r in rows]
    figures = {k: v.to_dict() for k, v in mind2web_metrics(scores).items()}
    turns = sum(r["turns"] for r in rows)
    figures |= {
        "valid_call_rate": wilson(sum(r["valid_calls"] for r in rows), turns).to_dict(),
        "tool_calls_per_step": mean_interval([r["tool_calls"] for r in rows]).to_dict(),
        "prompt_tokens_per_step": mean_interval([r["prompt_tokens"] for r in rows]).to_dict(),
        "observation_tokens_per_step":
            mean_interval([r["observation_tokens"] for r in rows]).to_dict(),
        "seconds_per_step": mean_interval([r["seconds"] for r in rows]).to_dict(),
        "steps": len(rows), "tasks": len({r["task_id"] for r in rows}),
        "unreadable_steps": sum(1 for r in rows if r.get("error")),
    }
    return figures


def summarize_offline(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for run, run_rows in by(rows, lambda r: r["run"]).items():
        out[run] = {
            "policy": run_rows[0]["policy"], "mode": run_rows[0]["mode"],
            "aggregate": offline_figures(run_rows),
            "groups": {s: offline_figures(rs) for s, rs in by(run_rows, lambda r: r["split"]).items()},
            "per_website": {w: {k: v for k, v in offline_figures(rs).items()
                                if k in ("step_sr", "element_accuracy", "steps")}
                            for w, rs in sorted(by(run_rows, lambda r: r["website"]).items())},
        }
    return out


def _git_commit() -> str | None:
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                check=False, cwd=Path(__file__).parent).stdout.strip()
    except OSError:
        return None
    return commit or None


# the commit of the code this process imported: a run hours long may end after a new commit
COMMIT_AT_IMPORT = _git_commit()


def environment() -> dict[str, Any]:
    """Versions, git commit and machine of this run."""
    versions = {"python": sys.version.split()[0]}
    for name in _VERSIONED:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {"versions": versions, "git_commit": COMMIT_AT_IMPORT,
            "machine": {"platform": platform.platform(), "processor": _cpu_model(),
                        "cpus": os.cpu_count()}}


def write_results(out: Path, cfg: Any, benchmark: str, runs: dict[str, Any],
                  extra: dict[str, Any]) -> dict[str, Any]:
    results = {"schema_version": SCHEMA_VERSION, "benchmark": benchmark,
               "created": datetime.now(UTC).isoformat(timespec="seconds"),
               "command": " ".join(["python -m eval", *sys.argv[1:]]),
               "config": config_to_dict(cfg), **environment(), "runs": runs, **extra}
    (out / RESULTS_NAME).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return results


def _throughput(rows: Sequence[dict[str, Any]]) -> float | None:
    """Episodes per wall-clock minute, from the first episode's start to the last one's end
    (None when rows carry no finishing times; a resumed run counts its pause too)."""
    ends = [r["finished_at"] for r in rows if r.get("finished_at")]
    if len(ends) != len(rows) or not rows:
        return None
    start = min(r["finished_at"] - r["seconds"] for r in rows)
    wall = max(ends) - start
    return round(60 * len(rows) / wall, 3) if wall > 0 else None


def _counts(values: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for value in values:
        out[value.split(":")[0]] += 1
    return dict(out)


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()
