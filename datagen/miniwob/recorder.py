"""``python -m datagen record``: MiniWoB++ episodes played by oracle policies, written as
Mind2Web task files.

    summary = run_record(load_config(RecordConfig, "configs/datagen/miniwob.yaml",
                                     section="record"))

For every task x seed of the plan (seed-major: seed 0 of every task, then seed 1 ...), one
Chromium page serves the seeded episode (``episode.run_episode``); a successful one (raw reward 1)
becomes a Mind2Web task (``dump.episode_task``) in ``<output_dir>/<split>/miniwob_<k>.json``
(``shards.ShardWriter``). Failed episodes are logged with their reason, not written. A browser
error or timeout loses that episode only: the page (or, if that fails, the browser) is replaced
and the run goes on. A killed run resumes: written and failed episodes are skipped, crashed ones
are tried again. The manifest ``record_manifest.json`` sums up every run into the folder.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from datagen.miniwob.config import RecordConfig
from datagen.miniwob.dump import annotation_id, episode_task
from datagen.miniwob.episode import EpisodeSettings, run_episode
from datagen.miniwob.manifest import (
    LOG_NAME,
    MANIFEST_NAME,
    Attempt,
    append_log,
    read_log,
    settled_ids,
    summarize,
)
from datagen.miniwob.shards import ShardWriter
from pipeline.config import config_to_dict
from pipeline.errors import CaptureError
from pipeline.live.miniwob import serve_miniwob
from pipeline.live.slot import BrowserSlot


def plan(config: RecordConfig) -> list[tuple[str, int]]:
    """(task, seed) pairs, seed-major, cut to ``limit``."""
    seeds = range(config.seed, config.seed + config.seeds_per_task)
    pairs = [(task, seed) for seed in seeds for task in config.task_names()]
    return pairs[: config.limit] if config.limit is not None else pairs


def run_record(config: RecordConfig) -> dict[str, Any]:
    """Record the plan's episodes that are not done yet; returns the manifest."""
    return asyncio.run(_record(config))


async def _record(config: RecordConfig) -> dict[str, Any]:
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / LOG_NAME
    settings = EpisodeSettings(config.browser, config.episode_max_time_ms, config.max_steps,
                               config.target_wait_ms, config.disable_animations)
    run: list[Attempt] = []
    started = time.perf_counter()
    versions: dict[str, str] = {}
    with ShardWriter(out / config.split, config.tasks_per_file) as shards, serve_miniwob() as base:
        done = shards.ids | settled_ids(read_log(log_path))
        todo = [(t, s) for t, s in plan(config) if annotation_id(t, s) not in done]
        if config.skipped_heldout():
            print(f"held out of training split {config.split!r}, not recorded: "
                  f"{', '.join(config.skipped_heldout())} (datagen/miniwob/heldout.py)")
        async with BrowserSlot(config.browser) as browser:
            versions = await browser.versions()
            bar = tqdm(todo, desc="episodes", unit="ep", disable=not todo)
            for task, seed in bar:
                attempt, record = await _attempt(browser, base, task, seed, settings, config)
                if record is not None:
                    shards.add(record)
                append_log(log_path, attempt)
                run.append(attempt)
                bar.set_postfix(written=sum(a.status == "written" for a in run),
                                failed=sum(a.status != "written" for a in run))
        files = [str(p) for p in shards.files]
    manifest = summarize(read_log(log_path), run, time.perf_counter() - started, {
        "command": "python -m datagen record", "config": config_to_dict(config),
        "versions": versions, "files": files,
        "plan": {"tasks": len(config.task_names()), "seeds_per_task": config.seeds_per_task,
                 "episodes": len(plan(config)), "skipped_done": len(plan(config)) - len(todo),
                 "skipped_heldout": config.skipped_heldout()},
    })
    (out / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


async def _attempt(browser: BrowserSlot, base: str, task: str, seed: int,
                   settings: EpisodeSettings, config: RecordConfig
                   ) -> tuple[Attempt, dict[str, Any] | None]:
    """Play one episode; (log line, task record or None)."""
    uid, started = annotation_id(task, seed), time.perf_counter()

    def attempt(status: str, reason: str = "", steps: int = 0) -> Attempt:
        return Attempt(uid, task, seed, status, reason, steps,
                       round(time.perf_counter() - started, 3))

    run, status, reason = await guarded(
        browser, run_episode(browser.page, base, task, seed, settings), config.episode_timeout_s)
    if run is None:
        return attempt(status, reason), None
    if not run.success:
        return attempt("failed", run.failure, len(run.steps)), None
    record = episode_task(run, config.max_negatives)
    return attempt("written", "", len(run.steps)), record


async def guarded(browser: BrowserSlot, play: Awaitable[Any], timeout_s: float
                  ) -> tuple[Any, str, str]:
    """Await one episode within ``timeout_s``: (its value, "", "") or (None, status, reason):
    ``crashed`` on a browser error or timeout (the browser is replaced, a resumed run tries the
    episode again), ``failed`` on anything else it raised (a policy bug loses its episode,
    never the run)."""
    from playwright.async_api import Error as PlaywrightError

    try:
        return await asyncio.wait_for(play, timeout_s), "", ""
    except (TimeoutError, PlaywrightError, CaptureError) as exc:
        await browser.recover()
        return None, "crashed", f"browser: {first_line(exc)}"
    except Exception as exc:  # noqa: BLE001 - a policy bug loses its episode, never the run
        return None, "failed", f"error: {type(exc).__name__}: {first_line(exc)}"


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__
