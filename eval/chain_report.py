"""The main job's report: what the chain made, in one markdown page and the same in the terminal.

    python -m eval chain-report --dataset D --training T --eval E --out R

Reads the stages' own outputs -- datagen build's ``manifest.json`` (steps, accepted per verifier
stage, rejects by reason), training's ``metrics.json`` and ``training_curves.png``, eval's
``results.json`` and plots -- and writes ``R/report.md`` with the figures every run of the chain
should show: the dataset, the training curve and final metrics, and live success for oracle,
random, the untuned base model and the fine-tuned model with 95% intervals, tokens per step by
mode, held-out tasks apart.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from eval.report import cell
from pipeline.errors import FormatError

EVAL_COLUMNS = (("success_rate", "success", True), ("valid_call_rate", "valid calls", True),
                ("steps_per_episode", "steps", False),
                ("observation_tokens_per_step", "obs tokens/step", False),
                ("prompt_tokens_per_step", "prompt tokens/step", False),
                ("seconds_per_episode", "s/episode", False))


def _json(path: Path, what: str) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: the {what} is missing ({exc.strerror}); run that stage "
                          "first") from exc


def dataset_lines(manifest: dict[str, Any]) -> list[str]:
    verify = manifest["verify"]
    splits = ", ".join(f"{k} {v}" for k, v in sorted(manifest["splits"].items()))
    head = (f"{manifest['this_run']['steps']} steps -> {manifest['accepted']} accepted "
            f"trajectories; splits: {splits}")
    lines = [head, "", "| verifier stage | passed | failed | skipped |", "|---|---|---|---|"]
    lines += [f"| {s['stage']} | {s['passed']} | {s['failed']} | {s['skipped']} |"
              for s in verify["stages"]]
    rejects = [r for r in verify["reasons"] if r["status"] == "fail"]
    if rejects:
        lines += ["", "| rejected at | reason | count | example |", "|---|---|---|---|"]
        lines += [f"| {r['stage']} | {r['code']} | {r['count']} | {r['example'][:80]} |"
                  for r in rejects]
    return lines


def training_lines(metrics: dict[str, Any]) -> list[str]:
    final = metrics.get("final_eval") or {}
    train = metrics.get("train") or {}
    keys = ("eval_loss", "eval_functional_token_accuracy", "eval_valid_call_rate",
            "eval_exact_call_match")
    head = (f"{train.get('global_step', '?')} optimizer steps in "
            f"{train.get('step_seconds', 0) / 60:.1f} min; final evaluation on the held-out turns:")
    lines = [head, "", "| metric | value |", "|---|---|"]
    lines += [f"| {k.removeprefix('eval_')} | {final[k]:.4g} |" for k in keys if k in final]
    return lines


def eval_lines(results: dict[str, Any]) -> list[str]:
    runs = results["runs"]
    groups = sorted({g for d in runs.values() for g in d["groups"]})
    out = []
    for scope in [None, *groups]:
        out += ["", f"**{scope or 'all episodes'}**", "",
                "| run | " + " | ".join(name for _, name, _ in EVAL_COLUMNS) + " |",
                "|" + "---|" * (len(EVAL_COLUMNS) + 1)]
        for run, data in runs.items():
            figures = data["aggregate"] if scope is None else data["groups"].get(scope)
            if figures:
                out.append(f"| {run} | " + " | ".join(cell(figures.get(k), pct)
                                                       for k, _, pct in EVAL_COLUMNS) + " |")
    return out


def margin_lines(results: dict[str, Any]) -> list[str]:
    """Whether each fine-tuned run beats the random policy, the engine's planner (no model) and
    the untuned base model on live success by more than the 95% intervals: its interval's low
    end above theirs' high end."""
    runs = results["runs"]
    rates = {run: data["aggregate"].get("success_rate") or {} for run, data in runs.items()}
    baselines = [run for run in runs if run.split("/")[0] in ("random", "planner", "base")]
    lines = []
    for run in runs:
        if run.split("/")[0] != "checkpoint" or not rates[run].get("n"):
            continue
        ours = rates[run]
        for other in baselines:
            theirs = rates[other]
            if not theirs.get("n"):
                continue
            verdict = ("beats it beyond the intervals" if ours["low"] > theirs["high"] else
                       "loses to it beyond the intervals" if theirs["low"] > ours["high"] else
                       "the intervals overlap (not a clear win)")
            lines.append(f"- {run} {cell(ours, True)} against {other} {cell(theirs, True)}: "
                         + verdict)
    return lines


def write_chain_report(dataset: Path, training: Path, evaluation: Path, out: Path) -> Path:
    manifest = _json(dataset / "manifest.json", "dataset manifest")
    metrics = _json(training / "metrics.json", "training metrics")
    results = _json(evaluation / "results.json", "eval results")
    out.mkdir(parents=True, exist_ok=True)
    images = []
    for source in [training / "training_curves.png", *sorted(evaluation.glob("*.png"))]:
        if source.is_file():
            shutil.copy2(source, out / source.name)
            images.append(source.name)
    lines = ["# pagescout: the chain's report", "",
             f"Dataset `{dataset}`, model `{training}`, evaluation `{evaluation}`.", "",
             "## Dataset", "", *dataset_lines(manifest), "", "## Training", "",
             *training_lines(metrics), "", "## Live evaluation (MiniWoB++)", "",
             *[f"- {note}" for note in results.get("notes", [])], *eval_lines(results), "",
             "**The fine-tuned model against the baselines** (live success, 95% intervals):", "",
             *margin_lines(results), ""]
    lines += [f"![{name.removesuffix('.png')}]({name})" for name in images]
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def print_chain_report(path: Path) -> None:
    from rich.console import Console
    from rich.markdown import Markdown

    text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if not line.startswith("!["))
    Console().print(Markdown(text))
