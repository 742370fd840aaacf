"""results.json -> report.md and PNG plots.

    write_report(out, results)     # report.md and, with KEY success_rate (live) or step_sr
                                   # (offline): KEY_by_run.png (the headline, with intervals),
                                   # KEY_by_task.png / KEY_by_website.png, tokens_by_run.png,
                                   # KEY_vs_tokens.png

Tables give each run's figures with their 95% intervals; groups (live: trained tasks' held-out
seeds vs tasks held out of training; offline: splits) are reported apart, never pooled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

LIVE_COLUMNS = (("success_rate", "success", True), ("mean_reward", "reward", False),
                ("valid_call_rate", "valid calls", True), ("steps_per_episode", "steps", False),
                ("tool_calls_per_step", "queries/step", False),
                ("prompt_tokens_per_step", "prompt tok/step", False),
                ("observation_tokens_per_step", "obs tok/step", False),
                ("seconds_per_episode", "s/episode", False))
OFFLINE_COLUMNS = (("element_accuracy", "Ele.Acc", True), ("operation_f1", "Op.F1", True),
                   ("step_sr", "Step SR", True), ("task_sr", "Task SR", True),
                   ("valid_call_rate", "valid calls", True),
                   ("tool_calls_per_step", "queries/step", False),
                   ("prompt_tokens_per_step", "prompt tok/step", False),
                   ("observation_tokens_per_step", "obs tok/step", False),
                   ("seconds_per_step", "s/step", False))


def cell(figure: dict[str, Any] | None, percent: bool) -> str:
    if not figure or not figure.get("n"):
        return "–"
    if percent:
        return (f"{100 * figure['value']:.1f}% [{100 * figure['low']:.1f}, "
                f"{100 * figure['high']:.1f}] (n={figure['n']})")
    return f"{figure['value']:.1f} ± {(figure['high'] - figure['low']) / 2:.1f}"


def table(runs: dict[str, Any], columns, group: str | None) -> list[str]:
    head = "| run | " + " | ".join(name for _, name, _ in columns) + " |"
    lines = [head, "|" + "---|" * (len(columns) + 1)]
    for run, data in runs.items():
        figures = data["aggregate"] if group is None else data["groups"].get(group)
        if not figures:
            continue
        lines.append(f"| {run} | " + " | ".join(cell(figures.get(key), pct)
                                                 for key, _, pct in columns) + " |")
    return lines


def family_gap(runs: dict[str, Any]) -> list[str]:
    """Success on trained vs held-out tasks of each family that has both (the generalisation
    gap, in points); [] when no run played a held-out task."""
    rows = []
    for run, data in runs.items():
        for family, groups in data.get("per_family", {}).items():
            trained, held = groups.get("trained"), groups.get("heldout_task")
            if trained and held:
                gap = 100 * (trained["value"] - held["value"])
                rows.append(f"| {run} | {family} | {cell(trained, True)} | {cell(held, True)} | "
                            f"{gap:+.1f} |")
    if not rows:
        return []
    return ["## Trained vs held-out tasks per family", "",
            "| run | family | trained | heldout_task | gap (points) |", "|---|---|---|---|---|",
            *rows, ""]


def write_report(out: Path, results: dict[str, Any]) -> Path:
    live = results["benchmark"] in ("miniwob", "browsergym")
    columns = LIVE_COLUMNS if live else OFFLINE_COLUMNS
    runs = results["runs"]
    groups = sorted({g for data in runs.values() for g in data["groups"]})
    where = (f"`{results['command']}` — commit `{(results.get('git_commit') or '?')[:10]}`, "
             f"{results['machine']['processor']} ({results['machine']['cpus']} CPUs), "
             f"{results['created']}.")
    lines = [f"# Evaluation: {results['benchmark']}", "", where, ""]
    for note in results.get("notes", []):
        lines.append(f"- {note}")
    lines += ["", "## All episodes" if live else "## All steps", "",
              *table(runs, columns, None), ""]
    for group in groups:
        lines += [f"## {group}", "", *table(runs, columns, group), ""]
    if live:
        lines += family_gap(runs)
    for name, rows in results.get("reference_rows", {}).items():
        lines += [f"## {name}", "", "| agent | success | n |", "|---|---|---|",
                  *[f"| {r['agent']} | {r['success']} | {r['n']} |" for r in rows], ""]
    generation = {run: d["generation"] for run, d in runs.items() if d.get("generation")}
    if generation:
        lines += ["## Generation", "", "| run | prompts | generated tokens | tokens/s | bf16 |",
                  "|---|---|---|---|---|"]
        lines += [f"| {run} | {g['prompts']} | {g['generated_tokens']} | {g['tokens_per_s']} | "
                  f"{g['bf16']} |" for run, g in generation.items()]
        lines.append("")
    for image in plot(out, results, live):
        lines += [f"![{image.stem}]({image.name})", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def plot(out: Path, results: dict[str, Any], live: bool) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = "success_rate" if live else "step_sr"
    runs = results["runs"]
    made = [_by_run(out, runs, key, plt), _per_item(out, runs, key, live, plt),
            _tokens_by_run(out, runs, plt), _against_tokens(out, runs, key, plt)]
    return [path for path in made if path is not None]


def _by_run(out: Path, runs: dict[str, Any], key: str, plt) -> Path:
    """The headline: each run's figure with its 95% interval, all episodes and each group."""
    found = {g for d in runs.values() for g in d["groups"]}
    known = [g for g in ("trained", "heldout_task", "unseen") if g in found]
    groups = ["all", *known, *sorted(found - set(known))]
    names = list(runs)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names) * len(groups) / 2 + 3), 4))
    width = 0.8 / len(groups)
    for i, group in enumerate(groups):
        figures = [(d["aggregate"] if group == "all" else d["groups"].get(group, {})).get(key)
                   for d in runs.values()]
        xs = [x + i * width for x in range(len(names))]
        values = [f["value"] if f and f.get("n") else 0.0 for f in figures]
        errors = [[v - (f["low"] if f and f.get("n") else v) for v, f in zip(values, figures)],
                  [(f["high"] if f and f.get("n") else v) - v for v, f in zip(values, figures)]]
        ax.bar(xs, values, width, yerr=errors, capsize=3, label=group)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(names))], names, rotation=25,
                  fontsize=7, ha="right")
    return _finish_share(fig, ax, key, "by run (95% intervals)", out / f"{key}_by_run.png", plt)


