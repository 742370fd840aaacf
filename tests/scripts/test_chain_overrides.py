"""The chain's STAGE.key=value overrides (scripts/chain.py), without running a stage."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_a_stage_override_joins_that_stages_command_and_key():
    """``STAGE.key=value`` is appended to that stage's command (its CLI reads it last) and so
    changes that stage's key; a stage that is not in the chain, or an argument without a key
    and value, is an error that names it."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import chain as runner

    stages = runner.load_stages(ROOT / "configs" / "chain" / "dagger.yaml")
    before = {s.name: runner.stage_key(s, {}) for s in stages if not s.needs}
    runner.apply_overrides(stages, ["train-2.max_steps=299", "train-2.max_minutes=null"])
    by_name = {s.name: s for s in stages}
    assert by_name["train-2"].command[-2:] == ["max_steps=299", "max_minutes=null"]
    assert "max_steps=299" not in by_name["train"].command
    runner.apply_overrides(stages, ["record.seeds_per_task=2"])
    assert runner.stage_key(by_name["record"], {}) != before["record"]
    for bad, message in (("trian.max_steps=5", "no stage 'trian'"),
                         ("train=5", "write it as STAGE.key=value"),
                         ("train.max_steps", "write it as STAGE.key=value")):
        with pytest.raises(SystemExit, match=message):
            runner.apply_overrides(stages, [bad])
