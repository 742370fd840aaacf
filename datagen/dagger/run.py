"""``python -m datagen dagger``: on-policy data, the student's states labelled by the oracle.

    manifest = run_dagger(load_config(DaggerConfig, "configs/datagen/dagger.yaml",
                                      ["checkpoint=outputs/demo/train"], section="dagger"))

For every task x seed of the plan (seed-major, as ``datagen record``), the student (the
checkpoint, loaded as eval loads it) plays one episode (``datagen.dagger.episode``) and its
labelled steps become one Mind2Web task (``dump.dagger_task``) in
``<output_dir>/<split>/dagger_<k>.json``, the files ``datagen build`` reads, beside the recorder's.
The run is resumable like the recorder's: the same shard writer and ``record_log.jsonl`` (each
line's ``detail`` holds the episode's stop, success, who acted and how often the student agreed),
so a killed run skips what it wrote and plays crashed episodes again. ``dagger_manifest.json``
sums up every run into the folder.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from datagen.dagger.config import DaggerConfig
from datagen.dagger.episode import DaggerRun, DaggerSettings, play_dagger_episode
from datagen.miniwob.dump import dagger_task
from datagen.miniwob.manifest import LOG_NAME, Attempt, append_log, read_log, settled_ids, summarize
from datagen.miniwob.recorder import guarded, plan
from datagen.miniwob.shards import ShardWriter
from pipeline.agent.loop import StepLimits
from pipeline.agent.miniwob_env import LiveSettings
from pipeline.agent.policy import Policy
from pipeline.config import config_to_dict
from pipeline.errors import PagescoutError
from pipeline.live.miniwob import serve_miniwob
from pipeline.live.slot import BrowserSlot

MANIFEST_NAME = "dagger_manifest.json"
PREFIX = "dagger"


def annotation_id(task: str, seed: int) -> str:
    return f"miniwob-dagger-{task}-s{seed}"


def load_student(config: DaggerConfig) -> Policy:
    """The checkpoint as eval's ``checkpoint`` policy loads it."""
    from pipeline.agent.model_policy import load_model_policy
    from pipeline.model.trained import trained_folder

    if trained_folder(config.checkpoint) is None:
        raise PagescoutError(f"checkpoint: {config.checkpoint} holds no trained model (no "
                             "adapter/, adapter_config.json or merged folder with functional "
                             "tokens); train one with python -m training, or pass checkpoint=RUN")
    return load_model_policy(config.checkpoint, config.generation, config.dtype)


def run_dagger(config: DaggerConfig, student: Policy | None = None) -> dict[str, Any]:
    """Play and label the plan's episodes not done yet; returns the manifest. ``student``
    defaults to ``load_student(config)`` (loaded only when there is something to play)."""
    return asyncio.run(_dagger(config, student))


