"""What is skipped is said: malformed dataset lines are counted, the first one named, and too
many of them stop training; an empty raw_html is noted (tests/datagen covers the reader)."""

from __future__ import annotations

import pytest

from pipeline.errors import PagescoutError
from tests.training.training_helpers import write_dataset
from training.config import load_training_config, split_folder
from training.data import load_split, screen_bad_lines


@pytest.fixture
def dataset(tmp_path):
    root = write_dataset(tmp_path / "ds", train=20, test=2)
    shard = min(split_folder(root, "train").glob("shard-*.jsonl"))
    lines = shard.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(3, '{"messages": oops}\n')
    shard.write_text("".join(lines), encoding="utf-8")
    return root, shard


def test_a_malformed_line_is_counted_and_named(dataset):
    root, shard = dataset
    records, bad = load_split(root, "train")
    assert len(records) == 20 and list(bad) == [f"{shard.name}:4"]
    note = screen_bad_lines("train", len(records), bad, max_share=0.1)
    assert "1 malformed line(s) skipped" in note and f"{shard.name}:4" in note
    assert "not JSON" in note


def test_more_than_the_allowed_share_stops_the_run(dataset):
    root, _ = dataset
    records, bad = load_split(root, "train")
    with pytest.raises(PagescoutError, match="over max_bad_share=0.01"):
        screen_bad_lines("train", len(records), bad, max_share=0.01)
    assert screen_bad_lines("train", len(records), {}, max_share=0.0) == ""


def test_the_share_is_a_config_key_checked_up_front(tmp_path):
    root = write_dataset(tmp_path / "ds", train=2, test=1)
    assert load_training_config(None, [f"dataset_dir={root}"]).max_bad_share == 0.01
    with pytest.raises(PagescoutError, match="max_bad_share: 2.0 must be between 0 and 1"):
        load_training_config(None, [f"dataset_dir={root}", "max_bad_share=2"])
