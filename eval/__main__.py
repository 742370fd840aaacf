"""``python -m eval --config FILE [key=value ...]``, ``python -m eval compare A B`` and
``python -m eval chain-report ...`` (the main job's report, see ``eval.chain_report``) and
``python -m eval select --config configs/eval/select.yaml checkpoints=[A,B]`` (the best
checkpoint by live success on the validation seeds, see ``eval.select``).

    python -m eval --config configs/eval/miniwob.yaml checkpoint=runs/training/smollm2-135m-cpu
    python -m eval --config configs/eval/mind2web.yaml input=/data/mind2web/test_task
    python -m eval compare outputs/eval/a/results.json outputs/eval/b/results.json

Shared stage flags: ``--output-dir``, ``--seed``, ``--limit`` override the keys of the same name.
"""

from __future__ import annotations

import argparse
import os
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m eval",
        description="Evaluate policies on MiniWoB++ (live), BrowserGym's MiniWoB or Mind2Web "
                    "files (offline); or compare two results.json")
    parser.add_argument("--config", help="YAML config (configs/eval/*.yaml)")
    parser.add_argument("--output-dir", help="where results go (overrides output_dir)")
    parser.add_argument("--seed", type=int, help="random seed (overrides seed)")
    parser.add_argument("--limit", type=int, help="at most this many episodes/steps per run")
    parser.add_argument("overrides", nargs="*",
                        help="key=value overrides, e.g. policy=[oracle,checkpoint] mode=hybrid; "
                             "or: compare A/results.json B/results.json")
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    argv = list(sys.argv[1:] if argv is None else argv)
    from pipeline.cli.support import parse_args, run_command

    if argv[:1] == ["compare"]:
        return run_command(lambda: _compare(argv[1:]))
    if argv[:1] == ["chain-report"]:
        return run_command(lambda: _chain_report(argv[1:]))
    if argv[:1] == ["select"]:
        args = parse_args(build_parser(), argv[1:])
        return run_command(lambda: _select(args), "interrupted; run the same command to resume")
    args = parse_args(build_parser(), argv)
    return run_command(lambda: _evaluate(args), "interrupted; run the same command to resume")


def _compare(paths: list[str]) -> int:
    from eval.compare import compare
    from pipeline.errors import FormatError

    if len(paths) != 2:
        raise FormatError("compare takes two results.json files: python -m eval compare A B")
    print(compare(*paths))
    return 0


def _chain_report(argv: list[str]) -> int:
    from pathlib import Path

    from eval.chain_report import print_chain_report, write_chain_report

    parser = argparse.ArgumentParser(prog="python -m eval chain-report",
                                     description="the main job's report (scripts/chain.py)")
    for name in ("dataset", "training", "eval", "out"):
        parser.add_argument(f"--{name}", required=True, type=Path)
    args = parser.parse_args(argv)
    path = write_chain_report(args.dataset, args.training, args.eval, args.out)
    print_chain_report(path)
    print(f"report: {path}")
    return 0


def _select(args: argparse.Namespace) -> int:
    from pathlib import Path

    from eval.config import load_eval_config
    from eval.select import REPORT_NAME, select
    from pipeline.cli.support import shared_overrides

    cfg = load_eval_config(args.config, shared_overrides(args))
    selection = select(cfg)
    print((Path(cfg.output_dir) / REPORT_NAME).read_text())
    print(f"best checkpoint: {selection['winner_checkpoint']}")
    return 0


def _evaluate(args: argparse.Namespace) -> int:
    from eval.config import load_eval_config
    from pipeline.cli.support import shared_overrides

    cfg = load_eval_config(args.config, shared_overrides(args))  # fails fast, before torch
    from eval.run import main as run
    from eval.summary import print_summary

    results = run(cfg)
    print_summary(results)
    print(f"results: {cfg.output_dir}/results.json  report: {cfg.output_dir}/report.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
