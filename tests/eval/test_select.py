"""``eval select``: checkpoints compared by live success on validation seeds that no training
or test episode uses; a REAL two-checkpoint selection in Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datagen.dagger.config import FIRST_SEED, SEED_RANGE, DaggerConfig
from datagen.miniwob.heldout import HELDOUT_TASKS
from datagen.miniwob.policies import POLICIES
from eval.__main__ import main as eval_main
from eval.browsergym.benchmark import training_conflicts
from eval.config import TEST_SEEDS, VALIDATION_SEEDS, load_eval_config
from eval.select import best, check_select, checkpoint_names, select, select_markdown
from pipeline.errors import FormatError


def test_seed_ranges_of_training_test_and_validation_never_meet():
    dagger = range(FIRST_SEED, FIRST_SEED + SEED_RANGE)
    assert set(dagger).isdisjoint(TEST_SEEDS) and set(dagger).isdisjoint(VALIDATION_SEEDS)
    assert set(TEST_SEEDS).isdisjoint(VALIDATION_SEEDS)
    assert min(dagger) > 1_000  # the recorder plays 0, 1, ... (seeds_per_task of them)
    default = DaggerConfig(checkpoint="x", seeds_per_task=50)
    assert not default.validate()
    tasks = sorted(set(POLICIES) - set(HELDOUT_TASKS))
    assert training_conflicts([(t, s) for t in tasks
                               for s in range(default.seed, default.seed + 50)]) == []
    select = load_eval_config("configs/eval/select.yaml", ["checkpoints=[a]"])
    check_select(select, tasks)  # the shipped validation seeds pass
    first = select.miniwob.first_seed
    assert first in VALIDATION_SEEDS and training_conflicts(
        [(t, s) for t in tasks for s in range(first, first + 20)]) == []


def test_select_refuses_test_seeds_and_no_checkpoints():
    cfg = load_eval_config("configs/eval/select.yaml", ["miniwob.first_seed=10000"])
    with pytest.raises(FormatError) as caught:
        check_select(cfg, ["click-button"])
    assert "checkpoints: give" in str(caught.value)
    assert "seeds 10000..10001 leave the validation seeds 20000..29999" in str(caught.value)


def test_select_refuses_held_out_tasks():
    cfg = load_eval_config("configs/eval/select.yaml", ["checkpoints=[a]"])
    with pytest.raises(FormatError, match="click-tab-2 are held out of training"):
        check_select(cfg, ["click-button", "click-tab-2"])


def test_select_plays_the_trained_tasks_only(tmp_path):
    """With ``miniwob.tasks`` unset it plays every trained task, not the held-out ones that it
    would then leave out of the figures."""
    cfg = load_eval_config("configs/eval/select.yaml", [
        f"checkpoints=[{tmp_path / 'a'}]", f"output_dir={tmp_path / 'select'}"])
    (tmp_path / "a").mkdir()
    played: list[list[str]] = []

    def evaluate(one):
        played.append(list(one.miniwob.tasks))
        rows = [{"run": "checkpoint/query_only", "task": task, "success": True, "steps": 1,
                 "seconds": 1.0} for task in one.miniwob.tasks]
        journal = Path(one.output_dir) / "episodes.jsonl"
        journal.parent.mkdir(parents=True)
        journal.write_text("".join(json.dumps(r) + "\n" for r in rows))

    selection = select(cfg, evaluate)
    assert len(played) == 1 and set(played[0]) == set(POLICIES) - set(HELDOUT_TASKS)
    assert selection["checkpoints"]["a"]["episodes"] == len(played[0])


def test_names_winner_and_table():
    assert checkpoint_names(["/o/r1/train", "/o/r2/train"]) == ["r1_train", "r2_train"]
    assert checkpoint_names(["/o/a", "/o/b"]) == ["a", "b"]
    rows = {
        "r1": {"checkpoint": "/o/r1", "success": 0.5, "episodes": 4, "steps": 3.0, "seconds": 9.0,
               "families": {"login": {"success": 0.0, "episodes": 2, "steps": 5.0,
                                      "seconds": 1.0}}},
        "r2": {"checkpoint": "/o/r2", "success": 0.5, "episodes": 4, "steps": 2.0, "seconds": 5.0,
               "families": {"login": {"success": 1.0, "episodes": 2, "steps": 2.0,
                                      "seconds": 1.0}}},
    }
    assert best(rows) == "r2"  # a tie on success: fewer steps wins
    rows["r1"]["success"] = 0.75
    assert best(rows) == "r1"
    text = select_markdown({"mode": "query_only", "seeds": [20000, 20001], "winner": "r1",
                            "winner_checkpoint": "/o/r1", "checkpoints": rows})
    assert "| login | 0% (2) | 100% (2) | +100 pts |" in text
    assert "| all | 75% (4) | 50% (4) | -25 pts |" in text


@pytest.mark.browser
@pytest.mark.slow
def test_select_plays_two_real_checkpoints(tiny_checkpoint, tmp_path, capsys):
    from tests.conftest import require_chromium

    require_chromium()
    out = tmp_path / "select"
    args = ["select", "--config", "configs/eval/select.yaml", "--output-dir", str(out),
            f"checkpoints=[{tiny_checkpoint / 'checkpoint-1'},{tiny_checkpoint}]",
            "miniwob.tasks=[click-button,enter-text]", "miniwob.seeds_per_task=1",
            "max_steps=2", "max_tool_calls=1", "generation.max_new_tokens=32", "workers=1",
            "progress=false"]
    assert eval_main(args) == 0
    selection = json.loads((out / "select.json").read_text())
    names = list(selection["checkpoints"])
    assert names == checkpoint_names([str(tiny_checkpoint / "checkpoint-1"),
                                      str(tiny_checkpoint)])
    for name in names:
        row = selection["checkpoints"][name]
        assert row["episodes"] == 2 and set(row["tasks"]) == {"click-button", "enter-text"}
        assert set(row["families"]) == {"click", "enter"}
        assert (out / name / "episodes.jsonl").exists()
    assert selection["winner"] in names and selection["seeds"] == [20000, 20000]
    assert (out / "best").resolve() == Path(selection["winner_checkpoint"]).resolve()
    printed = capsys.readouterr().out
    assert "best checkpoint:" in printed and "| all |" in printed
    assert eval_main(args) == 0  # resumed from the journals: nothing is played again
    for name in names:
        assert len((out / name / "episodes.jsonl").read_text().splitlines()) == 2
