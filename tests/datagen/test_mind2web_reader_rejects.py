"""Bad Mind2Web records: each gives its reject reason and the run goes on."""

from __future__ import annotations

import copy
import gzip
import json
import logging

import pytest
from mind2web_reader_helpers import HAND_MADE, select_task, write_tasks

from datagen.mind2web import REASONS, Rejects, iter_steps


@pytest.fixture(scope="module")
def good() -> dict:
    return select_task("good")


def _variant(good: dict, annotation_id: str, edit) -> dict:
    task = copy.deepcopy(good)
    task["annotation_id"] = annotation_id
    for action in task["actions"]:
        action["action_uid"] = f"{annotation_id}-{action['action_uid']}"
    edit(task)
    return task


def _run(tmp_path, tasks: list) -> tuple[list, Rejects]:
    rejects = Rejects()
    steps = list(iter_steps(write_tasks(tmp_path / "data" / "train" / "t.json", tasks),
                            rejects=rejects))  # fmt: skip
    return steps, rejects


def _first_action(edit):
    def apply(task: dict) -> None:
        edit(task["actions"][0])

    return apply


CASES = {
    "task_missing_field": lambda t: t.pop("actions"),
    "task_inconsistent": lambda t: t["action_reprs"].pop(),
    "action_missing_field": _first_action(lambda a: a.pop("operation")),
    "bad_operation": _first_action(lambda a: a["operation"].update(op="TELEPORT")),
    "bad_html": _first_action(lambda a: a.update(raw_html="", cleaned_html="   ")),
    "no_positive": _first_action(lambda a: a.update(pos_candidates=[])),
    "positive_not_in_page": _first_action(
        lambda a: a["pos_candidates"][0].update(backend_node_id="999999")),
}  # fmt: skip


@pytest.mark.parametrize("reason", sorted(CASES))
def test_each_bad_record_is_rejected_and_the_run_goes_on(tmp_path, good, reason):
    bad = _variant(good, "bad", CASES[reason])
    steps, rejects = _run(tmp_path, [good, bad, _variant(good, "after", lambda t: None)])
    dropped_steps = 2 if reason.startswith("task_") else 1
    assert len(steps) == 6 - dropped_steps
    assert {s.annotation_id for s in steps} >= {"good", "after"}
    (reject,) = rejects.records
    assert (reject.reason, reject.annotation_id, reject.dropped) == (reason, "bad", True)
    assert reject.origin.endswith("t.json") and reject.offset > 0 and reject.message
    if not reason.startswith("task_"):
        assert reject.action_uid == "bad-good-u0"


def test_candidate_attributes_that_are_not_json_keep_the_step(tmp_path, good):
    def edit(task):
        task["actions"][0]["pos_candidates"][0]["attributes"] = '{"backend_node_id": "17", '
        task["actions"][1]["pos_candidates"][0]["attributes"] = "[1, 2]"

    steps, rejects = _run(tmp_path, [_variant(good, "attrs", edit)])
    assert [s.positives for s in steps] == [[p] for p in (17, 130)]
    assert rejects.counts == {"bad_candidate_attributes": 2}
    assert not any(r.dropped for r in rejects.records)
    assert "list, not a JSON object" in rejects.records[1].message


def test_a_positive_without_an_integer_id_falls_back_to_its_attributes(tmp_path, good):
    def edit(task):
        task["actions"][0]["pos_candidates"][0]["backend_node_id"] = None
        task["actions"][1]["pos_candidates"][0].update(backend_node_id="x", attributes="{}")

    steps, rejects = _run(tmp_path, [_variant(good, "ids", edit)])
    assert [s.positives for s in steps] == [[17]]  # from attributes["backend_node_id"]
    assert rejects.counts == {"bad_candidate": 1, "no_positive": 1}


def test_a_positive_partly_in_the_page_keeps_the_ones_found(tmp_path, good):
    def edit(task):
        extra = dict(task["actions"][0]["pos_candidates"][0], backend_node_id="424242")
        task["actions"][0]["pos_candidates"].append(extra)

    steps, rejects = _run(tmp_path, [_variant(good, "part", edit)])
    assert steps[0].positives == [17]
    (note,) = rejects.records
    assert (note.reason, note.dropped) == ("positive_not_in_page", False)


