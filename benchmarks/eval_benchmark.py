"""Run an evaluation and keep its results for docs/BENCHMARKS.md.

    python benchmarks/eval_benchmark.py --name miniwob --config configs/eval/miniwob.yaml [k=v ...]

Runs ``python -m eval --config CONFIG --output-dir outputs/eval/<name> [k=v ...]`` (resumable:
a killed run continues), then copies its results.json -- every run's aggregate and per-group
figures with their 95% intervals, per task, generation speed -- with this machine's description
and the command to ``benchmarks/results/eval_<name>.json``, which ``benchmarks/report.py`` turns
into tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from common import REPO, finish, machine_info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True, help="results name, e.g. miniwob")
    parser.add_argument("--config", required=True)
    parser.add_argument("overrides", nargs="*")
    args = parser.parse_args()
    out = REPO / "outputs" / "eval" / args.name
    command = [sys.executable, "-m", "eval", "--config", args.config, "--output-dir", str(out),
               *args.overrides]
    subprocess.run(command, cwd=REPO, check=True)
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    finish({"machine": machine_info(), "eval": results, "eval_command": results["command"]},
           Path("benchmarks/results") / f"eval_{args.name}.json")


if __name__ == "__main__":
    main()
