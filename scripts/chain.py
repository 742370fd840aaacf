"""The main job: record -> build -> train -> eval -> report, each stage through its own CLI.

    python scripts/chain.py --config configs/chain/demo.yaml        # `make demo`
    python scripts/chain.py --config configs/chain/demo-tiny.yaml   # `make demo-tiny`
    python scripts/chain.py --config configs/chain/dagger.yaml \
        train.max_steps=454 train.max_minutes=null                   # a stage's key=value

A stage is a command and the folder it writes. Its key hashes the command, the content of every
config file the command names, the keys of the stages it reads, and the source of the packages
it runs; the key goes into ``<output>/chain_stage.json`` (status ``running``, then ``complete``).
A stage whose folder holds a complete manifest with the same key is skipped with one line, so a
second run takes seconds and a changed config re-runs only that stage and those after it. A
stage killed mid-way resumes on the next run (the stages resume themselves: record and build
skip what they wrote, training continues from its last checkpoint, eval from its journal); a
stage whose key changed starts over from an empty folder. A failing stage stops the chain with
its exit status.

``STAGE.key=value`` arguments are appended to that stage's command: its CLI reads them after the
config's own, so they win, and they are part of the stage's key (the stage and those after it
run again). For instance the training stages of the DAgger recipe stop after minutes, so a
slower machine trains a weaker student; ``train.max_steps=454 train.max_minutes=null`` trains
the same number of steps on any machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
MANIFEST = "chain_stage.json"
PACKAGES = {"datagen": ("pipeline", "datagen"), "training": ("pipeline", "datagen", "training"),
            "eval": ("pipeline", "datagen", "eval"), "scripts": ("pipeline", "datagen",
                                                                 "training", "eval")}


@dataclass
class Stage:
    name: str
    command: list[str]  # argv after the Python interpreter, e.g. ["-m", "datagen", "record", ...]
    output: Path
    needs: list[str] = field(default_factory=list)

    @property
    def package(self) -> str:
        return self.command[1] if self.command[:1] == ["-m"] else "scripts"


def load_stages(path: Path) -> list[Stage]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    stages = []
    for name, spec in (data.get("stages") or {}).items():
        unknown = [n for n in spec.get("needs", []) if n not in {s.name for s in stages}]
        if unknown:
            raise SystemExit(f"error: {path}: stage {name} needs {unknown}, which do not come "
                             "before it")
        stages.append(Stage(name, shlex.split(spec["command"]), REPO / spec["output"],
                            list(spec.get("needs", []))))
    if not stages:
        raise SystemExit(f"error: {path}: no stages")
    return stages


def apply_overrides(stages: list[Stage], overrides: list[str]) -> None:
    """Append each ``STAGE.key=value`` to that stage's command (see module doc)."""
    names = [stage.name for stage in stages]
    for item in overrides:
        name, dot, setting = item.partition(".")
        if not dot or "=" not in setting or setting.startswith("="):
            raise SystemExit(f"error: override {item!r}: write it as STAGE.key=value "
                             "(e.g. train.max_steps=454)")
        if name not in names:
            raise SystemExit(f"error: override {item!r}: no stage {name!r} (stages: "
                             f"{', '.join(names)})")
        stages[names.index(name)].command.append(setting)


def code_hash(package: str) -> str:
    digest = hashlib.sha256()
    for folder in PACKAGES[package]:
        for file in sorted((REPO / folder).rglob("*.py")):
            digest.update(file.relative_to(REPO).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def stage_key(stage: Stage, upstream: dict[str, str]) -> str:
    digest = hashlib.sha256(json.dumps(stage.command).encode())
    for arg in stage.command:  # the content of config files the command names
        path = REPO / arg
        if arg.endswith((".yaml", ".yml")) and path.is_file():
            digest.update(path.read_bytes())
    for name in stage.needs:
        digest.update(upstream[name].encode())
    digest.update(code_hash(stage.package).encode())
    return digest.hexdigest()[:16]


def read_manifest(stage: Stage) -> dict[str, Any]:
    try:
        return json.loads((stage.output / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def write_manifest(stage: Stage, key: str, status: str, **extra: Any) -> None:
    stage.output.mkdir(parents=True, exist_ok=True)
    data = {"stage": stage.name, "key": key, "status": status,
            "command": " ".join(["python", *stage.command]), "needs": stage.needs, **extra}
    (stage.output / MANIFEST).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def run_stage(stage: Stage, key: str) -> None:
    manifest = read_manifest(stage)
    if manifest.get("key") == key and manifest.get("status") == "complete":
        where = stage.output.relative_to(REPO) if stage.output.is_relative_to(REPO) else stage.output
        print(f"[chain] {stage.name}: up to date, skipped ({where})")
        return
    if manifest and manifest.get("key") != key:  # inputs changed: the old output is stale
        print(f"[chain] {stage.name}: inputs changed, starting over")
        shutil.rmtree(stage.output)
    elif manifest:
        print(f"[chain] {stage.name}: resuming an unfinished run")
    write_manifest(stage, key, "running")
    print(f"[chain] {stage.name}: python {' '.join(stage.command)}", flush=True)
    started = time.perf_counter()
    status = subprocess.run([sys.executable, *stage.command], cwd=REPO, check=False).returncode
    if status != 0:
        raise SystemExit(f"[chain] {stage.name} failed (exit {status}); fix it and run the chain "
                         "again: finished stages are skipped, this one resumes")
    seconds = round(time.perf_counter() - started, 1)
    write_manifest(stage, key, "complete", seconds=seconds)
    print(f"[chain] {stage.name}: done in {seconds:.0f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", required=True, type=Path)
    parser.add_argument("overrides", nargs="*", metavar="STAGE.key=value",
                        help="appended to that stage's command (see module doc)")
    args = parser.parse_args(argv)
    stages = load_stages(args.config)
    apply_overrides(stages, args.overrides)
    keys: dict[str, str] = {}
    started = time.perf_counter()
    for stage in stages:
        keys[stage.name] = stage_key(stage, keys)
        run_stage(stage, keys[stage.name])
    print(f"[chain] all {len(stages)} stages done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
