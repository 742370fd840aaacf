"""Live MiniWoB++ episodes played by a policy through the agent loop.

    rows = run_miniwob(cfg, policies, journal)     # one row per (run, task, seed)

Each worker owns a browser (``BrowserSlot``). An episode loads the task page, starts it under
its seed (``pipeline.live.miniwob``), and runs ``play_episode``: every step captures the page,
distils it, lets the policy query and act, executes the action with ``LiveActions`` and checks
whether the task has ended. Success is MiniWoB++'s raw reward >= 1. A crashed browser, a hung
page or an episode over ``episode_timeout_s`` fails that episode with its reason (the browser is
replaced; the steps that ended before it keep their figures and trajectory) and the run goes
on; a policy's odd output fails only its own step. Finished episodes
are journaled, so a killed run resumes without playing them again.

Episodes come from two groups: ``trained`` (the held-out seeds ``first_seed..`` of the tasks
training saw) and ``heldout_task`` (``miniwob.heldout_tasks``, which no training run saw).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from eval.baselines import LiveOracle
from eval.config import EvalConfig
from eval.journal import Journal
from eval.policies import PolicyFactory
from pipeline.agent.conversation import opening
from pipeline.agent.history import history_line
from pipeline.agent.loop import EpisodeRecord, play_episode
from pipeline.agent.miniwob_env import LiveSettings, MiniwobEnvironment, open_episode
from pipeline.agent.modes import Mode
from pipeline.agent.observe import observation_tokens
from pipeline.errors import CaptureError
from pipeline.live.actions import LiveActions
from pipeline.live.miniwob import episode_result, serve_miniwob
from pipeline.live.slot import BrowserSlot


@dataclass(frozen=True, slots=True)
class EpisodePlan:
    run: str  # "<policy>/<mode>"
    policy: str
    mode: Mode
    task: str
    seed: int
    group: str  # "trained" or "heldout_task"

    @property
    def key(self) -> str:
        return f"{self.run}|{self.task}|{self.seed}"


def live_settings(cfg: EvalConfig) -> LiveSettings:
    m = cfg.miniwob
    return LiveSettings(cfg.browser, m.episode_max_time_ms, m.disable_animations,
                        m.after_action_ms)


def plan_episodes(cfg: EvalConfig, tasks: list[str]) -> list[EpisodePlan]:
    """Every run x task x seed, runs in config order, tasks then seeds within a run; a run
    named in ``miniwob.seeds_per_run`` plays its own number of seeds."""
    heldout = set(cfg.miniwob.heldout_tasks)
    out = []
    for policy, mode in cfg.runs():
        count = cfg.miniwob.seeds_per_run.get(f"{policy}/{mode}", cfg.miniwob.seeds_per_task)
        seeds = range(cfg.miniwob.first_seed, cfg.miniwob.first_seed + count)
        run = [EpisodePlan(f"{policy}/{mode}", policy, mode, task, seed,
                           "heldout_task" if task in heldout else "trained")
               for task in tasks for seed in seeds]
        out += run[: cfg.limit] if cfg.limit else run
    return out


async def run_miniwob(cfg: EvalConfig, plans: list[EpisodePlan], policies: PolicyFactory,
                      journal: Journal, on_done: Callable[[dict[str, Any]], None]) -> None:
    """Play the plans not yet in the journal, ``cfg.workers`` at a time."""
    done = journal.keys()
    queue: asyncio.Queue[EpisodePlan] = asyncio.Queue()
    for plan in plans:
        if plan.key not in done:
            queue.put_nowait(plan)
    with serve_miniwob() as base_url:
        workers = [_worker(cfg, base_url, queue, policies, journal, on_done)
                   for _ in range(min(cfg.workers, max(1, queue.qsize())))]
        await asyncio.gather(*workers)


async def _worker(cfg: EvalConfig, base_url: str, queue: asyncio.Queue, policies: PolicyFactory,
                  journal: Journal, on_done: Callable[[dict[str, Any]], None]) -> None:
    if queue.empty():
        return
    async with BrowserSlot(cfg.browser) as slot:
        while not queue.empty():
            plan = queue.get_nowait()
            row = await _attempt(cfg, slot, base_url, plan, policies)
            journal.append(row)
            on_done(row)


async def _attempt(cfg: EvalConfig, slot: BrowserSlot, base_url: str, plan: EpisodePlan,
                   policies: PolicyFactory) -> dict[str, Any]:
    from playwright.async_api import Error as PlaywrightError

    started = time.perf_counter()
    played = EpisodeRecord(plan.task, plan.mode)  # filled as it plays, kept if time runs out
    try:
        policy = policies.get(plan.policy)
        return await asyncio.wait_for(_episode(cfg, slot.page, base_url, plan, policy, played),
                                      cfg.episode_timeout_s)
    except (TimeoutError, PlaywrightError, CaptureError) as exc:
        await slot.recover()
        reason = "timeout" if isinstance(exc, TimeoutError) else "browser"
        return failed_row(plan, f"{reason}: {_first_line(exc)}", started, played)


async def _episode(cfg: EvalConfig, page: Any, base_url: str, plan: EpisodePlan,
                   policy: Any, played: EpisodeRecord) -> dict[str, Any]:
    """One episode; each step that ends is also added to ``played``."""
    started = time.perf_counter()
    episode = await open_episode(page, base_url, plan.task, plan.seed, live_settings(cfg))
    actions = LiveActions(page)
    env = MiniwobEnvironment(page, actions, cfg.browser, cfg.miniwob.after_action_ms)
    gold = LiveOracle(page, episode, actions) if plan.policy == "oracle" else None
    limits = cfg.step_limits()
    try:
        record = await play_episode(policy, env, episode.utterance, plan.mode, limits,
                                    history_line, opening, gold, record=played)
    finally:
        if gold is not None:
            await gold.close()
        await actions.close()
    result = await episode_result(page)
    return episode_row(plan, record, result, time.perf_counter() - started)


def episode_row(plan: EpisodePlan, record: EpisodeRecord, result: Any,
                seconds: float) -> dict[str, Any]:
    return {
        "key": plan.key, "run": plan.run, "policy": plan.policy, "mode": plan.mode,
        "task": plan.task, "seed": plan.seed, "group": plan.group,
        "success": bool(result.success), "reward": result.reward,
        "raw_reward": result.raw_reward, "reason": result.reason, "stop": record.stop,
        **step_figures(record), "seconds": round(seconds, 3),
        "finished_at": round(time.time(), 3), "error": "", "trajectory": record.to_dict(),
    }


def step_figures(record: EpisodeRecord) -> dict[str, Any]:
    """Counts and per-step token figures of the steps an episode played."""
    steps = record.steps
    return {
        "steps": len(steps), "tool_calls": sum(s.queries for s in steps),
        "turns": sum(len(s.turns) for s in steps),
        "valid_calls": sum(s.valid_calls for s in steps),
        "rejected": sum(s.rejected for s in steps),
        "prompt_tokens": sum(s.prompt_tokens for s in steps),
        "completion_tokens": sum(s.completion_tokens for s in steps),
        "observation_tokens": [observation_tokens(s.messages) for s in steps],
        "step_prompt_tokens": [s.prompt_tokens for s in steps],
        "step_completion_tokens": [s.completion_tokens for s in steps],
        "step_tool_calls": [s.queries for s in steps],
    }


def failed_row(plan: EpisodePlan, error: str, started: float,
               played: EpisodeRecord | None = None) -> dict[str, Any]:
    """A failed episode's row; the steps it ``played`` before the failure, the interrupted one
    as far as it got, keep their figures and trajectory (a timed-out episode shows what it
    spent its time on)."""
    played = played or EpisodeRecord(plan.task, plan.mode)
    played.interrupt("error")
    return {"key": plan.key, "run": plan.run, "policy": plan.policy, "mode": plan.mode,
            "task": plan.task, "seed": plan.seed, "group": plan.group, "success": False,
            "reward": 0.0, "raw_reward": 0.0, "reason": None, "stop": "error",
            **step_figures(played), "seconds": round(time.perf_counter() - started, 3),
            "finished_at": round(time.time(), 3), "error": error,
            "trajectory": played.to_dict() if played.steps else None}


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__
