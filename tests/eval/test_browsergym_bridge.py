"""BrowserGym's MiniWoB benchmark: the 625 leaderboard episodes reproduced without BrowserGym,
the page seeds training must avoid, the harness's task filter and resume; then, when the
BrowserGym venv exists (``bash scripts/setup_browsergym.sh``), the real bridge in a real Chromium:
its episode list checked against browsergym-experiments, a reset driven over CDP by our
Playwright and validated by the task, a restart, and the harness playing oracle episodes."""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
import yaml

from datagen.miniwob.config import RecordConfig
from eval.browsergym.benchmark import (
    SEED_MAX,
    TASKS,
    BenchmarkEpisode,
    benchmark_episodes,
    benchmark_seeds,
    leaderboard_rows,
    page_seeds,
    training_conflicts,
)
from eval.browsergym_harness import pending, planned_rows, rounds_first, selected
from eval.config import load_eval_config
from eval.journal import Journal
from eval.miniwob_harness import EpisodePlan
from pipeline.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]


# --- the benchmark, no BrowserGym needed ------------------------------------------------------
def test_the_benchmark_is_125_tasks_by_5_seeds_drawn_like_browsergym_experiments():
    episodes = benchmark_episodes()
    assert len(episodes) == 625 and len(TASKS) == len(set(TASKS)) == 125
    assert list(TASKS) == sorted(TASKS)  # metadata/miniwob.csv lists them alphabetically
    assert Counter(e.task for e in episodes) == dict.fromkeys(TASKS, 5)
    assert SEED_MAX == 34 and all(0 <= e.seed < 34 for e in episodes)
    # np.random.RandomState(42), one draw of 5 per task in file order (browsergym-experiments
    # 0.14.3, checked against its DEFAULT_BENCHMARKS["miniwob"] when the venv is present)
    assert [e.seed for e in episodes[:10]] == [28, 14, 7, 20, 18, 22, 10, 10, 23, 23]
    assert episodes[-1] == BenchmarkEpisode("visual-addition", episodes[-1].seed)
    assert len({(e.task, e.seed) for e in episodes}) == 590  # 35 repeats within a task
    assert benchmark_seeds()["click-button"] == [13, 15, 17, 20, 22]


def test_page_seeds_are_what_the_task_hands_math_seedrandom():
    assert BenchmarkEpisode("click-button", 13).page_seed == 491858
    reserved = page_seeds()
    assert set(reserved) == set(TASKS)
    assert reserved["click-button"] == [491858, 794056, 879066, 895861, 993903]
    assert all(10_000 < s < 1_000_000 for seeds in reserved.values() for s in seeds)


def test_training_seeds_can_be_checked_against_the_benchmark():
    click = page_seeds()["click-button"][0]
    assert training_conflicts([("click-button", click), ("click-button", 3),
                               ("enter-text", click)]) == [("click-button", click)]
    # the recorder's configured plan and the MiniWoB++ eval's seeds touch no benchmark page
    record = RecordConfig(**{k: v for k, v in yaml.safe_load(
        (ROOT / "configs/datagen/miniwob.yaml").read_text())["record"].items() if k != "browser"})
    plan = [(t, s) for t in record.task_names()
            for s in range(record.seed, record.seed + record.seeds_per_task)]
    assert plan and training_conflicts(plan) == []
    miniwob = load_eval_config(str(ROOT / "configs/eval/miniwob.yaml"), []).miniwob
    seeds = range(miniwob.first_seed, miniwob.first_seed + miniwob.seeds_per_task)
    assert training_conflicts([(t, s) for t in TASKS for s in seeds]) == []


def test_leaderboard_rows_have_the_reports_keys():
    rows = leaderboard_rows()
    assert rows and all(set(r) == {"agent", "success", "n"} and r["n"] == 625 for r in rows)


def test_tasks_filter_and_resume_count_repeated_pairs():
    episodes = benchmark_episodes()
    assert selected(episodes, None) == episodes
    assert {e.task for e in selected(episodes, ["click-button"])} == {"click-button"}
    assert selected(episodes, "click-button") == selected(episodes, ["click-button"])
    scripted = {e.task for e in selected(episodes, "scripted")}
    assert "click-button" in scripted and "draw-circle" not in scripted
    bisect = [e for e in episodes if e.task == "bisect-angle"]  # seeds 22, 10, 10, 23, 23
    plans = [EpisodePlan("random/query_only", "random", "query_only", e.task, e.seed, "unseen")
             for e in bisect]
    journal = _FakeJournal([plans[1].key, plans[0].key])  # one of the two (bisect-angle, 10)
    assert [p.seed for p in pending(plans, journal)] == [10, 23, 23]


