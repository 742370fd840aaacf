"""The DAgger recipe measured: what each stage cost, what each round changed, what the winner does.

    python benchmarks/recipe_benchmark.py [--config configs/chain/dagger.yaml] [--no-run]
                                          [--out benchmarks/results/recipe.json]

Runs the chain (``scripts/chain.py --config CONFIG``: finished stages are skipped, so on a chain
that already ran this only collects) unless ``--no-run``, then reads the stages' own outputs:
each stage's seconds (``chain_stage.json``), each training round's steps and held-out turn
metrics (``metrics.json``; the rounds are the chain's ``training`` stages in order), each DAgger
stage's episodes (``record_log.jsonl``: solved, labelled steps, steps where the student's action
agreed with the oracle's), the selection on the validation seeds (``select.json``: the rounds
per task family) and the winner's live evaluation on the test seeds (``results.json``, trained
and held-out tasks apart). Data and training are every stage before ``select``.
Targets (issue 18): new seeds of trained tasks >= 95%, every trained family >= 80%, held-out
tasks >= 50%, <= 6 s per episode on trained tasks, data + DAgger + training <= 90 minutes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from common import REPO, finish, machine_info
from targets import Target

AFTER_TRAINING = ("select", "eval", "report")  # the chain's stages that are not data or training
TRAINED_SUCCESS, FAMILY_SUCCESS, HELDOUT_SUCCESS = 0.95, 0.80, 0.50
SECONDS_PER_EPISODE, RECIPE_MINUTES = 6.0, 90.0


def read_json(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SystemExit(f"error: {path}: {exc.strerror}; run the recipe first") from None


def chain_stages(config: Path) -> dict[str, dict[str, Any]]:
    return yaml.safe_load(config.read_text(encoding="utf-8"))["stages"]


def stages_running(stages: dict[str, dict[str, Any]], command: str) -> list[str]:
    """The stages whose command starts with ``command`` (``-m training``), in chain order."""
    return [name for name, spec in stages.items() if spec["command"].startswith(command)]


def stage_seconds(outputs: dict[str, Path]) -> dict[str, float]:
    seconds = {}
    for name, folder in outputs.items():
        manifest = read_json(folder / "chain_stage.json")
        if manifest.get("status") != "complete":
            raise SystemExit(f"error: stage {name} is {manifest.get('status')!r}, not complete: "
                             "run the recipe to its end first")
        seconds[name] = manifest["seconds"]
    return seconds


def training_round(folder: Path) -> dict[str, Any]:
    metrics = read_json(folder / "metrics.json")
    final = metrics.get("final_eval", {})
    return {"steps": metrics["train"]["global_step"],
            "seconds_per_step": metrics["train"]["seconds_per_step"],
            "records": metrics["data"]["train"]["rendered"],
            # the rounds stop by minutes, so a faster machine passes over the records more often
            "epochs": final.get("epoch"),
            "exact_call_match": final.get("eval_exact_call_match"),
            "valid_call_rate": final.get("eval_valid_call_rate"),
            "held_out_turns": metrics["config"].get("final_eval_samples")}


def dagger_figures(folder: Path) -> dict[str, Any]:
    """Episodes the student played, solved, labelled steps, and agreement with the oracle."""
    rows = [json.loads(line) for line in
            (folder / "record_log.jsonl").read_text(encoding="utf-8").splitlines() if line]
    details = [r.get("detail") or {} for r in rows]
    acted = sum(d.get("student_acted", 0) for d in details)
    return {"episodes": len(rows), "solved": sum(bool(d.get("success")) for d in details),
            "labelled_steps": sum(r.get("steps", 0) for r in rows if r["status"] == "written"),
            "student_actions": acted, "agreed": sum(d.get("agreed", 0) for d in details),
            "seconds_per_episode": sum(r.get("seconds", 0) for r in rows) / max(len(rows), 1)}


def winner_targets(results: dict[str, Any], minutes: float) -> list[Target]:
    run = next(v for k, v in results["runs"].items() if k.startswith("checkpoint/"))
    trained, heldout = run["groups"].get("trained", {}), run["groups"].get("heldout_task", {})

    def share(figures: dict[str, Any], goal: float, name: str) -> Target:
        rate = figures.get("success_rate") or {}
        if not rate.get("n"):
            return Target(name, f">= {goal:.0%}", "no episodes", None)
        text = (f"{rate['value']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}] "
                f"(n={rate['n']})")
        gap = "" if rate["value"] >= goal else f"{100 * (goal - rate['value']):.1f} points short"
        return Target(name, f">= {goal:.0%}", text, rate["value"] >= goal, gap)

    families = {f: g["trained"]["value"] for f, g in run.get("per_family", {}).items()
                if "trained" in g and g["trained"].get("n")}
    low = sorted((v, f) for f, v in families.items() if v < FAMILY_SUCCESS)
    seconds = (trained.get("seconds_per_episode") or {}).get("value")
    return [
        share(trained, TRAINED_SUCCESS, "new seeds of trained tasks"),
        Target("every trained family", f">= {FAMILY_SUCCESS:.0%}",
               f"{len(families) - len(low)} of {len(families)} families"
               + (f"; below: {', '.join(f'{f} {v:.0%}' for v, f in low)}" if low else ""),
               not low and bool(families)),
        share(heldout, HELDOUT_SUCCESS, "tasks held out of training"),
        Target("mean episode time, trained tasks", f"<= {SECONDS_PER_EPISODE:g} s",
               "–" if seconds is None else f"{seconds:.1f} s",
               None if seconds is None else seconds <= SECONDS_PER_EPISODE),
        Target("recipe: data + DAgger + training", f"<= {RECIPE_MINUTES:g} min",
               f"{minutes:.1f} min of stage time", minutes <= RECIPE_MINUTES),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", type=Path, default=Path("configs/chain/dagger.yaml"))
    parser.add_argument("--no-run", action="store_true", help="collect only")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/recipe.json"))
    args = parser.parse_args()
    if not args.no_run:
        subprocess.run([sys.executable, "scripts/chain.py", "--config", str(args.config)],
                       cwd=REPO, check=True)
    stages = chain_stages(REPO / args.config)
    outputs = {name: REPO / spec["output"] for name, spec in stages.items()}
    seconds = stage_seconds(outputs)
    minutes = sum(v for name, v in seconds.items() if name not in AFTER_TRAINING) / 60
    evaluation = read_json(outputs["eval"] / "results.json")
    rounds = stages_running(stages, "-m training")
    payload = {
        "machine": machine_info(), "chain": str(args.config), "stage_seconds": seconds,
        "rounds": {f"round {i}": training_round(outputs[name])
                   for i, name in enumerate(rounds, start=1)},
        "dagger": {name: dagger_figures(outputs[name])
                   for name in stages_running(stages, "-m datagen dagger")},
        "select": read_json(outputs["select"] / "select.json"),
        "eval": evaluation, "eval_command": evaluation["command"],
        "targets": [t.to_dict() for t in winner_targets(evaluation, minutes)],
    }
    finish(payload, args.out)


if __name__ == "__main__":
    main()
