"""Offline Mind2Web metrics on a small Mind2Web file, against values computed by hand; the
oracle's ceiling on the same file; and a killed run that resumes without repeating a step."""

from __future__ import annotations

import asyncio
import json

import mind2web_reader_helpers as m2w
import pytest
from mind2web_reader_helpers import select_task, shop_task, write_tasks

from datagen.verify.execution_stage import positive_refs
from eval.config import load_eval_config
from eval.journal import Journal
from eval.mind2web_harness import run_mind2web
from eval.policies import PolicyFactory
from eval.results import summarize_offline
from eval.run import main
from pipeline.agent.policy import Situation, Turn, turn_from_calls
from pipeline.errors import PagescoutError
from pipeline.tools import make_call


@pytest.fixture(scope="module")
def task_file(tmp_path_factory):
    shop, select = shop_task("shop1"), select_task("sel1")
    empty = select_task("none1")
    empty["actions"] = empty["actions"][:1]
    empty["action_reprs"] = empty["action_reprs"][:1]
    empty["actions"][0]["pos_candidates"] = []  # Mind2Web ships such steps: they score 0
    root = tmp_path_factory.mktemp("m2w")
    return write_tasks(root / "data" / "test_task" / "tasks.json", [shop, select, empty])


PLAN = {("shop1", 0): ("right", "type", "kettle"), ("shop1", 1): ("right", "click", ""),
        ("shop1", 2): ("wrong", "click", ""), ("shop1", 3): ("right", "type", "x"),
        ("sel1", 0): ("right", "select", "Japan Tokyo"), ("sel1", 1): ("right", "click", "")}


class AnswerKey:
    """Acts by PLAN per step index: right or wrong element, chosen operation text."""

    name = "answer-key"

    async def next_turn(self, situation: Situation) -> Turn:
        step, page = situation.gold, situation.page
        which, name, value = PLAN[(step.annotation_id, step.step_index)]
        targets = positive_refs(page, step.positives)
        ref = min(targets) if which == "right" else min(set(page.refs) - targets)
        args = {"text": value} if name == "type" else {"option": value} if value else {}
        return turn_from_calls([make_call(name, index=ref, **args)])


def config(task_file, out, *extra):
    return load_eval_config(None, ["benchmark=mind2web", f"output_dir={out}", "progress=false",
                                   f"input={task_file}", *extra])


def test_metrics_match_the_hand_computed_values(task_file, tmp_path):
    cfg = config(task_file, tmp_path, "policy=checkpoint")
    policies = PolicyFactory(cfg)
    policies.register("checkpoint", AnswerKey())
    rows = []
    asyncio.run(run_mind2web(cfg, policies, Journal(tmp_path / "steps.jsonl"), rows.append))
    figures = summarize_offline(rows)["checkpoint/query_only"]["aggregate"]
    # shop1: element 1,1,0,1  op F1 1,1,1,0   -> 0.75 / 0.75 / step SR 0.5
    # sel1:  element 1,1      op F1 0.8,1     -> 1.0 / 0.9 / step SR 0.5
    # none1: its one step has no positive     -> 0 / 0 / 0
    assert figures["element_accuracy"]["value"] == pytest.approx((0.75 + 1 + 0) / 3)
    assert figures["operation_f1"]["value"] == pytest.approx((0.75 + 0.9 + 0) / 3)
    assert figures["step_sr"]["value"] == pytest.approx((0.5 + 0.5 + 0) / 3)
    assert figures["task_sr"]["value"] == 0.0 and figures["task_sr"]["n"] == 3
    assert figures["steps"] == 7 and figures["unreadable_steps"] == 1
    assert figures["valid_call_rate"]["value"] == 1.0
    # each step's prompt is the one training renders: a later step says what the gold action
    # before it did (the same fixture page each time: nothing), the first step says nothing
    prompts = {row["step_id"]: row["messages"][1]["content"] for row in rows if row["messages"]}
    assert "Last action's effect" not in prompts["shop1:shop1-u0"]
    assert "\nLast action's effect: that typing changed nothing on the page.\n\n" in (
        prompts["shop1:shop1-u1"])


