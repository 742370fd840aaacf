"""Live MiniWoB++ episodes in a real Chromium through the agent loop: the untuned base model
(real model code, batched generation) drives two episodes end to end; a policy that writes
garbage, out-of-range refs and unknown tools fails its episodes with reasons, never raising;
the oracle finishes what it covers, and so does the engine's planner on easy tasks (in the
planned mode, whose user turns list the step's candidates); a killed run resumes without
repeating an episode."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from eval.config import load_eval_config
from eval.journal import Journal
from eval.miniwob_harness import plan_episodes, run_miniwob
from eval.policies import PolicyFactory
from pipeline.agent.policy import Situation, Turn, calls_before, turn_from_text

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def chromium():
    from tests.conftest import require_chromium

    return require_chromium()


def config(out, *extra):
    return load_eval_config(None, ["benchmark=miniwob", f"output_dir={out}", "progress=false",
                                   "workers=1", "miniwob.seeds_per_task=1", *extra])


def play(cfg, policies=None):
    rows = []
    journal = Journal(Path(cfg.output_dir) / "episodes.jsonl")
    plans = plan_episodes(cfg, cfg.miniwob.tasks)
    asyncio.run(run_miniwob(cfg, plans, policies or PolicyFactory(cfg), journal, rows.append))
    return rows


class Garbage:
    """Cycles through output no episode can use."""

    name = "garbage"
    TEXTS = ("lorem ipsum", '<bu_fly>{"to": "moon"}<bu_end>', '<bu_click>{"index": 4242}<bu_end>',
             '<bu_type>{"index": -1, "text": 5}', '{"name": "click"', "<bu_done><bu_end>")

    def __init__(self) -> None:
        self.count = 0

    async def next_turn(self, situation: Situation) -> Turn:
        self.count += 1
        text = self.TEXTS[self.count % len(self.TEXTS)]
        return turn_from_text(text, calls_before(situation.messages))


def test_garbage_output_fails_episodes_with_reasons(tmp_path):
    cfg = config(tmp_path, "policy=checkpoint", "miniwob.tasks=[click-button,enter-text]",
                 "max_steps=3", "max_tool_calls=3")
    policies = PolicyFactory(cfg)
    policies.register("checkpoint", Garbage())
    rows = play(cfg, policies)
    assert [r["task"] for r in rows] == ["click-button", "enter-text"]
    for row in rows:
        assert row["success"] is False and row["error"] == ""
        assert row["stop"] in ("max_steps", "done") and row["rejected"] > 0
        stops = [s["stop"] for s in row["trajectory"]["steps"]]
        assert all(s in ("max_tool_calls", "action") for s in stops), stops
        tool_texts = [m["content"] for s in row["trajectory"]["steps"] for m in s["messages"]
                      if m["role"] == "tool"]
        assert any("unknown tool" in t.lower() or "bu_fly" in t for t in tool_texts)
        assert any("no element [4242]" in t for t in tool_texts)


class ClicksThenHangs:
    """Clicks ref 1 on the first step, then never answers: the episode times out mid-step."""

    name = "hangs"

    async def next_turn(self, situation: Situation) -> Turn:
        if situation.history:
            await asyncio.sleep(3600)
        return turn_from_text('<bu_click>{"index": 1}<bu_end>', calls_before(situation.messages))


def test_a_timed_out_episode_keeps_the_steps_it_played_and_the_one_it_was_in(tmp_path):
    cfg = config(tmp_path, "policy=checkpoint", "miniwob.tasks=[click-checkboxes]",
                 "episode_timeout_s=8")
    policies = PolicyFactory(cfg)
    policies.register("checkpoint", ClicksThenHangs())
    [row] = play(cfg, policies)
    assert row["success"] is False and row["stop"] == "error"
    assert row["error"].startswith("timeout")
    assert row["steps"] == 2 and row["turns"] == 1 and row["valid_calls"] == 1
    first, second = row["trajectory"]["steps"]
    assert first["action"]["name"] == "click" and first["stop"] == "action"
    # the step the time limit cut: its opening (the page after the click), no turn yet
    assert second["stop"] == "error" and second["turns"] == 0
    assert [m["role"] for m in second["messages"]] == ["system", "user"]
    assert "CLICK" in second["messages"][1]["content"]
    assert row["trajectory"]["stop"] == "error" and 7.5 < row["seconds"] < 30


def test_the_oracle_finishes_the_tasks_it_covers(tmp_path):
    cfg = config(tmp_path, "policy=oracle", "miniwob.tasks=[click-button,login-user,"
                 "use-autocomplete,social-media,highlight-text,highlight-text-2,guess-number]")
    rows = play(cfg)
    assert [r["success"] for r in rows] == [True] * 7, [(r["task"], r["stop"]) for r in rows]
    assert all(r["steps"] >= 1 and r["tool_calls"] >= 1 for r in rows)
    guesses = next(r for r in rows if r["task"] == "guess-number")["trajectory"]["history"]
    assert "[key]  Enter -> ENTER" in guesses  # its ENTER is the label's key press, played live


def test_the_planner_finishes_easy_tasks_and_planned_steps_list_their_candidates(tmp_path):
    cfg = config(tmp_path, "policy=planner", "mode=planned",
                 "miniwob.tasks=[click-button,login-user]")
    rows = play(cfg)
    assert [r["success"] for r in rows] == [True, True], [(r["task"], r["stop"]) for r in rows]
    login = next(r for r in rows if r["task"] == "login-user")
    assert login["steps"] == 3 and login["tool_calls"] == 0  # username, password, button; no query
    for step in login["trajectory"]["steps"]:
        assert "Candidates for this step" in step["messages"][1]["content"]


@pytest.mark.slow
def test_the_base_model_drives_two_episodes_end_to_end(base_folder, tmp_path):
    cfg = config(tmp_path, "policy=base", "mode=query_only", "max_steps=2", "max_tool_calls=2",
                 "miniwob.tasks=[click-button,focus-text-2]", "generation.max_new_tokens=48",
                 "generation.batch_size=2", "workers=2")
    policies = PolicyFactory(cfg)
    rows = play(cfg, policies)
    assert sorted(r["task"] for r in rows) == ["click-button", "focus-text-2"]
    for row in rows:
        assert row["error"] == "" and 1 <= row["steps"] <= 2
        assert row["prompt_tokens"] > 500 and row["completion_tokens"] > 0  # real generation
        assert isinstance(row["success"], bool)
        first = row["trajectory"]["steps"][0]["messages"]
        assert first[0]["role"] == "system" and first[2]["role"] == "assistant"
    stats = policies.stats("base")
    assert stats["prompts"] >= 2 and stats["tokens_per_s"] > 0


def test_a_killed_run_resumes_without_repeating_episodes(tmp_path):
    config_file = tmp_path / "eval.yaml"
    config_file.write_text(yaml.safe_dump({
        "benchmark": "miniwob", "output_dir": str(tmp_path / "out"), "policy": "oracle",
        "workers": 1, "progress": False,
        "miniwob": {"tasks": ["click-button", "click-link", "enter-text", "click-tab",
                              "focus-text-2", "click-widget"], "seeds_per_task": 1}}))
    journal = tmp_path / "out" / "episodes.jsonl"
    command = [sys.executable, "-m", "eval", "--config", str(config_file)]
    first = subprocess.Popen(command, cwd=ROOT, start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None:
        if journal.exists() and len(journal.read_text().splitlines()) >= 2:
            break
        time.sleep(0.05)
    assert first.poll() is None, first.stderr.read().decode()[-2000:]
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    before = [json.loads(line)["key"] for line in journal.read_text().splitlines()]
    assert 2 <= len(before) < 6
    second = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                            check=False)
    assert second.returncode == 0, second.stderr[-2000:]
    after = [json.loads(line)["key"] for line in journal.read_text().splitlines()]
    assert len(after) == len(set(after)) == 6 and after[:len(before)] == before
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["runs"]["oracle/query_only"]["aggregate"]["episodes"] == 6
