"""The held-out MiniWoB++ tasks: the rule gives the written-out set, record / dagger / build keep
them out of training, eval reads the same set, and no training seed plays a benchmark page."""

from __future__ import annotations

import json
from collections import Counter

from mind2web_reader_helpers import ActionSpec, find, fixture_page, make_task, write_tasks

from datagen.build import run_build
from datagen.build_config import BuildConfig
from datagen.dagger.config import DaggerConfig
from datagen.miniwob.config import RecordConfig
from datagen.miniwob.heldout import (
    HELDOUT_TASKS,
    KEPT,
    NOT_CANDIDATES,
    choose_heldout,
    family_of,
)
from datagen.miniwob.policies import POLICIES
from datagen.miniwob.policies.impossible import IMPOSSIBLE
from datagen.miniwob.recorder import plan
from datagen.stats import data_files, iter_records
from eval.browsergym.benchmark import TASKS, training_conflicts
from eval.config import TEST_SEEDS, VALIDATION_SEEDS, EvalConfig
from pipeline.config import load_config


def test_the_rule_over_browsergyms_tasks_gives_the_written_out_set():
    assert choose_heldout(TASKS) == HELDOUT_TASKS
    assert len(HELDOUT_TASKS) >= 20 and set(HELDOUT_TASKS) <= set(TASKS)
    assert set(KEPT) <= set(HELDOUT_TASKS) and not NOT_CANDIDATES & set(HELDOUT_TASKS)
    families = Counter(family_of(t) for t in HELDOUT_TASKS)
    assert {"click", "enter", "choose", "email", "social", "use", "drag", "form"} <= set(families)
    assert families["click"] < len(HELDOUT_TASKS) / 2  # no family dominates
    for task in HELDOUT_TASKS:  # a -nodelay twin goes with its task
        twin = task.removesuffix("-nodelay") if task.endswith("-nodelay") else f"{task}-nodelay"
        assert twin not in TASKS or twin in HELDOUT_TASKS


def test_every_heldout_task_has_an_oracle_policy_and_none_is_impossible():
    assert not set(IMPOSSIBLE) & set(HELDOUT_TASKS)
    assert set(HELDOUT_TASKS) <= set(POLICIES)  # held-out episodes can be recorded for eval


def test_record_and_dagger_skip_heldout_tasks_in_training_splits_and_refuse_them_by_name():
    record = RecordConfig()
    assert not set(record.task_names()) & set(HELDOUT_TASKS) and record.task_names()
    assert not {task for task, _ in plan(record)} & set(HELDOUT_TASKS)
    assert record.skipped_heldout()  # some covered tasks are held out, and said to be skipped
    refused = RecordConfig(tasks=["click-button", "click-tab-2"]).validate()
    assert any("click-tab-2 are held out of training" in p and "split=heldout" in p
               for p in refused)
    assert RecordConfig(tasks=["click-tab-2"], split="heldout").validate() == []
    assert "click-tab-2" in RecordConfig(split="heldout").task_names()
    dagger = DaggerConfig(checkpoint="x")
    assert not dagger.validate() and not set(dagger.task_names()) & set(HELDOUT_TASKS)
    assert any("held out of training" in p
               for p in DaggerConfig(checkpoint="x", tasks=["login-user-popup"]).validate())


def test_no_training_seed_of_a_task_is_a_page_browsergym_plays():
    record = RecordConfig(seeds_per_task=200)
    assert training_conflicts(plan(record)) == []
    dagger = DaggerConfig(checkpoint="x", seeds_per_task=50)
    pairs = [(t, s) for t in dagger.task_names()
             for s in range(dagger.seed, dagger.seed + dagger.seeds_per_task)]
    assert training_conflicts(pairs) == []
    last_record_seed = record.seed + record.seeds_per_task - 1
    assert last_record_seed < dagger.seed and dagger.seed + 50 < TEST_SEEDS.start
    assert TEST_SEEDS.stop <= VALIDATION_SEEDS.start
    assert set(EvalConfig().miniwob.heldout_tasks) == set(HELDOUT_TASKS)


def _task(annotation_id: str, website: str) -> dict:
    state = fixture_page("forms.html")
    specs = [ActionSpec(f"{annotation_id}-u0", find(state, "input", id="login-email"), "TYPE",
                        "ada@example.com"),
             ActionSpec(f"{annotation_id}-u1", find(state, "button", id="login-submit"), "CLICK")]
    return make_task(annotation_id, "forms.html", specs, 'Enter "ada@example.com" into the '
                     "text field and press Submit.", website=website, domain="miniwob")


def test_no_training_split_of_a_built_dataset_holds_a_heldout_task(tmp_path):
    websites = ["click-button", "click-link", "enter-text", "email-inbox-forward", "use-spinner",
                "login-user"]
    tasks = [_task(f"miniwob-{w}-s{s}", w) for w in websites for s in range(3)]
    write_tasks(tmp_path / "dump/train/miniwob_0.json", tasks)
    config = load_config(BuildConfig, None, [
        f"input=[{tmp_path / 'dump/train'}]", f"output_dir={tmp_path / 'out'}", "source=miniwob",
        "splits.by=holdout", "splits.test_task_percent=0"])
    run_build(config)
    seen: dict[str, set[str]] = {}
    for split, files in data_files(tmp_path / "out").items():
        for path in files:
            for record in iter_records(path):
                seen.setdefault(split, set()).add(record["website"])
                assert json.loads(record["meta"])["task"]
    assert seen["train"] == {"click-button", "enter-text", "login-user"}
    assert seen["test_website"] == {"click-link", "email-inbox-forward", "use-spinner"}