def test_the_oracle_scores_every_readable_step(task_file, tmp_path):
    results = main(config(task_file, tmp_path, "policy=oracle", "mode=[query_only,full]"))
    oracle = results["runs"]["oracle/query_only"]["aggregate"]
    assert oracle["step_sr_micro"]["value"] == pytest.approx(6 / 7)  # all but the unreadable
    assert oracle["task_sr"]["value"] == pytest.approx(2 / 3)
    rows = [json.loads(line) for line in (tmp_path / "steps.jsonl").read_text().splitlines()]
    pressed = [r for r in rows if any(call["function"]["name"] == "press" for message in
                                      r["messages"] for call in message.get("tool_calls") or [])]
    assert [(r["tool_calls"], r["gold"], r["predicted"], r["element"]) for r in pressed] == [
        (0, "CLICK", "CLICK", True)]  # ENTER: Enter pressed where the focus is, Mind2Web's CLICK
    assert all(r["tool_calls"] >= 1 for r in rows if not r["error"] and r not in pressed)
    assert set(results["runs"]) == {"oracle/query_only"}  # a baseline runs in the first mode
    for name in ("results.json", "report.md", "steps.jsonl", "step_sr_by_website.png",
                 "tokens_by_run.png"):
        assert (tmp_path / name).is_file(), name
    assert "Step SR" in (tmp_path / "report.md").read_text()


def test_a_resumed_run_plays_only_the_missing_steps(task_file, tmp_path):
    cfg = config(task_file, tmp_path, "policy=oracle")
    main(cfg)
    journal = tmp_path / "steps.jsonl"
    lines = journal.read_text().splitlines()
    kept = lines[:3]
    journal.write_text("\n".join(kept) + "\n" + lines[3][:40])  # killed mid-line
    seen = []
    asyncio.run(run_mind2web(cfg, PolicyFactory(cfg), Journal(journal), seen.append))
    assert len(seen) == len(lines) - 3
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == len(lines)


def test_files_outside_the_eval_splits_are_an_error_that_names_their_split(tmp_path):
    train = write_tasks(tmp_path / "data" / "train" / "tasks.json", [shop_task("shop2")])
    with pytest.raises(PagescoutError, match=r"they are in train \(4 steps\).*eval_splits=\[train\]"):
        main(config(train, tmp_path / "out", "policy=oracle"))
    results = main(config(train, tmp_path / "ok", "policy=oracle", "mind2web.eval_splits=[train]"))
    assert results["runs"]["oracle/query_only"]["aggregate"]["steps"] == 4


def test_a_selected_passage_scores_by_the_element_holding_it(tmp_path):
    state = m2w.fixture_page("pagination.html")
    passage = "Conical or flat burrs?"
    spec = m2w.ActionSpec("burrs-a0", m2w.find(state, "p", passage), "CLICK", passage,
                          "SELECT_TEXT")
    path = write_tasks(tmp_path / "data" / "test_task" / "tasks.json", [m2w.make_task(
        "burrs", "pagination.html", [spec], "Highlight the question about burrs")])
    results = main(config(path, tmp_path / "out", "policy=oracle"))
    assert results["runs"]["oracle/query_only"]["aggregate"]["step_sr_micro"]["value"] == 1
    row = json.loads((tmp_path / "out" / "steps.jsonl").read_text().splitlines()[0])
    assert row["element"] and row["op_f1"] == 1
    assert row["predicted"] == row["gold"] == f"SELECT_TEXT {passage}"


@pytest.mark.parametrize(("original", "value", "gold"), [
    ("CLEAR", "", "CLEAR"), ("PRESS", "Enter", "PRESS Enter")])
def test_pagescouts_own_ops_score_by_their_name(tmp_path, original, value, gold):
    """A recorded clear or key press (op CLICK in the file) is named as the action the model
    writes, so the oracle's right action scores op F1 1 (it scored 0 against "CLICK"). A key
    press names no element (it goes to the focused one), so only the clear's element counts."""
    state = m2w.fixture_page("forms.html")
    spec = m2w.ActionSpec("login-a0", m2w.find(state, "input", id="login-password"), "CLICK",
                          value, original)
    path = write_tasks(tmp_path / "data" / "test_task" / "tasks.json", [m2w.make_task(
        "login", "forms.html", [spec], "Clear the password and press Enter")])
    main(config(path, tmp_path / "out", "policy=oracle"))
    row = json.loads((tmp_path / "out" / "steps.jsonl").read_text().splitlines()[0])
    assert row["predicted"] == row["gold"] == gold and row["op_f1"] == 1
    assert row["element"] == (original == "CLEAR")
