"""Live success against training steps: students of the same records, played on the same episodes.

    python benchmarks/steps_curve.py outputs/eval/browsergym_grounded outputs/eval/browsergym_long \\
        outputs/eval/browsergym_round outputs/eval/browsergym_round60 [--name browsergym_steps]

Each argument is an eval folder (``python -m eval`` or ``eval_benchmark.py``) of one checkpoint
run; its ``results.json`` names the training run folder, whose ``metrics.json`` gives the
optimizer steps, the conversations they saw (steps x batch x accumulation), the epochs, the
minutes of steps and the dataset; a run that started from another run's adapter
(``init_adapter``: a DAgger round) counts that run's steps, conversations and minutes too.
Success is counted on the episodes every folder played (a task, its seed, and which of that
pair's repeats -- BrowserGym's rounds may draw a seed twice), for all of them and per group
(trained, held-out task, never recorded), with 95% Wilson intervals; each run is set against
the one before it on those episodes (how many only one of them finished, and the two-sided sign
test). The runs must share a dataset, or the curve
measures two things at once: a run on other records (their keys and contents, wherever the
folder) is refused unless ``--mixed``.

Writes ``benchmarks/results/<name>.json`` and the plot ``docs/images/<name>.png``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

from common import REPO, finish, machine_info, print_table

from eval.metrics import share, sign_test

GROUPS = ("trained", "heldout_task", "unseen")


def load_run(folder: Path) -> dict[str, Any]:
    """The eval folder's episodes (by shared key) and its checkpoint's training figures."""
    results = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    checkpoint = Path(results["config"]["checkpoint"])
    if not checkpoint.is_absolute():
        checkpoint = REPO / checkpoint
    runs = lineage(checkpoint)
    metrics = runs[-1]
    config = metrics["config"]
    rows = [json.loads(line) for line in (folder / "episodes.jsonl").open(encoding="utf-8")]
    rows.sort(key=lambda row: row.get("finished_at") or 0)
    repeats: Counter[tuple[str, int]] = Counter()
    episodes = {}
    for row in rows:
        pair = (row["task"], row["seed"])
        episodes[(*pair, repeats[pair])] = row
        repeats[pair] += 1
    return {
        "folder": str(folder), "checkpoint": str(results["config"]["checkpoint"]),
        "dataset": config["dataset_dir"],
        "records": records_digest(REPO / config["dataset_dir"], config["train_split"]),
        "steps": sum(int(run["train"]["global_step"]) for run in runs),
        "conversations": sum(int(run["train"]["global_step"]) * int(run["config"]["batch_size"])
                             * int(run["config"]["grad_accum"]) for run in runs),
        "stages": [int(run["train"]["global_step"]) for run in runs],
        "epochs": round(float(metrics["final_eval"].get("epoch", 0.0)), 3),
        "step_minutes": round(sum(float(run["train"].get("step_seconds", 0.0))
                                  for run in runs) / 60, 1),
        "exact_call_match": metrics["final_eval"].get("eval_exact_call_match"),
        "episodes": episodes,
    }


def lineage(run: Path) -> list[dict[str, Any]]:
    """The ``metrics.json`` of the training runs behind a run folder, first run first: a run that
    started from another's adapter (``init_adapter``) has that run's steps in it too."""
    if not (run / "metrics.json").is_file() and (run.parent / "metrics.json").is_file():
        run = run.parent  # an adapter/ or merged/ folder inside the run
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    start = metrics["config"].get("init_adapter")
    if not start:
        return [metrics]
    start_path = Path(start) if Path(start).is_absolute() else REPO / start
    return [*lineage(start_path), metrics]


def records_digest(dataset: Path, split: str) -> str:
    """A digest of the split's records, in key order: equal for the same records in another
    folder or other shards."""
    records = sorted(line.strip() for shard in sorted((dataset / "data" / split).glob("*.jsonl"))
                     for line in shard.open(encoding="utf-8") if line.strip())
    digest = hashlib.sha1()
    for record in records:
        digest.update(record.encode())
    return digest.hexdigest()[:12]


def curve(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Success per run and group on the shared episodes, and each run against the one before."""
    shared = sorted(set.intersection(*(set(run["episodes"]) for run in runs)))
    points, pairs = [], []
    for index, run in enumerate(runs):
        played = [run["episodes"][key] for key in shared]
        point = {k: v for k, v in run.items() if k != "episodes"}
        point["success"] = share(row["success"] for row in played).to_dict()
        point["groups"] = {group: share(row["success"] for row in played if row["group"] == group
                                        ).to_dict() for group in GROUPS}
        points.append(point)
        if index:
            before = runs[index - 1]["episodes"]
            only_new = sum(run["episodes"][k]["success"] and not before[k]["success"]
                           for k in shared)
            only_old = sum(before[k]["success"] and not run["episodes"][k]["success"]
                           for k in shared)
            pairs.append({"from": runs[index - 1]["steps"], "to": run["steps"],
                          "only_later": only_new, "only_earlier": only_old,
                          "sign_test_p": sign_test(only_new, only_old)})
    return {"episodes": len(shared), "points": points, "pairs": pairs}


