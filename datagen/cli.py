"""Command line of the datagen stage.

    python -m datagen record --config configs/datagen/miniwob.yaml [key=value ...]
    python -m datagen build --config configs/datagen/miniwob.yaml [key=value ...]
    python -m datagen build --config configs/datagen/mind2web.yaml input=[/path/to/data/train]
    python -m datagen dagger --config configs/datagen/dagger.yaml checkpoint=RUN
    python -m datagen stats <output_dir>

``record`` plays MiniWoB++ episodes with oracle policies and writes them as Mind2Web task files
(``datagen.miniwob``); ``dagger`` lets a trained student play them and writes the oracle's label
for every state it reaches, in the same format (``datagen.dagger``); ``build`` turns task files
into verified trajectories (``datagen.build``);
``stats`` prints what a built dataset holds (``datagen.stats``). Every subcommand reads its own section of the YAML file (``record:`` ...)
and takes the shared flags ``--output-dir``, ``--seed`` and ``--limit`` plus ``key.sub=value``
overrides; a subcommand is one entry of ``COMMANDS``. Errors print one line and exit with 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.cli.support import parse_args, run_command, shared_overrides


def record(args: argparse.Namespace) -> int:
    from datagen.miniwob import RecordConfig, run_record

    config = _load(RecordConfig, args, "record")
    manifest = run_record(config)
    episodes, run = manifest["episodes"], manifest["this_run"]
    print(f"recorded {episodes['written']} of {episodes['attempted']} episodes "
          f"({manifest['steps_written']} steps, {manifest['tasks_written']} tasks; "
          f"{episodes['failed']} failed, {episodes['crashed']} crashed) in {config.output_dir}; "
          f"this run: {run['episodes_per_s']} episodes/s, {run['steps_per_s']} steps/s",
          file=sys.stderr)
    return 0


def dagger(args: argparse.Namespace) -> int:
    from datagen.dagger import DaggerConfig, run_dagger

    config = _load(DaggerConfig, args, "dagger")
    manifest = run_dagger(config)
    stats, run = manifest["dagger"], manifest["this_run"]
    print(f"labelled {stats['labelled_steps']} steps in {stats['episodes']} episodes "
          f"({stats['steps_per_episode']} per episode; the student's act differed from the "
          f"oracle's in {stats['differed_share']:.0%}; finished with fallback "
          f"{stats['success_with_fallback']:.0%}) in {config.output_dir}; this run: "
          f"{run['episodes']} episodes, {run['episodes_per_s'] * 60:.1f} episodes/min",
          file=sys.stderr)
    return 0


def build(args: argparse.Namespace) -> int:
    from datagen.build import run_build
    from datagen.build_config import BuildConfig

    config = _load(BuildConfig, args, "build")
    manifest = run_build(config)
    run = manifest["this_run"]
    print(f"built {manifest['accepted']} accepted trajectories in {config.output_dir} "
          f"(this run: {run['steps']} steps, {run['steps_per_s']} steps/s)", file=sys.stderr)
    return 0


def stats(args: argparse.Namespace) -> int:
    from datagen.stats import dataset_stats, format_stats

    print(format_stats(dataset_stats(args.output)))
    return 0


# name -> (help, handler); each handler reads the config section named like the command.
COMMANDS: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "record": ("record MiniWoB++ episodes as Mind2Web task files", record),
    "dagger": ("a student plays MiniWoB++ live; the oracle labels its states", dagger),
    "build": ("task files -> verified query-tool trajectories", build),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m datagen", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, _) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text)
        sub.add_argument("--config", type=Path, help=f"YAML config (its `{name}:` section)")
        sub.add_argument("--output-dir", help="where results go (overrides output_dir)")
        sub.add_argument("--seed", type=int, help="base seed (overrides seed)")
        sub.add_argument("--limit", type=int, help="at most this many items (overrides limit)")
        sub.add_argument("overrides", nargs="*", help="key.sub=value config overrides")
    counts = commands.add_parser("stats", help="what a built dataset holds")
    counts.add_argument("output", help="the build's output_dir")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parse_args(build_parser(), argv)
    handler = stats if args.command == "stats" else COMMANDS[args.command][1]
    return run_command(lambda: handler(args), "interrupted; run the same command again to resume")


def _load(cls: type, args: argparse.Namespace, section: str) -> Any:
    """The section's config with the shared flags and overrides applied."""
    from pipeline.config import load_config

    return load_config(cls, args.config, shared_overrides(args), section=section)
