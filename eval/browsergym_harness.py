"""BrowserGym's MiniWoB benchmark (the public leaderboard's protocol) played by our agent.

    await run_browsergym(cfg, policies, journal, extra)

BrowserGym pins Playwright 1.44, so it runs in its own virtualenv behind a JSON-lines bridge
(``eval.browsergym.bridge``): the bridge lists the leaderboard's 625 episodes (125 tasks x 5
seeds, ``max_steps`` 10), resets a task under its seed in a Chromium it starts with a DevTools
port, and validates (``env.step("noop()")``: the task's own reward). Our side connects to that
Chromium over CDP and plays the episode with the project's capture, distillation, query tools
and ``LiveActions`` through ``play_episode``, at most ``max_steps`` actions; after each action
the bridge says whether the task has ended. Success is reward > 0, as on the leaderboard. The
oracle follows the task's scripted MiniWoB++ policy where there is one (``LiveOracle``); on the
other tasks it has nothing to follow and fails. ``browsergym.tasks`` narrows the 625 episodes to
some tasks (``scripted``: those the oracle covers). 35 episodes repeat a (task, seed) pair of
their task; they are played again, as on the leaderboard, and a resumed run counts them apart.
``workers`` bridges play at once; the episodes go in rounds (``rounds_first``), so a run
stopped part-way has covered every task evenly, and ``limit=N`` keeps the first N rounds' worth
of each run (``limit=125``: one episode of every task).

Episodes are grouped by what training saw: ``trained`` (a task the recorder played, other
seeds), ``heldout_task`` (recorded but held out of training) and ``unseen`` (never recorded).
The leaderboard's text-only rows are zero-shot agents: compare them with ``unseen`` first.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

from tqdm import tqdm

from datagen.miniwob.policies import POLICIES
from eval.baselines import LiveOracle
from eval.browsergym.benchmark import BenchmarkEpisode, leaderboard_rows
from eval.browsergym.bridge import BrowserGymBridge
from eval.config import EvalConfig
from eval.journal import Journal
from eval.miniwob_harness import EpisodePlan, episode_row, failed_row
from eval.policies import PolicyFactory
from pipeline.agent.conversation import opening
from pipeline.agent.history import history_line
from pipeline.agent.loop import EpisodeRecord, play_episode
from pipeline.agent.miniwob_env import MiniwobEnvironment
from pipeline.live.actions import LiveActions
from pipeline.live.miniwob import episode_from

UTTERANCE_JS = "() => (window.core && core.getUtterance) ? core.getUtterance() : null"


class BrowserGymEnvironment(MiniwobEnvironment):
    """The episode's page, driven by us; whether it ended is the bridge's to say."""

    def __init__(self, page: Any, actions: LiveActions, cfg: EvalConfig,
                 bridge: BrowserGymBridge) -> None:
        super().__init__(page, actions, cfg.browser, cfg.miniwob.after_action_ms)
        self.bridge = bridge
        self.reward = 0.0
        self.raw_reward: float | None = None  # MiniWoB's own (BrowserGym's reward is raw > 0)

    async def finished(self) -> bool:
        validation = await self.bridge.validate()
        self.reward, self.raw_reward = validation.reward, validation.raw_reward
        return validation.terminated or validation.truncated


def group_of(task: str, trained: set[str], heldout: set[str]) -> str:
    if task in heldout:
        return "heldout_task"
    return "trained" if task in trained else "unseen"


def selected(episodes: list[BenchmarkEpisode], tasks: str | list[str] | None
             ) -> list[BenchmarkEpisode]:
    """The episodes of ``browsergym.tasks``: null all, ``scripted`` the oracle's, or a list."""
    if tasks is None:
        return episodes
    if tasks == "scripted":
        wanted = set(POLICIES)
    else:
        wanted = {tasks} if isinstance(tasks, str) else set(tasks)
    return [e for e in episodes if e.task in wanted]


def pending(plans: list[EpisodePlan], journal: Journal) -> list[EpisodePlan]:
    """The plans the journal has not played, counting repeated keys (a repeated pair is one
    key) as often as they were played."""
    played = Counter(row["key"] for row in journal.rows() if "key" in row)
    todo = []
    for plan in plans:
        if played[plan.key]:
            played[plan.key] -= 1
        else:
            todo.append(plan)
    return todo


