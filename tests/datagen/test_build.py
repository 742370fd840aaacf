"""``datagen build``: task files -> verified trajectories on disk; resume, parallelism, rejects."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest
from mind2web_reader_helpers import (
    ActionSpec,
    find,
    fixture_page,
    make_task,
    select_task,
    write_tasks,
)

from datagen.build import assign_split, run_build
from datagen.build_config import BuildConfig, SplitConfig
from datagen.records import Operation, Step
from datagen.stats import data_files, dataset_stats
from pipeline.config import load_config
from pipeline.errors import FormatError
from pipeline.model.render import assistant_text


def forms_task(annotation_id: str) -> dict:
    state = fixture_page("forms.html")
    specs = [
        ActionSpec(f"{annotation_id}-u0", find(state, "input", id="login-email"), "TYPE",
                   "ada@example.com"),
        ActionSpec(f"{annotation_id}-u1", find(state, "input", id="remember"), "CLICK"),
        ActionSpec(f"{annotation_id}-u2", find(state, "button", id="login-submit"), "CLICK"),
    ]
    return make_task(annotation_id, "forms.html", specs, "Sign in as ada@example.com and stay "
                     "signed in", website="acme-account", domain="Account", subdomain="Login")


@pytest.fixture(scope="module")
def dump(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dump")
    write_tasks(root / "data/train/train_0.json",
                [forms_task("f1"), select_task("s1"), forms_task("f2")])
    write_tasks(root / "data/test_task/test_0.json", [select_task("s2")])
    return root / "data"


def build(dump: Path, out: Path, *overrides: str):
    config = load_config(BuildConfig, None, [f"input=[{dump}]", f"output_dir={out}", *overrides])
    return run_build(config)


def shards(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text() for p in sorted(out.rglob("*.jsonl"))}


def test_build_writes_a_dataset_that_load_dataset_reads(dump, tmp_path):
    manifest = build(dump, tmp_path / "out")
    assert manifest["splits"] == {"train": 8, "test_task": 2}
    assert manifest["verify"]["stages"][1] == {
        "stage": "execution", "passed": 10, "failed": 0, "skipped": 0, "pass_rate": 1.0}
    loaded = datasets.load_dataset("json", data_files=data_files(tmp_path / "out"))
    record = loaded["train"][0]
    roles = [m["role"] for m in record["messages"]]
    assert roles[:3] == ["system", "user", "assistant"] and roles[-1] == "assistant"
    assert record["messages"][-1]["tool_calls"][0]["function"]["name"] == "type"
    assert {t["function"]["name"] for t in record["tools"]} >= {"query_elements", "click"}
    saved = json.loads((tmp_path / "out/manifest.json").read_text())
    assert saved["config"]["teacher"]["kind"] == "oracle" and saved["versions"]["datasets"]


def test_a_killed_run_resumes_to_the_same_output(dump, tmp_path):
    build(dump, tmp_path / "whole")
    build(dump, tmp_path / "parts", "limit=4")
    shard = next((tmp_path / "parts/data/train").glob("shard-*.jsonl"))
    with open(shard, "a", encoding="utf-8") as fh:
        fh.write('{"key": "f2:f2-u0|query_only", "messa')  # killed mid-line
    build(dump, tmp_path / "parts")
    assert shards(tmp_path / "parts") == shards(tmp_path / "whole")
    again = build(dump, tmp_path / "parts")
    assert again["this_run"]["steps"] == 0 and shards(tmp_path / "parts") == shards(tmp_path / "whole")


def test_bad_records_are_rejected_with_reasons_and_the_run_goes_on(tmp_path):
    good = forms_task("g1")
    no_positive = forms_task("np")
    no_positive["actions"][0]["pos_candidates"] = []
    no_actions = {k: v for k, v in forms_task("na").items() if k != "actions"}
    bad_html = forms_task("bh")
    bad_html["actions"][1]["raw_html"] = bad_html["actions"][1]["cleaned_html"] = ""
    write_tasks(tmp_path / "in/train/a.json", [good, no_positive, no_actions, bad_html])
    (tmp_path / "in/train/b.json").write_text('[{"annotation_id": "x", "actions": [')
    stats = build(tmp_path / "in", tmp_path / "out")
    assert stats["accepted"] == 3 + 2 + 2  # g1, np without its first step, bh without its second
    assert stats["input_rejects"] == {"no_positive": 1, "task_missing_field": 1, "bad_html": 1,
                                      "malformed_json": 1}


def test_parallel_build_equals_serial(dump, tmp_path):
    build(dump, tmp_path / "serial")
    build(dump, tmp_path / "parallel", "num_proc=2")
    assert shards(tmp_path / "parallel") == shards(tmp_path / "serial")


def test_holdout_splits_keep_websites_and_tasks_apart():
    splits = SplitConfig(by="holdout", test_websites=["click-tab-2"], test_task_percent=30)
    def step(website: str, annotation: str) -> Step:
        return Step(f"{annotation}:u", "t", [], [1], Operation("CLICK"), "miniwob", annotation,
                    "u", 0, website)
    assert assign_split(step("click-tab-2", "a"), splits) == "test_website"
    assigned = {assign_split(step("click-button", f"click-button-{i}"), splits) for i in range(40)}
    assert assigned == {"train", "test_task"}
    assert assign_split(step("x", "same"), splits) == assign_split(step("y", "same"), splits)


def test_config_problems_are_named_up_front(tmp_path):
    with pytest.raises(FormatError) as info:
        load_config(BuildConfig, None, [f"input=[{tmp_path}/nothing]", "modes=[dom]", "num_proc=0"])
    message = str(info.value)
    assert "nothing: no such file or folder" in message and "modes" in message
    assert "num_proc" in message
    with pytest.raises(FormatError, match="not a datagen output"):
        dataset_stats(tmp_path)


def test_small_shards_roll_over_and_resume_the_same(dump, tmp_path):
    build(dump, tmp_path / "whole", "shard_size=3")
    build(dump, tmp_path / "parts", "shard_size=3", "limit=5")
    build(dump, tmp_path / "parts", "shard_size=3")
    files = shards(tmp_path / "whole")
    assert len([f for f in files if f.startswith("data/train/")]) == 3  # 8 records, 3 per shard
    assert shards(tmp_path / "parts") == files


def test_without_rationales_the_same_calls_are_written_alone(dump, tmp_path):
    build(dump, tmp_path / "with")
    manifest = build(dump, tmp_path / "calls", "teacher.rationale=false")
    assert manifest["splits"] == {"train": 8, "test_task": 2}

    def turns(out: Path) -> list[tuple[str, list]]:
        records = [json.loads(line) for text in shards(out).values()
                   for line in text.splitlines()]
        return [(m["content"], m["tool_calls"]) for r in records for m in r["messages"]
                if m["role"] == "assistant"]

    with_text, alone = turns(tmp_path / "with"), turns(tmp_path / "calls")
    assert all(text for text, _ in with_text) and not any(text for text, _ in alone)
    assert [calls for _, calls in alone] == [calls for _, calls in with_text]
    answer = assistant_text({"role": "assistant", "content": "", "tool_calls": alone[0][1]})
    assert answer.startswith("<bu_") and answer.endswith("<bu_end>") and "\n" not in answer