def plot(result: dict[str, Any], out: Path, mixed: bool = False) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    seen = [p["conversations"] for p in result["points"]]
    for label, pick, style in [("all", lambda p: p["success"], "o-"),
                               *[(g, lambda p, g=g: p["groups"][g], "s--") for g in GROUPS]]:
        figures = [pick(p) for p in result["points"]]
        values = [100 * f["value"] for f in figures]
        errors = [[100 * (f["value"] - f["low"]) for f in figures],
                  [100 * (f["high"] - f["value"]) for f in figures]]
        n = figures[0]["n"]
        ax.errorbar(seen, values, yerr=errors if label == "all" else None, fmt=style,
                    capsize=3, label=f"{label} (n={n})", alpha=1.0 if label == "all" else 0.6)
    last = len(result["points"]) - 1
    for index, point in enumerate(result["points"]):
        run = f"{Path(point['checkpoint']).parent.name}: " if mixed else ""  # which records
        right = index == last  # the last label sits above, to the left, inside the axes
        ax.annotate(f"{run}{point['steps']} steps, {point['epochs']:.2f} ep",
                    (point["conversations"], 100 * point["success"]["value"]),
                    textcoords="offset points", xytext=(-6, 6) if right else (4, -12),
                    fontsize=8, ha="right" if right else "left")
    ax.set_xlabel("conversations trained on" + (" (other records)" if mixed else
                                                 " (the same records)"))
    ax.set_ylabel("episodes finished (%)")
    ax.set_title(f"Live success against training ({result['episodes']} shared episodes)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="eval folders, fewest steps first")
    parser.add_argument("--name", default="browsergym_steps")
    parser.add_argument("--mixed", action="store_true", help="allow runs on different datasets")
    args = parser.parse_args()
    runs = sorted((load_run(folder) for folder in args.folders), key=lambda run: run["steps"])
    datasets = sorted({run["dataset"] for run in runs})
    mixed = len({run["records"] for run in runs}) > 1
    if mixed and not args.mixed:
        raise SystemExit(f"the runs trained on different records ({datasets}): the curve would "
                         "mix records and steps (pass --mixed to draw it anyway)")
    result = curve(runs)
    image = REPO / "docs" / "images" / f"{args.name}.png"
    plot(result, image, mixed=mixed)
    print_table(f"Success on {result['episodes']} shared episodes",
                ["steps", "conversations", "epochs", "minutes", "all %", *GROUPS],
                [[p["steps"], p["conversations"], p["epochs"], p["step_minutes"],
                  100 * p["success"]["value"],
                  *(100 * p["groups"][g]["value"] for g in GROUPS)] for p in result["points"]])
    for pair in result["pairs"]:
        print(f"{pair['from']} -> {pair['to']} steps: {pair['only_later']} episodes finished "
              f"only by the later, {pair['only_earlier']} only by the earlier "
              f"(sign test p = {pair['sign_test_p']:.2g})")
    finish({"machine": machine_info(), "datasets": datasets, "plot": str(image.relative_to(REPO)),
            **result}, Path("benchmarks/results") / f"{args.name}.json")


if __name__ == "__main__":
    main()