async def run_browsergym(cfg: EvalConfig, policies: PolicyFactory, journal: Journal,
                         extra: dict[str, Any]) -> list[dict[str, Any]]:
    """Play the planned episodes the journal lacks; returns the journal's rows of the plan (a
    ``limit`` leaves out the rounds beyond it, even where a stopped run had begun them)."""
    heldout = set(cfg.miniwob.heldout_tasks)
    trained = set(POLICIES) - heldout
    async with BrowserGymBridge(cfg.browsergym.venv, cfg.browser) as bridge:
        benchmark = await bridge.benchmark()
        versions = ", ".join(f"{k} {v}" for k, v in bridge.versions.items())
        episodes = selected(benchmark, cfg.browsergym.tasks)
        plans = rounds_first([EpisodePlan(f"{policy}/{mode}", policy, mode, e.task, e.seed,
                                          group_of(e.task, trained, heldout))
                              for policy, mode in cfg.runs() for e in episodes])
        if cfg.limit:
            plans = [p for i, p in enumerate(plans) if i // len(cfg.runs()) < cfg.limit]
        todo = pending(plans, journal)
        workers = min(cfg.workers, max(1, len(todo)))
        queue: asyncio.Queue[EpisodePlan] = asyncio.Queue()
        for plan in todo:
            queue.put_nowait(plan)
        with tqdm(total=len(todo), desc="browsergym", unit="ep",
                  disable=not cfg.progress) as bar:
            await asyncio.gather(_worker(cfg, bridge, queue, policies, journal, bar),
                                 *(_extra_worker(cfg, queue, policies, journal, bar)
                                   for _ in range(workers - 1)))
    protocol = (f"BrowserGym MiniWoB: {len(benchmark)} leaderboard episodes per run, at most "
                f"{cfg.max_steps} actions each; success = task reward > 0; query calls are not "
                "steps")
    if len(episodes) < len(benchmark):
        protocol += (f"; this run: the {len(episodes)} episodes of browsergym.tasks="
                     f"{cfg.browsergym.tasks}")
    groups = ("groups: trained = tasks in the training data (other seeds); heldout_task = "
              "recorded but held out of training; unseen = never recorded (compare these with "
              "the zero-shot leaderboard rows)")
    order = (f"played {cfg.workers} at a time, each worker with its own BrowserGym server, in "
             "rounds: every task's first episode (every run's) before any task's second, so a "
             "stopped run covers all tasks evenly")
    resumed = f"{len(plans) - len(todo)} episodes resumed from the journal; {versions}"
    extra["notes"] += [protocol, groups, order, resumed]
    extra["reference_rows"] = {"BrowserGym leaderboard (text-only GenericAgent, zero-shot)":
                               leaderboard_rows()}
    return planned_rows(plans, journal)


def planned_rows(plans: list[EpisodePlan], journal: Journal) -> list[dict[str, Any]]:
    """The journal's rows of ``plans``, a repeated key as often as it is planned."""
    wanted = Counter(plan.key for plan in plans)
    rows = []
    for row in journal.rows():
        if wanted[row.get("key")] > 0:
            wanted[row["key"]] -= 1
            rows.append(row)
    return rows


def rounds_first(plans: list[EpisodePlan]) -> list[EpisodePlan]:
    """The plans reordered in rounds: round r holds the r-th remaining episode of every
    (run, task), in the benchmark's task order, the runs side by side per episode."""
    tasks = {task: i for i, task in enumerate(dict.fromkeys(p.task for p in plans))}
    runs = {run: i for i, run in enumerate(dict.fromkeys(p.run for p in plans))}
    seen: Counter[tuple[str, str]] = Counter()
    keyed = []
    for plan in plans:
        keyed.append(((seen[(plan.run, plan.task)], tasks[plan.task], runs[plan.run]), plan))
        seen[(plan.run, plan.task)] += 1
    keyed.sort(key=lambda item: item[0])
    return [plan for _, plan in keyed]


async def _worker(cfg: EvalConfig, bridge: BrowserGymBridge, queue: asyncio.Queue,
                  policies: PolicyFactory, journal: Journal, bar: tqdm) -> None:
    while not queue.empty():
        plan = queue.get_nowait()
        journal.append(await _attempt(cfg, bridge, plan, policies))
        bar.update()


async def _extra_worker(cfg: EvalConfig, queue: asyncio.Queue, policies: PolicyFactory,
                        journal: Journal, bar: tqdm) -> None:
    """A worker beside the first, with a BrowserGym server of its own."""
    async with BrowserGymBridge(cfg.browsergym.venv, cfg.browser) as bridge:
        await _worker(cfg, bridge, queue, policies, journal, bar)


async def _attempt(cfg: EvalConfig, bridge: BrowserGymBridge, plan: EpisodePlan,
                   policies: PolicyFactory) -> dict[str, Any]:
    started = time.perf_counter()
    played = EpisodeRecord(plan.task, plan.mode)  # filled as it plays, kept if time runs out
    try:
        return await asyncio.wait_for(_episode(cfg, bridge, plan, policies, started, played),
                                      cfg.episode_timeout_s)
    except Exception as exc:  # noqa: BLE001 -- a crashed bridge or browser fails one episode
        await bridge.restart()
        reason = (f"timeout: over episode_timeout_s={cfg.episode_timeout_s}"
                  if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}")
        return failed_row(plan, reason[:300], started, played)
    finally:
        await bridge.close_episode()


async def _episode(cfg: EvalConfig, bridge: BrowserGymBridge, plan: EpisodePlan,
                   policies: PolicyFactory, started: float,
                   played: EpisodeRecord) -> dict[str, Any]:
    """One episode; each step that ends is also added to ``played``."""
    goal, page = await bridge.reset(plan.task, plan.seed)
    actions = LiveActions(page)
    env = BrowserGymEnvironment(page, actions, cfg, bridge)
    gold = None
    if plan.policy == "oracle" and plan.task in POLICIES:  # elsewhere it has nothing to follow
        # the task's own utterance with its fields, as the MiniWoB++ harness gives the oracle:
        # BrowserGym's goal is the text alone, and the natural-language email tasks' policies
        # read who and what from the fields
        utterance = await page.evaluate(UTTERANCE_JS)
        gold = LiveOracle(page, episode_from(plan.task, plan.seed, utterance or goal), actions)
    limits = cfg.step_limits()
    try:
        record = await play_episode(policies.get(plan.policy), env, goal, plan.mode, limits,
                                    history_line, opening, gold, record=played)
    finally:
        if gold is not None:
            await gold.close()
        await actions.close()
    if record.stop != "finished":  # the task had no say yet: ask once more
        await env.finished()
    result = _Result(env.reward, env.raw_reward)
    return episode_row(plan, record, result, time.perf_counter() - started)


class _Result:
    """BrowserGym's reward in the shape of a MiniWoB++ EpisodeResult."""

    def __init__(self, reward: float, raw_reward: float | None) -> None:
        self.reward = reward
        self.raw_reward = reward if raw_reward is None else float(raw_reward)
        self.reason = None
        self.success = reward > 0
