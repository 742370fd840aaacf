"""A reused eval folder never scores one model's run with another model's rows."""

from __future__ import annotations

import json
import os

import pytest

from eval.config import EvalConfig
from eval.journal import Journal
from eval.provenance import RECORD, check_provenance
from pipeline.errors import FormatError


def setup(tmp_path, checkpoint):
    cfg = EvalConfig(benchmark="mind2web", output_dir=str(tmp_path / "out"),
                     policy=["random", "checkpoint"], mode="planned", checkpoint=str(checkpoint))
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return cfg, out, Journal(out / "steps.jsonl")


def adapter(folder, stamp: float):
    folder.mkdir(exist_ok=True)
    weights = folder / "adapter_model.safetensors"
    weights.write_bytes(b"weights")
    os.utime(weights, (stamp, stamp))
    return folder


def test_a_fresh_folder_records_each_runs_model_and_commit(tmp_path):
    cfg, out, journal = setup(tmp_path, adapter(tmp_path / "run", 1_700_000_000))
    assert check_provenance(out, cfg, journal, "a" * 40) == []
    record = json.loads((out / RECORD).read_text())
    assert record["random/planned"] == {"model": "random", "commits": ["a" * 40]}
    assert record["checkpoint/planned"]["model"].startswith(str((tmp_path / "run").resolve()))
    assert "2023-11-14T22:13:20" in record["checkpoint/planned"]["model"]


def test_resuming_a_run_with_another_model_is_refused(tmp_path):
    cfg, out, journal = setup(tmp_path, adapter(tmp_path / "run", 1_700_000_000))
    check_provenance(out, cfg, journal, "a" * 40)
    journal.append({"key": "checkpoint/planned|s1", "run": "checkpoint/planned"})
    adapter(tmp_path / "run", 1_800_000_000)  # retrained in place
    with pytest.raises(FormatError, match=r"checkpoint/planned.*new output_dir"):
        check_provenance(out, cfg, journal, "a" * 40)
    other, _, _ = setup(tmp_path, adapter(tmp_path / "other", 1_700_000_000))
    with pytest.raises(FormatError, match=str(out)):
        check_provenance(out, other, journal, "a" * 40)


def test_a_run_resumed_by_other_code_says_which_commits_wrote_it(tmp_path):
    cfg, out, journal = setup(tmp_path, adapter(tmp_path / "run", 1_700_000_000))
    check_provenance(out, cfg, journal, "a" * 40)
    journal.append({"key": "checkpoint/planned|s1", "run": "checkpoint/planned"})
    notes = check_provenance(out, cfg, journal, "b" * 40)
    commits = f"{'a' * 10}, {'b' * 10}"
    assert notes == [f"checkpoint/planned: rows journaled by the code of commits {commits}"]
    # (random/planned has no rows: nothing of it was resumed)


def test_rows_journaled_before_any_record_are_flagged(tmp_path):
    cfg, out, journal = setup(tmp_path, adapter(tmp_path / "run", 1_700_000_000))
    journal.append({"key": "random/planned|s1", "run": "random/planned"})
    notes = check_provenance(out, cfg, journal, "a" * 40)
    assert len(notes) == 1 and notes[0].startswith("random/planned: rows resumed from a journal")
