"""The record run's log and manifest: what was attempted, written, failed and why, and how fast.

Every attempted episode appends one line to ``record_log.jsonl`` (``Attempt``); the manifest
(``record_manifest.json``) is a pure summary of that log over all runs into the folder, so counts
and per-task success rates survive a kill and a resume.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["written", "failed", "crashed"]
LOG_NAME = "record_log.jsonl"
MANIFEST_NAME = "record_manifest.json"


@dataclass(frozen=True, slots=True)
class Attempt:
    annotation_id: str
    task: str
    seed: int
    status: Status  # crashed: browser error or timeout (retried by a resumed run)
    reason: str = ""  # "code: details" for failed and crashed episodes
    steps: int = 0
    seconds: float = 0.0
    detail: dict[str, Any] = field(default_factory=dict)  # run-specific (DAgger's episode stats)

    @property
    def code(self) -> str:
        return self.reason.split(":", 1)[0]


def read_log(path: Path) -> list[Attempt]:
    """The attempts logged so far (a torn last line from a kill is ignored)."""
    if not path.exists():
        return []
    attempts = []
    for line in path.read_text("utf-8").splitlines():
        try:
            attempts.append(Attempt(**json.loads(line)))
        except (json.JSONDecodeError, TypeError):
            continue
    return attempts


def append_log(path: Path, attempt: Attempt) -> None:
    with path.open("a", encoding="utf-8") as log:
        log.write(json.dumps(asdict(attempt)) + "\n")


def settled_ids(attempts: list[Attempt]) -> set[str]:
    """Episodes a resumed run skips: written or failed for good (crashes are tried again)."""
    return {a.annotation_id for a in attempts if a.status != "crashed"}


def summarize(attempts: list[Attempt], run_attempts: list[Attempt], run_seconds: float,
              extra: dict[str, Any]) -> dict[str, Any]:
    """The manifest: totals and per-task rows over every run, speed of this run."""
    last = {a.annotation_id: a for a in attempts}  # a crash later retried counts once
    per_task: dict[str, Counter] = defaultdict(Counter)
    seeds: dict[str, list[int]] = defaultdict(list)
    for a in last.values():
        per_task[a.task][a.status] += 1
        per_task[a.task]["steps"] += a.steps if a.status == "written" else 0
        seeds[a.task].append(a.seed)
    tasks = {
        task: {
            "attempted": sum(c[s] for s in ("written", "failed", "crashed")),
            "written": c["written"], "failed": c["failed"], "crashed": c["crashed"],
            "steps": c["steps"], "seeds": [min(seeds[task]), max(seeds[task])],
            "success_rate": round(c["written"] / max(1, c["written"] + c["failed"]), 4),
        }
        for task, c in sorted(per_task.items())
    }
    statuses = Counter(a.status for a in last.values())
    run_steps = sum(a.steps for a in run_attempts if a.status == "written")
    return {
        **extra,
        "episodes": {"attempted": len(last), "written": statuses["written"],
                     "failed": statuses["failed"], "crashed": statuses["crashed"]},
        "steps_written": sum(t["steps"] for t in tasks.values()),
        "tasks_written": sum(1 for t in tasks.values() if t["written"]),
        "failure_reasons": dict(Counter(a.code for a in last.values() if a.status != "written")),
        "failures": [asdict(a) for a in last.values() if a.status != "written"],
        "this_run": {
            "episodes": len(run_attempts), "steps_written": run_steps,
            "seconds": round(run_seconds, 2),
            "episodes_per_s": round(len(run_attempts) / run_seconds, 3) if run_seconds else 0,
            "steps_per_s": round(run_steps / run_seconds, 3) if run_seconds else 0,
        },
        "tasks": tasks,
    }
