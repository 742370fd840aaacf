"""The steps curve counts success on the episodes every run played, a repeated seed as its own
episode, and sets each run against the one before it on exactly those."""

from __future__ import annotations

import json

import pytest
from steps_curve import curve, load_run, records_digest


def _run(tmp_path, name, steps, rows, init_adapter=None):
    train = tmp_path / f"{name}-train"
    train.mkdir()
    (train / "metrics.json").write_text(json.dumps({
        "config": {"dataset_dir": str(tmp_path / "data"), "train_split": "train",
                   "batch_size": 2, "grad_accum": 1, "init_adapter": init_adapter},
        "train": {"global_step": steps, "step_seconds": 60.0 * steps / 40},
        "final_eval": {"epoch": steps / 1000, "eval_exact_call_match": 0.5}}))
    folder = tmp_path / name
    folder.mkdir()
    (folder / "results.json").write_text(json.dumps({"config": {"checkpoint": str(train)}}))
    with (folder / "episodes.jsonl").open("w") as out:
        for at, (task, seed, group, success) in enumerate(rows):
            out.write(json.dumps({"task": task, "seed": seed, "group": group,
                                  "success": success, "finished_at": at}) + "\n")
    return load_run(folder)


def test_shared_episodes_repeats_and_pairs(tmp_path):
    shard = tmp_path / "data" / "data" / "train" / "shard-00000.jsonl"
    shard.parent.mkdir(parents=True)
    shard.write_text('{"key": "b"}\n{"key": "a"}\n')
    early = _run(tmp_path, "early", 100, [("t", 1, "trained", False), ("t", 1, "trained", True),
                                          ("u", 2, "unseen", False), ("v", 3, "trained", True)])
    late = _run(tmp_path, "late", 300, [("t", 1, "trained", True), ("t", 1, "trained", True),
                                        ("u", 2, "unseen", True)])  # v|3 not played: left out
    result = curve([early, late])
    assert result["episodes"] == 3  # t|1 twice (two rounds drew that seed) and u|2
    first, second = result["points"]
    assert first["success"]["value"] == pytest.approx(1 / 3)
    assert second["success"]["value"] == 1.0 and second["groups"]["unseen"]["n"] == 1
    assert (first["conversations"], second["epochs"]) == (200, 0.3)
    assert result["pairs"] == [{"from": 100, "to": 300, "only_later": 2, "only_earlier": 0,
                                "sign_test_p": 0.5}]
    assert early["records"] == late["records"]
    shard.write_text('{"key": "a"}\n{"key": "b"}\n')  # the same records in another order
    assert records_digest(tmp_path / "data", "train") == early["records"]


def test_a_run_from_another_runs_adapter_counts_its_steps(tmp_path):
    shard = tmp_path / "data" / "data" / "train" / "shard-00000.jsonl"
    shard.parent.mkdir(parents=True)
    shard.write_text('{"key": "a"}\n')
    _run(tmp_path, "first", 100, [("t", 1, "trained", False)])
    (tmp_path / "first-train" / "adapter").mkdir()
    later = _run(tmp_path, "later", 40, [("t", 1, "trained", True)],
                 init_adapter=str(tmp_path / "first-train" / "adapter"))
    assert (later["steps"], later["stages"], later["conversations"]) == (140, [100, 40], 280)
    assert later["step_minutes"] == 3.5  # 150 s + 60 s of steps
