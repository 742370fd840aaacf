"""What every stage's command line shares: the shared flags and the error exit.

    args = parse_args(build_parser(), argv)  # key=value overrides before or after the flags
    overrides = shared_overrides(args)        # --output-dir/--seed/--limit + key=value overrides
    return run_command(lambda: handler(args), resume_hint="run it again to resume")

A ``PagescoutError`` prints one ``error:`` line and exits 2; Ctrl-C exits 130 with a hint.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from pipeline.errors import PagescoutError

SHARED_FLAGS = ("output_dir", "seed", "limit")


def parse_args(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """``parser.parse_args`` where ``key=value`` overrides may stand anywhere among the flags
    (argparse alone takes them only in one run: ``a=1 --seed 3 b=2`` would refuse ``b=2``)."""
    args, extra = parser.parse_known_args(argv)
    stray = [a for a in extra if a.startswith("-") or "=" not in a or not hasattr(args, "overrides")]
    if stray:
        parser.error(f"unrecognized arguments: {' '.join(stray)}")
    if extra:
        args.overrides = [*args.overrides, *extra]
    return args


def shared_overrides(args: argparse.Namespace) -> list[str]:
    """``key=value`` overrides from the shared flags (when given), after the explicit ones."""
    overrides = list(args.overrides)
    for key in SHARED_FLAGS:
        value = getattr(args, key, None)
        if value is not None:
            overrides.append(f"{key}={value}")
    return overrides


def run_command(command: Callable[[], int], interrupted: str = "interrupted") -> int:
    try:
        return command()
    except PagescoutError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(interrupted, file=sys.stderr)
        return 130