async def _dagger(config: DaggerConfig, student: Policy | None) -> dict[str, Any]:
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / LOG_NAME
    settings = DaggerSettings(
        LiveSettings(config.browser, config.episode_max_time_ms, config.disable_animations,
                     config.after_action_ms),
        config.mode, StepLimits(config.max_tool_calls, True, config.max_steps),
        config.target_wait_ms, config.episode_budget_s)
    run: list[Attempt] = []
    started = time.perf_counter()
    shards_dir = out / config.split
    with ShardWriter(shards_dir, config.tasks_per_file, PREFIX) as shards, \
            serve_miniwob() as base:
        done = shards.ids | settled_ids(read_log(log_path))
        todo = [(t, s) for t, s in plan(config) if annotation_id(t, s) not in done]
        bar = tqdm(total=len(todo), desc="dagger episodes", unit="ep")

        def done_one(attempt: Attempt, record: dict[str, Any] | None) -> None:
            if record is not None:
                shards.add(record)
            append_log(log_path, attempt)
            run.append(attempt)
            bar.update()
            bar.set_postfix(steps=sum(a.steps for a in run),
                            solved=sum(bool(a.detail.get("success")) for a in run))

        async def play(pairs: list[tuple[str, int]]) -> dict[str, str]:
            nonlocal student
            if pairs and student is None:
                student = load_student(config)
            queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
            for item in pairs:
                queue.put_nowait(item)
            workers = min(config.workers, max(1, len(pairs)))
            found = await asyncio.gather(*(_worker(queue, base, student, settings, config,
                                                   done_one) for _ in range(workers)))
            return found[0]

        versions = await play(todo)
        more = [(t, s) for t, s in followup_plan(config, read_log(log_path))
                if annotation_id(t, s) not in done]
        if more:
            bar.total += len(more)
            bar.refresh()
            versions = await play(more)
        bar.close()
        files = [str(p) for p in shards.files]
    attempts = read_log(log_path)
    manifest = summarize(attempts, run, time.perf_counter() - started, {
        "command": "python -m datagen dagger", "config": config_to_dict(config),
        "versions": versions, "files": files,
        "plan": {"tasks": len(config.task_names()), "seeds_per_task": config.seeds_per_task,
                 "episodes": len(plan(config)), "skipped_done": len(plan(config)) - len(todo),
                 "seeds_on_failure": config.seeds_on_failure,
                 "more_seeds_for": sorted({t for t, _ in followup_plan(config, attempts)})},
        "dagger": dagger_stats(attempts),
    })
    (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def followup_plan(config: DaggerConfig, attempts: list[Attempt]) -> list[tuple[str, int]]:
    """The ``seeds_on_failure`` seeds after the plan's (seed-major) of every task whose student
    failed on one of the plan's seeds at least (an episode not played yet or crashed says
    nothing)."""
    planned = set(plan(config))
    failed = {a.task for a in attempts
              if (a.task, a.seed) in planned and a.detail and not a.detail["success"]}
    first = config.seed + config.seeds_per_task
    return [(task, seed) for seed in range(first, first + config.seeds_on_failure)
            for task in config.task_names() if task in failed]


async def _worker(queue: asyncio.Queue, base: str, student: Policy, settings: DaggerSettings,
                  config: DaggerConfig,
                  done_one: Callable[[Attempt, dict[str, Any] | None], None]) -> dict[str, str]:
    """Play queued episodes in a browser of its own until the queue is empty; returns the
    browser's versions for the manifest."""
    async with BrowserSlot(config.browser) as browser:
        versions = await browser.versions()
        while not queue.empty():
            task, seed = queue.get_nowait()
            done_one(*await _attempt(browser, base, task, seed, student, settings, config))
    return versions


async def _attempt(browser: BrowserSlot, base: str, task: str, seed: int, student: Policy,
                   settings: DaggerSettings, config: DaggerConfig
                   ) -> tuple[Attempt, dict[str, Any] | None]:
    """Play one episode; (log line, task record or None when no state was labelled)."""
    uid, started = annotation_id(task, seed), time.perf_counter()

    def attempt(status: str, reason: str = "", played: DaggerRun | None = None) -> Attempt:
        detail = {} if played is None else episode_detail(played)
        return Attempt(uid, task, seed, status, reason, len(played.steps) if played else 0,
                       round(time.perf_counter() - started, 3), detail)

    played, status, reason = await guarded(
        browser, play_dagger_episode(browser.page, base, task, seed, student, settings),
        config.episode_timeout_s)
    if played is None:
        return attempt(status, reason), None
    if not played.steps:
        return attempt("failed", played.stop, played), None
    record = dagger_task(played.episode, played.steps, config.max_negatives)
    return attempt("written", "", played), record


def episode_detail(played: DaggerRun) -> dict[str, Any]:
    """What the log keeps of an episode besides its status: stop, success, who acted."""
    steps = played.steps
    return {"stop": played.stop, "success": bool(played.result and played.result.success),
            "student_acted": sum(s.by == "student" for s in steps),
            "agreed": sum(s.agreed for s in steps)}


def dagger_stats(attempts: list[Attempt]) -> dict[str, Any]:
    """Labelled steps per episode, the share where the student's act differed from the
    oracle's (or the student had none), and how often the student finished the task."""
    last = {a.annotation_id: a for a in attempts if a.status != "crashed"}
    episodes = [a for a in last.values() if a.detail]
    steps = sum(a.steps for a in episodes)
    agreed = sum(a.detail["agreed"] for a in episodes)
    return {
        "episodes": len(episodes),
        "labelled_steps": steps,
        "steps_per_episode": round(steps / len(episodes), 3) if episodes else 0.0,
        "student_acted": sum(a.detail["student_acted"] for a in episodes),
        "differed_share": round(1 - agreed / steps, 4) if steps else 0.0,
        # finished with raw reward 1, the oracle's acts standing in where the student had none
        "success_with_fallback": round(sum(a.detail["success"] for a in episodes)
                                 / len(episodes), 4) if episodes else 0.0,
    }
