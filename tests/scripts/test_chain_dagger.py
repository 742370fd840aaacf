"""configs/chain/dagger.yaml reads as a chain whose every stage's command its stage accepts:
the keys of each command's config and overrides are known (only the folders earlier stages
write are missing), and round 2 starts from round 1's adapter."""

from __future__ import annotations

import sys
from pathlib import Path

from pipeline.config import load_config
from pipeline.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from chain import load_stages

# an input an earlier stage has not written yet: missing, or a folder it is still filling
NOT_YET = ("no such file or folder", "does not exist", "holds no adapter",
           "holds no .json or .json.gz task files")


def accepted(command: list[str]) -> None:
    """Load the command's config as its stage would; only missing inputs may be refused."""
    from datagen.build_config import BuildConfig
    from datagen.dagger import DaggerConfig
    from datagen.miniwob import RecordConfig
    from eval.config import load_eval_config
    from eval.select import check_select
    from training.config import load_training_config

    package, args = command[1], command[2:]
    path = args[args.index("--config") + 1]
    overrides = [a for a in args if "=" in a and not a.startswith("-")]
    try:
        if package == "datagen":
            cls = {"record": RecordConfig, "build": BuildConfig, "dagger": DaggerConfig}[args[0]]
            load_config(cls, path, overrides, section=args[0])
        elif package == "training":
            load_training_config(path, overrides)
        else:
            cfg = load_eval_config(path, overrides)
            if args[0] == "select":
                check_select(cfg, cfg.miniwob.tasks)
    except FormatError as exc:
        problems = [line for line in str(exc).splitlines()[1:] if line.strip()]
        assert problems and all(any(m in p for m in NOT_YET) for p in problems), str(exc)


def test_the_dagger_chain_runs_each_stage_on_what_it_needs():
    stages = {s.name: s for s in load_stages(ROOT / "configs" / "chain" / "dagger.yaml")}
    assert list(stages) == ["record", "build", "train", "dagger", "build-mix", "train-2",
                            "select", "eval", "report"]
    for stage in stages.values():
        if stage.command[2:3] != ["chain-report"]:
            accepted(stage.command)
    assert "init_adapter=outputs/dagger/train-1" in stages["train-2"].command
    assert "checkpoint=outputs/dagger/select/best" in stages["eval"].command
    assert set(stages["select"].needs) == {"train", "train-2"}
