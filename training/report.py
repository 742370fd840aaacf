"""What a training run leaves next to its adapter: ``train_log.jsonl``, ``metrics.json``,
``training_curves.png``, a ``README.md`` model card and the final evaluation's
``generations.jsonl``.

``JsonlLog`` mirrors the trainer's log history (training logs, evaluations, generation metrics)
into ``train_log.jsonl`` as it grows; a resumed run rewrites the file from the restored history
first, so the file always matches the run's own record. The plot and the card are pure functions
of that history and the run's summary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

LOG_FILE = "train_log.jsonl"
METRICS_FILE = "metrics.json"
PLOT_FILE = "training_curves.png"
CARD_FILE = "README.md"
GENERATIONS_FILE = "generations.jsonl"


class JsonlLog(TrainerCallback):
    """Append new ``state.log_history`` entries to ``<output_dir>/train_log.jsonl``."""

    def __init__(self, output_dir: str | Path) -> None:
        self.path = Path(output_dir) / LOG_FILE
        self.written = 0

    def on_train_begin(self, args, state, control, **kwargs):
        if state.is_world_process_zero:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text("", encoding="utf-8")
            self.written = 0
            self._flush(state)

    def on_log(self, args, state, control, **kwargs):
        self._flush(state)

    def on_evaluate(self, args, state, control, **kwargs):
        self._flush(state)

    def on_train_end(self, args, state, control, **kwargs):
        self._flush(state)

    def _flush(self, state) -> None:
        if not state.is_world_process_zero:
            return
        entries = state.log_history[self.written:]
        if entries:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.writelines(json.dumps(entry) + "\n" for entry in entries)
        self.written = len(state.log_history)


def curves(history: list[dict[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """(step, value) series for the plot: train loss, eval loss and the held-out accuracies."""
    keys = {"loss": "train loss", "eval_loss": "eval loss",
            "eval_functional_token_accuracy": "functional-token accuracy",
            "eval_valid_call_rate": "valid-call rate", "eval_exact_call_match": "exact-call match"}
    series: dict[str, list[tuple[int, float]]] = {label: [] for label in keys.values()}
    for entry in history:
        for key, label in keys.items():
            if key in entry:
                series[label].append((int(entry["step"]), float(entry[key])))
    return series


def plot_curves(history: list[dict[str, Any]], path: str | Path) -> Path:
    """Loss (left) and held-out accuracies (right) against the training step."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = curves(history)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    for ax, labels, title in ((left, ("train loss", "eval loss"), "loss"),
                              (right, ("functional-token accuracy", "valid-call rate",
                                       "exact-call match"), "held-out accuracy")):
        for label in labels:
            if series[label]:
                steps, values = zip(*series[label], strict=True)
                ax.plot(steps, values, marker="." if len(steps) < 30 else None, label=label)
        ax.set_xlabel("step")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=8)
    right.set_ylim(-0.02, 1.02)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)


def write_generations(path: str | Path, rows: list[dict[str, Any]]) -> Path:
    """One JSON line per held-out turn of the final evaluation (what the model wrote, and why it
    counted or not)."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    return Path(path)


def by_website(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Turns, valid-call rate and exact-call match per website of the final evaluation's rows,
    worst exact match first: where the model still fails."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(row.get("website") or "(none)", []).append(row)
    table = {site: {"turns": len(group),
                    "valid_call_rate": sum(r["valid"] for r in group) / len(group),
                    "exact_call_match": sum(r["exact"] for r in group) / len(group)}
             for site, group in groups.items()}
    return dict(sorted(table.items(), key=lambda item: (item[1]["exact_call_match"], item[0])))


def write_metrics(path: str | Path, summary: dict[str, Any]) -> Path:
    Path(path).write_text(json.dumps(summary, indent=2, default=str) + "\n", encoding="utf-8")
    return Path(path)


def model_card(summary: dict[str, Any]) -> str:
    """A short markdown card: base model, data, config, final metrics, how to load it."""
    cfg = summary["config"]
    final = summary.get("final_eval") or {}
    rows = "\n".join(f"| {key} | {value:.4f} |" if isinstance(value, float) else
                     f"| {key} | {value} |" for key, value in sorted(final.items()))
    sites = summary.get("final_by_website") or {}
    site_rows = "\n".join(f"| {site} | {m['turns']} | {m['valid_call_rate']:.1%} | "
                          f"{m['exact_call_match']:.1%} |" for site, m in sites.items())
    lora = cfg["lora"]
    return f"""# pagescout tool-calling adapter

LoRA adapter (rank {lora['rank']}, alpha {lora['alpha']}, on {', '.join(lora['target_modules'])})
plus trained rows for the functional tokens {' '.join(summary['functional_tokens'])} of the base
model `{summary['base_model']}`. Trained with pagescout's `training` stage: completion-only,
weighted cross-entropy (W = {cfg['loss_weight']} on functional tokens,
{cfg.get('first_token_weight', 1.0)} on each answer's first token).

- Data: `{cfg['dataset_dir']}` split `{cfg['train_split']}` ({summary['data']['train']['rendered']}
  conversations, {summary['data']['train']['tokens']} tokens); held-out split `{cfg['eval_split']}`.
- Steps: {summary['train']['global_step']} in {summary['train']['step_seconds'] / 60:.1f} min of
  training ({summary['train']['seconds'] / 60:.1f} min with evaluations), precision
  {summary['precision']}, max_length {cfg['max_length']}.

## Held-out metrics (final)

| metric | value |
|---|---|
{rows or '| (no evaluation) | |'}

By website (worst exact match first):

| website | turns | valid calls | exact calls |
|---|---|---|---|
{site_rows or '| (no generation) | | | |'}

## Use

```python
from pipeline.model.trained import load_trained
model, tokenizer = load_trained("{summary['adapter_dir']}")
```

Prompts are rendered with `pipeline.model.render.render_prompt`; decode with
`skip_special_tokens=False` and parse with `pipeline.tools.parse_calls`.
"""