def _per_item(out: Path, runs: dict[str, Any], key: str, live: bool, plt) -> Path | None:
    """Success per task (live) or per website (offline), one bar per run."""
    per = "per_task" if live else "per_website"
    items = sorted({t for d in runs.values() for t in d.get(per, {})})
    if not items:
        return None
    fig, ax = plt.subplots(figsize=(max(8, 0.32 * len(items) * max(1, len(runs))), 4.5))
    width = 0.8 / max(1, len(runs))
    for i, (run, data) in enumerate(runs.items()):
        values = [data.get(per, {}).get(t, {}).get(key, {}).get("value", 0) for t in items]
        ax.bar([x + i * width for x in range(len(items))], values, width, label=run)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(items))], items, rotation=75,
                  fontsize=7)
    item = "task" if live else "website"
    return _finish_share(fig, ax, key, f"per {item}", out / f"{key}_by_{item}.png", plt)


def _finish_share(fig, ax, key: str, title: str, path: Path, plt) -> Path:
    """Label a bar chart of a share (0..1) of ``key``, title it and save it."""
    ax.set_ylabel(key.replace("_", " "))
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=7)
    ax.set_title(f"{key.replace('_', ' ')} {title}")
    fig.tight_layout()
    return _save(fig, path, plt)


def _tokens_by_run(out: Path, runs: dict[str, Any], plt) -> Path:
    fig, ax = plt.subplots(figsize=(7, 3.8))
    names = list(runs)
    obs = [runs[r]["aggregate"]["observation_tokens_per_step"]["value"] for r in names]
    prompt = [runs[r]["aggregate"]["prompt_tokens_per_step"]["value"] for r in names]
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], obs, 0.4, label="observation (first prompt's page part)")
    ax.bar([x + 0.2 for x in xs], prompt, 0.4, label="model prompt tokens (all turns)")
    ax.set_xticks(list(xs), names, rotation=30, fontsize=7, ha="right")
    ax.set_ylabel("tokens per step")
    ax.legend(fontsize=7)
    ax.set_title("tokens per step by run")
    fig.tight_layout()
    return _save(fig, out / "tokens_by_run.png", plt)


def _against_tokens(out: Path, runs: dict[str, Any], key: str, plt) -> Path:
    fig, ax = plt.subplots(figsize=(6, 4))
    for run, data in runs.items():
        agg = data["aggregate"]
        ax.scatter(agg["observation_tokens_per_step"]["value"], agg[key]["value"])
        ax.annotate(run, (agg["observation_tokens_per_step"]["value"], agg[key]["value"]),
                    fontsize=7)
    ax.set_xlabel("observation tokens per step")
    ax.set_ylabel(key.replace("_", " "))
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"{key.replace('_', ' ')} against tokens")
    fig.tight_layout()
    return _save(fig, out / f"{key}_vs_tokens.png", plt)


def _save(fig, path: Path, plt) -> Path:
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