def test_elements_that_are_not_tasks(tmp_path, good):
    steps, rejects = _run(tmp_path, [[1, 2], good, "x"])
    assert len(steps) == 2 and rejects.counts == {"not_a_task": 2}


def test_broken_json_mid_file_keeps_what_came_before_and_reads_the_next_file(tmp_path):
    rejects = Rejects()
    later = HAND_MADE / "skyfare_train.json"
    steps = list(iter_steps([HAND_MADE / "broken_mid_file.json", later], rejects=rejects))
    assert [s.annotation_id for s in steps] == ["5e2c6a1f-0c7b-4f7e-9a53-3b6d2f1c8e90"] * 2
    assert rejects.counts == {"no_positive": 1, "malformed_json": 1, "duplicate_step": 3}
    broken = next(r for r in rejects.records if r.reason == "malformed_json")
    text = (HAND_MADE / "broken_mid_file.json").read_text()
    assert broken.offset == text.index("b7f3e0d2-0002", text.index("second-task"))
    assert "rest of the file is skipped" in broken.message and "1 task(s)" in broken.message


def test_the_hand_made_task(tmp_path):
    rejects = Rejects()
    steps = list(iter_steps(HAND_MADE / "skyfare_train.json", rejects=rejects))
    assert [(s.positives, s.operation.value, s.history) for s in steps] == [
        ([7], "Columbus", []), ([8], "Denver", ["[textbox]  From -> TYPE: Columbus"])]  # fmt: skip
    assert steps[0].page.title == "Cheap flights | SkyFare" and steps[0].domain == "Travel"
    (reject,) = rejects.records
    assert (reject.reason, reject.action_uid) == ("no_positive", "b7f3e0d2-0003")
    for step in steps:
        page = step.page.to_dict()
        assert "buckeye" not in json.dumps(page) and "b7f3e0d2" not in json.dumps(page)


def test_truncated_gzip_and_missing_files_are_unreadable(tmp_path, good):
    path = write_tasks(tmp_path / "t.json.gz", [good, good], gz=True)
    path.write_bytes(path.read_bytes()[:-200])
    other = write_tasks(tmp_path / "u.json", [good])
    steps, rejects = [], Rejects()
    steps = list(iter_steps([path, other], rejects=rejects))
    assert len(steps) == 2 and rejects.counts["unreadable_file"] == 1
    assert "cannot read the file" in rejects.records[0].message


def test_an_empty_file_and_a_file_that_is_not_an_array(tmp_path, good):
    (tmp_path / "a.json").write_text("")
    (tmp_path / "b.json").write_text(json.dumps(good))
    with gzip.open(tmp_path / "c.json.gz", "wt") as fh:
        fh.write(json.dumps([good]))
    rejects = Rejects()
    steps = list(iter_steps(tmp_path, rejects=rejects))
    assert len(steps) == 2 and rejects.counts == {"malformed_json": 2}
    assert "empty" in rejects.records[0].message and "array" in rejects.records[1].message


def test_rejects_count_summarise_and_write_jsonl(tmp_path, good):
    bad = [_variant(good, f"b{i}", CASES[r]) for i, r in enumerate(("no_positive", "bad_html"))]
    _, rejects = _run(tmp_path, bad + [_variant(good, "b9", CASES["no_positive"])])
    assert rejects.counts == {"no_positive": 2, "bad_html": 1}
    assert rejects.summary().splitlines()[0].split()[:2] == ["no_positive", "2"]
    lines = rejects.write_jsonl(tmp_path / "rejects.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["reason"] for r in rows] == ["no_positive", "bad_html", "no_positive"]
    assert set(rows[0]) == {"origin", "reason", "message", "annotation_id", "action_uid",
                            "offset", "dropped"}  # fmt: skip
    assert all(r["reason"] in REASONS for r in rows)


def test_without_a_collector_rejects_are_logged(tmp_path, good, caplog):
    path = write_tasks(tmp_path / "t.json", [_variant(good, "nop", CASES["no_positive"])])
    with caplog.at_level(logging.WARNING, logger="datagen.mind2web.reader"):
        assert len(list(iter_steps(path))) == 1
    assert "no_positive" in caplog.text and "nop" in caplog.text
