"""BrowserGym's MiniWoB benchmark (the public leaderboard's protocol) played by our agent.

    await run_browsergym(cfg, policies, journal, extra)

BrowserGym pins Playwright 1.44, so it runs in its own virtualenv behind a JSON-lines bridge
(``eval.browsergym.bridge``): the bridge lists the leaderboard's 625 episodes (125 tasks x 5
seeds, ``max_steps`` 10), resets a task under its seed in a Chromium it starts with a DevTools
port, and validates (``env.step("noop()")``: the task's own reward). Our side connects to that
Chromium over CDP and plays the episode with the project's capture, distillation, query tools
and ``LiveActions`` through ``play_episode``, at most ``max_steps`` actions; after each action
the bridge says whether the task has ended. Success is reward > 0, as on the leaderboard.

Episodes are grouped by what training saw: ``trained`` (a task the recorder played, other
seeds), ``heldout_task`` (recorded but held out of training) and ``unseen`` (never recorded).
The leaderboard's text-only rows are zero-shot agents: compare them with ``unseen`` first.
"""

from __future__ import annotations

import time
from typing import Any

from tqdm import tqdm

from eval.browsergym.benchmark import leaderboard_rows
from eval.browsergym.bridge import BrowserGymBridge
from eval.config import EvalConfig
from eval.journal import Journal
from eval.miniwob_harness import EpisodePlan, MiniwobEnvironment, episode_row, failed_row
from eval.policies import PolicyFactory
from pipeline.agent.conversation import opening
from pipeline.agent.history import history_line
from pipeline.agent.loop import StepLimits, play_episode
from pipeline.live.actions import LiveActions


class BrowserGymEnvironment(MiniwobEnvironment):
    """The episode's page, driven by us; whether it ended is the bridge's to say."""

    def __init__(self, page: Any, actions: LiveActions, cfg: EvalConfig,
                 bridge: BrowserGymBridge) -> None:
        super().__init__(page, actions, cfg)
        self.bridge = bridge
        self.reward = 0.0

    async def finished(self) -> bool:
        validation = await self.bridge.validate()
        self.reward = validation.reward
        return validation.terminated or validation.truncated


def group_of(task: str, trained: set[str], heldout: set[str]) -> str:
    if task in heldout:
        return "heldout_task"
    return "trained" if task in trained else "unseen"


async def run_browsergym(cfg: EvalConfig, policies: PolicyFactory, journal: Journal,
                         extra: dict[str, Any]) -> None:
    from datagen.miniwob.policies import POLICIES

    heldout = set(cfg.miniwob.heldout_tasks)
    trained = set(POLICIES) - heldout
    done = journal.keys()
    async with BrowserGymBridge(cfg.browsergym.venv) as bridge:
        episodes = await bridge.benchmark()
        plans = [EpisodePlan(f"{policy}/{mode}", policy, mode, e.task, e.seed,
                             group_of(e.task, trained, heldout))
                 for policy, mode in cfg.runs() for e in episodes]
        if cfg.limit:
            plans = [p for i, p in enumerate(plans) if i % len(episodes) < cfg.limit]
        todo = [p for p in plans if p.key not in done]
        for plan in tqdm(todo, desc="browsergym", unit="ep", disable=not cfg.progress):
            journal.append(await _attempt(cfg, bridge, plan, policies))
    protocol = (f"BrowserGym MiniWoB: {len(episodes)} leaderboard episodes per run, at most "
                f"{cfg.max_steps} actions each; success = task reward > 0; query calls are not "
                "steps")
    groups = ("groups: trained = tasks in the training data (other seeds); heldout_task = "
              "recorded but held out of training; unseen = never recorded (compare these with "
              "the zero-shot leaderboard rows)")
    extra["notes"] += [protocol, groups]
    extra["reference_rows"] = {"BrowserGym leaderboard (text-only GenericAgent, zero-shot)":
                               leaderboard_rows()}


async def _attempt(cfg: EvalConfig, bridge: BrowserGymBridge, plan: EpisodePlan,
                   policies: PolicyFactory) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        goal, page = await bridge.reset(plan.task, plan.seed)
        actions = LiveActions(page)
        env = BrowserGymEnvironment(page, actions, cfg, bridge)
        limits = StepLimits(cfg.max_tool_calls, True, cfg.max_steps, cfg.max_idle_steps)
        try:
            record = await play_episode(policies.get(plan.policy), env, goal, plan.mode,
                                        limits, history_line, opening)
        finally:
            await actions.close()
        if record.stop != "finished":  # the task had no say yet: ask once more
            await env.finished()
        result = _Result(env.reward)
        return episode_row(plan, record, result, time.perf_counter() - started)
    except Exception as exc:  # noqa: BLE001 -- a crashed bridge or browser fails one episode
        await bridge.restart()
        return failed_row(plan, f"{type(exc).__name__}: {exc}"[:300], started)
    finally:
        await bridge.close_episode()


class _Result:
    """BrowserGym's reward in the shape of a MiniWoB++ EpisodeResult."""

    def __init__(self, reward: float) -> None:
        self.reward = self.raw_reward = reward
        self.reason = None
        self.success = reward > 0
