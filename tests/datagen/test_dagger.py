"""``datagen dagger`` with a REAL trained checkpoint as the student, in Chromium: the labelled
episodes land in shards ``datagen build`` verifies and turns into conversations, and a run killed
with SIGKILL resumes without losing or repeating an episode."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from datagen import cli
from datagen.dagger import DaggerConfig, run_dagger
from datagen.dagger.run import followup_plan
from datagen.miniwob.manifest import LOG_NAME, Attempt, read_log
from pipeline.config import load_config
from pipeline.errors import FormatError

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]

TASKS = "[login-user,enter-password]"
# short episodes, short prompts and replies: the test checks the mechanism, not the student
QUICK = [f"tasks={TASKS}", "max_steps=2", "max_tool_calls=1", "generation.max_new_tokens=16",
         "generation.max_length=768", "max_negatives=5"]


def shard_tasks(out: Path) -> list[dict]:
    tasks = []
    for path in sorted((out / "train").glob("dagger_*.json")):
        tasks += json.loads(path.read_text())
    for path in sorted((out / "train").glob("dagger_*.partial.jsonl")):
        tasks += [json.loads(line) for line in path.read_text().splitlines() if line]
    return tasks


def test_dagger_labels_the_students_states_and_build_accepts_them(tiny_checkpoint, tmp_path):
    from tests.conftest import require_chromium

    require_chromium()
    out = tmp_path / "dagger"
    # both tasks take three actions, so two steps fail every episode and each task gets the
    # one seed more that seeds_on_failure gives
    config = load_config(DaggerConfig, None, [f"checkpoint={tiny_checkpoint}",
                                              f"output_dir={out}", "seeds_per_task=2",
                                              "seeds_on_failure=1", *QUICK])
    manifest = run_dagger(config)  # two episodes at a time (workers=2), one student
    assert config.workers == 2
    assert manifest["episodes"]["attempted"] == 6 and manifest["episodes"]["crashed"] == 0
    assert manifest["plan"]["more_seeds_for"] == ["enter-password", "login-user"]
    stats = manifest["dagger"]
    assert 6 <= stats["labelled_steps"] <= 12 and 0 <= stats["differed_share"] <= 1
    tasks = shard_tasks(out)
    assert sorted(t["annotation_id"] for t in tasks) == sorted(
        f"miniwob-dagger-{t}-s{s}" for t in ("login-user", "enter-password")
        for s in (5000, 5001, 5002))
    for task in tasks:
        assert len(task["action_reprs"]) == len(task["actions"])
        first = task["actions"][0]
        assert first["operation"]["op"] == "TYPE"  # both tasks start by typing into a field
        assert first["dagger"]["by"] in ("student", "oracle")
    yaml = tmp_path / "build.yaml"
    yaml.write_text(f"build:\n  input: [{out / 'train'}]\n  source: miniwob\n"
                    "  splits: {by: holdout, test_websites: [], test_task_percent: 0}\n"
                    "  paraphrases: {per_step: 0}\n")  # one record per labelled step
    assert cli.main(["build", "--config", str(yaml), "--output-dir", str(tmp_path / "data")]) == 0
    built = json.loads((tmp_path / "data" / "manifest.json").read_text())
    assert built["accepted"] == stats["labelled_steps"]


def test_a_killed_dagger_run_resumes_without_losing_or_repeating(tiny_checkpoint, tmp_path):
    from tests.conftest import require_chromium

    require_chromium()
    out = tmp_path / "dagger"
    # two browsers at once (the default workers=2), four episodes: the kill lands while at
    # least one of them is mid-episode
    command = [sys.executable, "-m", "datagen", "dagger", f"checkpoint={tiny_checkpoint}",
               f"output_dir={out}", "seeds_per_task=2", *QUICK]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 600
    while len(read_log(out / LOG_NAME)) < 1 and time.monotonic() < deadline:
        assert child.poll() is None, "the run ended before it could be killed"
        time.sleep(0.2)
    os.killpg(child.pid, signal.SIGKILL)  # the run and its Chromium, mid-episode
    child.wait()
    killed = read_log(out / LOG_NAME)
    assert 1 <= len(killed) < 4
    config = load_config(DaggerConfig, None, [f"checkpoint={tiny_checkpoint}",
                                              f"output_dir={out}", "seeds_per_task=2", *QUICK])
    resumed = run_dagger(config)
    assert resumed["plan"]["skipped_done"] == len({a.annotation_id for a in killed
                                                   if a.status != "crashed"})
    ids = [t["annotation_id"] for t in shard_tasks(out)]
    assert len(ids) == len(set(ids)) == resumed["episodes"]["written"]
    assert resumed["episodes"]["attempted"] == 4
    logged = [a.annotation_id for a in read_log(out / LOG_NAME) if a.status != "crashed"]
    assert sorted(logged) == sorted(set(logged))  # no episode played twice


def test_more_seeds_go_to_the_tasks_the_student_failed():
    config = load_config(DaggerConfig, None, ["checkpoint=run", "seeds_per_task=2",
                                              "seeds_on_failure=2", f"tasks={TASKS}"])

    def played(task: str, seed: int, success: bool | None) -> Attempt:
        detail = {} if success is None else {"success": success}
        return Attempt(f"miniwob-dagger-{task}-s{seed}", task, seed,
                       "crashed" if success is None else "written", detail=detail)

    solved = [played("login-user", 5000, True), played("enter-password", 5000, True)]
    assert followup_plan(config, solved) == []
    crash = solved + [played("enter-password", 5001, None)]
    assert followup_plan(config, crash) == []  # a crash says nothing of the student
    failed = solved + [played("enter-password", 5001, False)]
    assert followup_plan(config, failed) == [("enter-password", 5002), ("enter-password", 5003)]
    # a failure on a follow-up seed asks for nothing more
    assert followup_plan(config, [*solved, played("login-user", 5003, False)]) == []


def test_dagger_config_names_its_problems():
    with pytest.raises(FormatError) as caught:
        load_config(DaggerConfig, None, ["seed=9998", "seeds_on_failure=1",
                                         "tasks=[no-such-task]", "mode=flat"])
    text = str(caught.value)
    for key in ("checkpoint:", "seed: 9998..10000", "tasks: no oracle policy for no-such-task",
                "mode: 'flat'"):
        assert key in text
