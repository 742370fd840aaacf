"""Config of ``python -m datagen record`` (the ``record:`` section of configs/datagen/miniwob.yaml)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from datagen.miniwob.heldout import HELDOUT_TASKS, heldout_in, is_training_split, refusal
from datagen.miniwob.policies import POLICIES
from pipeline.live.browser import BrowserConfig

_SPLIT_NAME = re.compile(r"^[A-Za-z0-9_-]+$")


def playable_tasks(split: str) -> list[str]:
    """What ``tasks: null`` plays into ``split``: every task with an oracle policy, but the
    held-out ones when ``split`` is a training split (record, dagger; select on "train")."""
    training = is_training_split(split)
    return [t for t in sorted(POLICIES) if not (training and t in HELDOUT_TASKS)]


def task_problems(tasks: list[str] | None, split: str) -> list[str]:
    """Named tasks without an oracle policy, and held-out tasks asked of a training split."""
    problems = []
    unknown = [t for t in tasks or [] if t not in POLICIES]
    if unknown:
        problems.append(f"tasks: no oracle policy for {', '.join(unknown)} (covered: "
                        f"{', '.join(sorted(POLICIES))})")
    held = heldout_in(tasks or []) if is_training_split(split) else []
    if held:
        problems.append(refusal(held, "tasks", split))
    return problems


@dataclass
class RecordConfig:
    output_dir: str = "outputs/datagen/miniwob"
    split: str = "train"  # task files go to <output_dir>/<split>/miniwob_<k>.json
    tasks: list[str] | None = None  # None: every task with an oracle policy (in a training
    # split, but the held-out tasks of datagen.miniwob.heldout)
    seeds_per_task: int = 12
    seed: int = 0  # episode seeds are seed, seed+1, ..., seed+seeds_per_task-1
    limit: int | None = None  # only the first `limit` episodes of the plan (seed-major order)
    tasks_per_file: int = 50
    max_negatives: int = 50  # neg_candidates per action, sampled under the seed
    max_steps: int = 30  # a policy yielding more acts fails its episode
    episode_max_time_ms: int = 60_000  # the MiniWoB++ timer (raw reward ignores time)
    episode_timeout_s: float = 30.0  # wall time of one episode before it counts as crashed
    target_wait_ms: int = 2_000  # how long an act's target may take to become visible
    disable_animations: bool = True  # jQuery.fx.off: accordions, menus and trees open at once
    browser: BrowserConfig = field(default_factory=BrowserConfig)

    def task_names(self) -> list[str]:
        return list(self.tasks) if self.tasks is not None else playable_tasks(self.split)

    def skipped_heldout(self) -> list[str]:
        """Covered tasks ``tasks: null`` leaves out because the split is a training split."""
        if self.tasks is not None:
            return []
        return sorted(set(POLICIES) - set(playable_tasks(self.split)))

    def validate(self) -> list[str]:
        problems = task_problems(self.tasks, self.split)
        if self.tasks is not None and not self.tasks:
            problems.append("tasks: empty list; use null for every covered task")
        if not _SPLIT_NAME.match(self.split):
            problems.append(f"split: {self.split!r} must be a folder name such as train")
        for key in ("seeds_per_task", "tasks_per_file", "max_steps", "episode_max_time_ms",
                    "target_wait_ms"):
            if getattr(self, key) < 1:
                problems.append(f"{key}: {getattr(self, key)} must be at least 1")
        if self.max_negatives < 0:
            problems.append(f"max_negatives: {self.max_negatives} must be 0 or more")
        if self.episode_timeout_s <= 0:
            problems.append(f"episode_timeout_s: {self.episode_timeout_s} must be positive")
        if self.limit is not None and self.limit < 1:
            problems.append(f"limit: {self.limit} must be at least 1 (or null for no limit)")
        return problems
