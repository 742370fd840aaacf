"""``python -m datagen record`` end to end in real Chromium: task files and manifest, failed
episodes not written, a crashed page losing only its episode, resume after an interruption."""

from __future__ import annotations

import asyncio
import json

import pytest

from datagen import cli
from datagen.miniwob import RecordConfig, recorder, run_record
from datagen.miniwob.policies import POLICIES
from datagen.miniwob.policies.base import click, css
from datagen.miniwob.policies.click import click_button

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def chromium():
    from tests.conftest import require_chromium

    require_chromium()


def config(out, tasks, **overrides) -> RecordConfig:
    values = {"output_dir": str(out), "tasks": tasks, "seeds_per_task": 2, "tasks_per_file": 2,
              "episode_timeout_s": 15.0, **overrides}
    return RecordConfig(**values)


async def clicks_the_wrong_button(page, episode):
    yield click(css("#subbtn2"))


async def crashes_on_seed_0(page, episode):
    if episode.seed == 0:
        cdp = await page.context.new_cdp_session(page)
        crash = asyncio.ensure_future(cdp.send("Page.crash"))  # never answers
        await asyncio.sleep(0.3)
        crash.cancel()
        await page.evaluate("1")  # raises: the page crashed
    async for act in click_button(page, episode):
        yield act


def shard_tasks(out) -> list[dict]:
    return [t for path in sorted((out / "train").glob("miniwob_*.json"))
            for t in json.loads(path.read_text())]


def test_failed_and_crashed_episodes_are_not_written(tmp_path, monkeypatch):
    monkeypatch.setitem(POLICIES, "click-test-2", clicks_the_wrong_button)
    monkeypatch.setitem(POLICIES, "click-button", crashes_on_seed_0)
    manifest = run_record(config(tmp_path, ["click-test-2", "click-button", "login-user"]))
    written = [t["annotation_id"] for t in shard_tasks(tmp_path)]
    assert written == ["miniwob-login-user-s0", "miniwob-click-button-s1", "miniwob-login-user-s1"]
    assert manifest["episodes"] == {"attempted": 6, "written": 3, "failed": 2, "crashed": 1}
    assert manifest["failure_reasons"] == {"reward": 2, "browser": 1}
    assert manifest["tasks"]["click-test-2"]["success_rate"] == 0
    assert manifest["tasks"]["login-user"] == {
        "attempted": 2, "written": 2, "failed": 0, "crashed": 0, "steps": 6, "seeds": [0, 1],
        "success_rate": 1.0}
    assert manifest["this_run"]["steps_per_s"] > 0 and manifest["versions"]["chromium"]
    saved = json.loads((tmp_path / "record_manifest.json").read_text())
    assert saved["episodes"] == manifest["episodes"] and saved["files"] == manifest["files"]
    assert not list((tmp_path / "train").glob("*.partial.jsonl"))


def test_resume_after_an_interruption_gives_the_same_files(tmp_path, monkeypatch):
    tasks = ["click-button-sequence", "enter-text", "click-checkboxes"]
    whole = run_record(config(tmp_path / "whole", tasks))
    assert whole["episodes"]["written"] == 6

    real, calls = recorder.run_episode, []

    async def killed_at_the_fourth(*args):
        calls.append(args)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return await real(*args)

    monkeypatch.setattr(recorder, "run_episode", killed_at_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        run_record(config(tmp_path / "resumed", tasks))
    assert list((tmp_path / "resumed" / "train").glob("*.partial.jsonl"))
    monkeypatch.setattr(recorder, "run_episode", real)
    resumed = run_record(config(tmp_path / "resumed", tasks))
    assert resumed["plan"]["skipped_done"] == 3 and resumed["this_run"]["episodes"] == 3
    for name in ("miniwob_0.json", "miniwob_1.json", "miniwob_2.json"):
        assert (tmp_path / "resumed" / "train" / name).read_bytes() == \
            (tmp_path / "whole" / "train" / name).read_bytes()
    again = run_record(config(tmp_path / "resumed", tasks))  # nothing left to do
    assert again["this_run"]["episodes"] == 0 and len(shard_tasks(tmp_path / "resumed")) == 6


def test_cli_records_with_shared_flags(tmp_path, capsys):
    yaml = tmp_path / "miniwob.yaml"
    yaml.write_text("record:\n  tasks: [click-button]\n  seeds_per_task: 3\nbuild:\n  other: 1\n")
    assert cli.main(["record", "--config", str(yaml), "--output-dir", str(tmp_path / "out"),
                     "--seed", "7", "--limit", "2"]) == 0
    assert [t["annotation_id"] for t in shard_tasks(tmp_path / "out")] == [
        "miniwob-click-button-s7", "miniwob-click-button-s8"]
    assert "recorded 2 of 2 episodes" in capsys.readouterr().err


def test_cli_names_every_bad_key(tmp_path, capsys):
    yaml = tmp_path / "miniwob.yaml"
    yaml.write_text("record:\n  tasks: [drag-box]\n  seeds_per_tasks: 3\n")
    assert cli.main(["record", "--config", str(yaml)]) == 2
    err = capsys.readouterr().err
    assert "seeds_per_tasks" in err and "did you mean" in err
