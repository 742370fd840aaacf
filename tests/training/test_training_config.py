"""The training config: the shipped YAML files load, and a bad config fails at start with ONE
message naming every problem."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.errors import FormatError, PagescoutError
from training.config import TrainingConfig, load_training_config

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["smollm2-135m-cpu", "smollm2-135m-1gpu", "qwen2.5-0.5b-1gpu"])
def test_shipped_configs_parse(name, dataset_dir):
    path = REPO / "configs" / "training" / f"{name}.yaml"
    assert path.read_text().startswith("# accelerate launch ")
    overrides = [f"dataset_dir={dataset_dir}", "eval_split=test", "model=null"]
    cfg = load_training_config(path, overrides)
    assert isinstance(cfg, TrainingConfig) and cfg.lora.target_modules[-1] == "down_proj"


def test_every_problem_in_one_message(tmp_path):
    with pytest.raises(FormatError) as caught:
        load_training_config(None, [
            "learning_rat=1e-4", f"dataset_dir={tmp_path / 'nowhere'}",
            f"model={tmp_path / 'no-such-model'}", "lora.rank=0", "batch_size=two",
        ])
    message = str(caught.value)
    assert "problem(s)" in message
    assert "unknown key 'learning_rat'; did you mean 'learning_rate'?" in message
    assert "batch_size: 'two' is not a int" in message
    # the checks that need a built config (paths, ranges) show once the types are right
    with pytest.raises(FormatError) as caught:
        load_training_config(None, [f"dataset_dir={tmp_path / 'nowhere'}",
                                    f"model={tmp_path / 'no-such-model'}", "lora.rank=0",
                                    "lora.top_layers=0"])
    message = str(caught.value)
    assert "dataset_dir:" in message and "run datagen first" in message
    assert "model:" in message and "no-such-model" in message
    assert "lora.rank: 0 must be at least 1" in message
    assert "lora.top_layers: 0 must be at least 1 (or null for every layer)" in message


def test_missing_split_lists_the_splits_found(dataset_dir):
    with pytest.raises(FormatError, match="eval_split: no shard-.*splits found: test, train"):
        load_training_config(None, [f"dataset_dir={dataset_dir}", "eval_split=validation"])


def test_cli_reports_a_bad_config_and_exits_2(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "training", "--output-dir", str(tmp_path),
         f"dataset_dir={tmp_path / 'missing'}", "colour=blue"],
        capture_output=True, text=True, cwd=REPO, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("error: config <defaults>: 2 problem(s)")
    assert "unknown key 'colour'" in done.stderr and "dataset_dir:" in done.stderr
    assert "Traceback" not in done.stderr


def test_max_per_task_caps_each_task_with_the_seed_and_keeps_file_order():
    from training.data import cap_per_task

    records = ([{"key": f"a{i}", "website": "click-checkboxes-large"} for i in range(10)]
               + [{"key": f"b{i}", "website": "click-button"} for i in range(3)])
    kept, counts = cap_per_task(records, 4, seed=0)
    assert counts == {"click-button": {"before": 3, "after": 3},
                      "click-checkboxes-large": {"before": 10, "after": 4}}
    assert [r["key"] for r in kept][-3:] == ["b0", "b1", "b2"]
    order = [r["key"] for r in records]
    assert [r["key"] for r in kept] == sorted((r["key"] for r in kept), key=order.index)
    assert kept == cap_per_task(records, 4, seed=0)[0] != cap_per_task(records, 4, seed=1)[0]
    assert cap_per_task(records, None, seed=0)[0] == records
    with pytest.raises(PagescoutError, match="record 'x'.*no 'website'"):
        cap_per_task([{"key": "x"}], 4, seed=0)
    with pytest.raises(FormatError, match="max_per_task"):
        load_training_config(None, ["max_per_task=0"])