def test_episodes_are_played_in_rounds_over_tasks_and_runs():
    episodes = selected(benchmark_episodes(), ["click-button", "bisect-angle"])
    plans = [EpisodePlan(f"{policy}/query_only", policy, "query_only", e.task, e.seed, "x")
             for policy in ("random", "oracle") for e in episodes]
    ordered = rounds_first(plans)
    assert sorted(p.key for p in ordered) == sorted(p.key for p in plans)
    first = [(p.policy, p.task) for p in ordered[:4]]
    assert first == [("random", "bisect-angle"), ("oracle", "bisect-angle"),
                     ("random", "click-button"), ("oracle", "click-button")]
    bisect = [p.seed for p in ordered if p.task == "bisect-angle" and p.policy == "random"]
    assert bisect == [e.seed for e in episodes if e.task == "bisect-angle"]  # repeats kept


def test_results_count_the_planned_rows_only():
    bisect = [e for e in benchmark_episodes() if e.task == "bisect-angle"]  # 22, 10, 10, 23, 23
    plans = [EpisodePlan("random/query_only", "random", "query_only", e.task, e.seed, "unseen")
             for e in bisect]
    keys = [p.key for p in plans]  # all five played, then a second round's first began
    journal = _FakeJournal([*keys, keys[0], "oracle/query_only|bisect-angle|22"])
    assert [r["key"] for r in planned_rows(plans[:3], journal)] == keys[:3]
    assert len(planned_rows(plans, journal)) == 5


def test_config_names_unknown_browsergym_tasks():
    cfg = load_eval_config(str(ROOT / "configs/eval/browsergym.yaml"),
                           ["browsergym.tasks=scripted"])
    assert cfg.benchmark == "browsergym" and cfg.browsergym.tasks == "scripted"
    with pytest.raises(FormatError, match=r"browsergym.tasks: \['click-buton'\]"):
        load_eval_config(None, ["benchmark=browsergym", "browsergym.tasks=[click-buton]"])


class _FakeJournal(Journal):
    def __init__(self, keys: list[str]) -> None:
        self._keys = keys

    def rows(self):
        return iter({"key": k} for k in self._keys)


# --- the real bridge ----------------------------------------------------------------------------
@pytest.fixture
def bridge_ready():
    from eval.browsergym.bridge import BridgeError, venv_python
    from tests.conftest import require_chromium

    require_chromium()
    try:
        venv_python(None)
    except BridgeError as exc:
        pytest.skip(str(exc))


@pytest.mark.browser
def test_the_bridge_plays_a_browsergym_episode_over_cdp(bridge_ready):
    from playwright.async_api import Page

    from eval.browsergym.bridge import BridgeError, BrowserGymBridge

    async def play():
        async with BrowserGymBridge(None) as bridge:
            assert len(await bridge.benchmark()) == 625  # and equal to BrowserGym's own list
            assert bridge.versions["browsergym-miniwob"] and bridge.versions["playwright"]
            goal, page = await bridge.reset("click-test", 3)
            assert isinstance(page, Page) and page.url.endswith("/miniwob/click-test.html")
            assert goal == "Click the button."
            before = await bridge.validate()
            await page.click("#subbtn")
            after = await bridge.validate()
            os.killpg(bridge.pid, signal.SIGKILL)  # a crash: the server, driver and browsers
            with pytest.raises(BridgeError, match="BrowserGym server"):
                await bridge.validate()
            await bridge.restart()  # a fresh server, then a new episode in it
            goal2, page2 = await bridge.reset("click-button", 13)
            url2 = page2.url
            await bridge.close_episode()
            return before, after, goal2, url2

    before, after, goal2, url2 = asyncio.run(play())
    assert (before.reward, before.terminated) == (0.0, False)
    assert (after.reward, after.terminated, after.truncated) == (1.0, True, False)
    assert "button" in goal2 and url2.endswith("/miniwob/click-button.html")


@pytest.mark.browser
def test_the_harness_plays_oracle_episodes_and_resumes(bridge_ready, tmp_path):
    from eval.run import main

    overrides = [f"output_dir={tmp_path}", "progress=false", "policy=oracle", "workers=2",
                 "browsergym.tasks=[click-button,email-inbox-nl-turk]", "limit=2"]
    cfg = load_eval_config(str(ROOT / "configs/eval/browsergym.yaml"), overrides)
    results = main(cfg)  # two workers, each with its own BrowserGym server
    rows = list(Journal(tmp_path / "episodes.jsonl").rows())
    # limit=2: one round of the two tasks; the email task's policy reads the utterance's fields
    first = {task: next(e.seed for e in benchmark_episodes() if e.task == task)
             for task in ("click-button", "email-inbox-nl-turk")}
    assert sorted((r["task"], r["seed"]) for r in rows) == sorted(first.items())
    assert all(r["success"] and r["error"] == "" and r["group"] == "trained" for r in rows)
    assert all(r["reward"] == 1.0 and r["raw_reward"] > 0 for r in rows)  # raw: MiniWoB's own
    run = results["runs"]["oracle/query_only"]
    assert run["aggregate"]["episodes"] == 2
    assert results["reference_rows"]
    main(cfg)  # resumed: nothing left to play
    assert len(list(Journal(tmp_path / "episodes.jsonl").rows())) == 2
