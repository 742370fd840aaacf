"""Config of ``python -m datagen dagger`` (the ``dagger:`` section of configs/datagen/dagger.yaml)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from datagen.miniwob.config import _SPLIT_NAME, playable_tasks, task_problems
from pipeline.agent.model_policy import GenerationSettings
from pipeline.agent.modes import MODES
from pipeline.live.browser import BrowserConfig

# Episode seeds by use, so no two uses share a page: record plays 0.., DAgger 5000..,
# eval's test seeds start at 10000 (eval.config.MiniwobConfig.first_seed), checkpoint selection's
# validation seeds at 20000 (configs/eval/select.yaml); tests check the ranges stay apart and
# clear of BrowserGym's benchmark pages (eval.browsergym.benchmark.training_conflicts).
FIRST_SEED = 5_000
SEED_RANGE = 5_000  # DAgger seeds stay below FIRST_SEED + SEED_RANGE (eval's test seeds)


@dataclass
class DaggerConfig:
    checkpoint: str = ""  # the student: a training run folder, an adapter or a merged folder
    output_dir: str = "outputs/datagen/dagger"
    split: str = "train"  # task files go to <output_dir>/<split>/dagger_<k>.json
    tasks: list[str] | None = None  # None: every task with an oracle policy (in a training
    # split, but the held-out tasks of datagen.miniwob.heldout: no training run sees them)
    seeds_per_task: int = 2
    seed: int = FIRST_SEED  # episode seeds seed .. seed+seeds_per_task-1
    seeds_on_failure: int = 0  # then this many more seeds of every task the student failed on
    # one of those seeds at least: the labelling budget goes where the student errs
    workers: int = 2  # episodes at once, each in its own browser; the student batches their turns
    limit: int | None = None  # only the first `limit` episodes of the plan (seed-major order)
    tasks_per_file: int = 50
    max_negatives: int = 50
    mode: str = "query_only"  # the agent mode the student plays in
    max_steps: int = 10  # labelled steps per episode at most (eval's step limit)
    max_tool_calls: int = 6  # per step: queries plus rejected replies, as eval
    episode_max_time_ms: int = 120_000
    episode_budget_s: float = 150.0  # no new step after this long; the labelled steps are kept
    episode_timeout_s: float = 300.0  # wall time before the episode counts as crashed (retried)
    target_wait_ms: int = 2_000  # how long the label's target may take to become visible
    after_action_ms: int = 400  # wait after an action before the next capture (as eval)
    disable_animations: bool = True
    dtype: Literal["float32", "bfloat16"] = "float32"
    generation: GenerationSettings = field(default_factory=lambda: GenerationSettings(threads=1))
    browser: BrowserConfig = field(default_factory=BrowserConfig)

    def task_names(self) -> list[str]:
        return list(self.tasks) if self.tasks is not None else playable_tasks(self.split)

    def validate(self) -> list[str]:
        problems = []
        if not self.checkpoint:
            problems.append("checkpoint: give the student, e.g. checkpoint=outputs/demo/train")
        problems += task_problems(self.tasks, self.split)
        if not self.task_names():
            problems.append("tasks: nothing to play")
        if not _SPLIT_NAME.match(self.split):
            problems.append(f"split: {self.split!r} must be a folder name such as train")
        if self.mode not in MODES:
            problems.append(f"mode: {self.mode!r} -- use one of {', '.join(MODES)}")
        last = self.seed + self.seeds_per_task + self.seeds_on_failure - 1
        if not FIRST_SEED <= self.seed <= last < FIRST_SEED + SEED_RANGE:
            problems.append(f"seed: {self.seed}..{last} leaves "
                            f"DAgger's range {FIRST_SEED}..{FIRST_SEED + SEED_RANGE - 1} (below "
                            "are the recorder's seeds, above eval's test and validation seeds)")
        for key in ("seeds_per_task", "workers", "tasks_per_file", "max_steps", "max_tool_calls",
                    "episode_max_time_ms", "target_wait_ms"):
            if getattr(self, key) < 1:
                problems.append(f"{key}: {getattr(self, key)} must be at least 1")
        if min(self.max_negatives, self.after_action_ms, self.seeds_on_failure) < 0:
            problems.append("max_negatives, after_action_ms and seeds_on_failure must be 0 or "
                            "more")
        if not 0 < self.episode_budget_s < self.episode_timeout_s:
            problems.append(f"episode_budget_s: {self.episode_budget_s} must be positive and "
                            f"below episode_timeout_s ({self.episode_timeout_s})")
        if self.limit is not None and self.limit < 1:
            problems.append(f"limit: {self.limit} must be at least 1 (or null for no limit)")
        return problems
