"""``python -m training --config FILE [key=value ...]`` (also under ``accelerate launch -m``).

Shared stage flags: ``--output-dir``, ``--seed``, ``--limit`` override the config keys of the same
name. A bad config fails before anything is loaded, with one message listing every problem.
"""

from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m training",
        description="LoRA + functional-token training on datagen's output (see training/recipe.py)")
    parser.add_argument("--config", help="YAML config (configs/training/*.yaml)")
    parser.add_argument("--output-dir", help="where the run writes (overrides output_dir)")
    parser.add_argument("--seed", type=int, help="random seed (overrides seed)")
    parser.add_argument("--limit", type=int, help="at most this many training records")
    parser.add_argument("overrides", nargs="*", help="key=value overrides, e.g. loss_weight=1")
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from pipeline.cli.support import parse_args, run_command

    args = parse_args(build_parser(), argv)

    return run_command(lambda: _train(args), "interrupted; continue with resume=true")


def _train(args: argparse.Namespace) -> int:
    from pipeline.cli.support import shared_overrides
    from training.config import load_training_config

    cfg = load_training_config(args.config, shared_overrides(args))  # fails fast, before torch
    from training.recipe import main as run

    summary = run(cfg)
    if summary:
        print(f"adapter: {summary['adapter_dir']}  metrics: {cfg.output_dir}/metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
