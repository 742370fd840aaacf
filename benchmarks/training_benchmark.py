"""Training on this CPU: speed per precision, and held-out tool-call quality against steps per W.

    python benchmarks/training_benchmark.py --speed fp32 bf16 --speed-steps 10   # speed runs
    python benchmarks/training_benchmark.py --layouts 1x2 2x1p 2x1p128 --speed-steps 180
    python benchmarks/training_benchmark.py --weights 5                           # quality run
    python benchmarks/training_benchmark.py --curves 5 1 --curve-steps 60         # W curves
    python benchmarks/training_benchmark.py --rows 40                            # token rows A/B
    python benchmarks/training_benchmark.py --casts 40                      # frozen weights A/B
    python benchmarks/training_benchmark.py --runs runs/training/bench-w5 ...     # summarise only
                                            [--out benchmarks/results/training.json]

Every run is ``python -m training --config configs/training/smollm2-135m-cpu.yaml`` (datagen's
default MiniWoB++ dataset; held-out ``test_task`` = unseen seeds of the training tasks):

- a speed run adds ``precision=P max_steps=N eval_split=null``: seconds per optimizer step,
  tokens per second and peak RSS, with nothing but training in the process; a layout run is a
  speed run of one micro-batch layout, ``BxA`` (B conversations a forward, A forwards
  accumulated a step) padded, or ``BxAp`` packed into one row, ``BxApM`` with the row's length
  rounded up to a multiple of M (long enough runs show the slowdown of unrounded lengths):
  conversations per second;
- a quality run is the default config with ``loss_weight=W``: the held-out functional-token
  accuracy, valid-call rate and exact-call match (all, query turns, action turns) at every
  evaluation, and the final evaluation over every held-out turn. Minutes are training minutes
  (``step_seconds``: optimizer steps only; evaluations are reported apart);
- the token-rows A/B times one training conversation (forward and backward, the LM head on the
  answer positions as in training) with ``pipeline.model.token_rows``' forward and with peft's own
  (a merged copy of the vocabulary matrix), on the same N training conversations, alternating
  in one process;
- the frozen-weights A/B times one training conversation under bf16 autocast with the frozen
  weights stored in fp32 (cast on every forward) and in bf16 (``bf16_linear_weights(model,
  frozen_only=True)``, as training does in bf16), on the same N conversations, alternating;
- a curve run is a short run of the same config for each W (``max_steps=N``: warmup, then the
  cosine decay over N steps; evaluation every few steps: loss and token accuracy on 32
  conversations, 8 generated turns): the first step with >= 95% held-out functional-token
  accuracy.

Target (issue 5): the default config reaches >= 99% valid calls and >= 90% exact-call match on
the held-out seeds within 30 minutes of training. Writes the JSON and a W=1 vs W=5 plot.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from common import REPO, finish, machine_info, print_table
from targets import Target

CONFIG = "configs/training/smollm2-135m-cpu.yaml"
VALID, EXACT, MINUTES = 0.99, 0.90, 30.0
PLOT = REPO / "docs" / "images" / "training_w1_w5.png"  # the W curves
RUNS_PLOT = REPO / "docs" / "images" / "training_runs.png"  # quality runs side by side
QUALITY = ("eval_functional_token_accuracy", "eval_valid_call_rate", "eval_exact_call_match",
           "eval_exact_query_call", "eval_exact_action_call")


def train(name: str, overrides: list[str], fresh: bool = False) -> Path:
    """Run one training into runs/training/bench-NAME; ``fresh``: discard a previous run there
    first (a speed run must time its steps, not resume past them)."""
    out = REPO / "runs" / "training" / f"bench-{name}"
    if fresh:
        shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "training", "--config", CONFIG, "--output-dir", str(out),
               *overrides]
    print("running:", " ".join(command), flush=True)
    subprocess.run(command, cwd=REPO, check=True)
    return out


def _model_and_examples(conversations: int, dataset: str | None) -> tuple:
    """The default config's model with LoRA and token rows (training mode), and N + 2 rendered
    training conversations (two for warm-up)."""
    from pipeline.model.functional_tokens import add_functional_tokens
    from pipeline.model.hf import load_causal_lm, resolve_model
    from training.config import load_training_config
    from training.data import RenderSettings, load_split, render_records
    from training.lora import with_lora

    cfg = load_training_config(REPO / CONFIG, [f"dataset_dir={dataset}"] if dataset else [])
    model, tokenizer = load_causal_lm(resolve_model(cfg.model), dtype="float32")
    ids = add_functional_tokens(model, tokenizer)
    model = with_lora(model, cfg.lora, ids).train()
    records, _ = load_split(REPO / cfg.dataset_dir, cfg.train_split, conversations + 2)
    examples, _ = render_records(records, tokenizer,
                                 RenderSettings(cfg.max_length, cfg.loss_weight, tuple(ids)))
    return model, examples


def _train_step(model, example: dict, bf16: bool = False) -> float:
    """Seconds of one conversation's forward and backward, the LM head on the answer positions
    as in training."""
    import time

    import torch

    from training.trainer import predicted_positions, weighted_cross_entropy

    batch = {k: torch.tensor([example[k]]) for k in ("input_ids", "labels", "loss_weights")}
    start = time.perf_counter()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        logits = model(input_ids=batch["input_ids"], use_cache=False,
                       logits_to_keep=predicted_positions(batch["labels"])).logits
        loss = weighted_cross_entropy(logits, batch["labels"], batch["loss_weights"])
    loss.backward()
    model.zero_grad(set_to_none=True)
    return time.perf_counter() - start


def _alternating(examples: list[dict], runs: dict) -> dict:
    """Mean seconds per conversation of each ``name -> step(example)``, taking turns on every
    example (the order flips each time) after one warm-up conversation each."""
    names = list(runs)
    for name, example in zip(names, examples):
        runs[name](example)
    seconds = dict.fromkeys(names, 0.0)
    for i, example in enumerate(examples[2:]):
        for name in names if i % 2 == 0 else names[::-1]:
            seconds[name] += runs[name](example)
    return {name: s / max(1, len(examples) - 2) for name, s in seconds.items()}


def row_forward_ab(conversations: int, dataset: str | None) -> dict:
    """Seconds per training conversation with the row forward and with peft's (see above)."""
    from peft.tuners.trainable_tokens.layer import TrainableTokensLayer

    from pipeline.model.token_rows import RowTokensLayer

    model, examples = _model_and_examples(conversations, dataset)
    layers = [m for m in model.modules() if isinstance(m, TrainableTokensLayer)]

    def step(kind: type):
        def run(example: dict) -> float:
            for layer in layers:
                layer.__class__ = kind
            return _train_step(model, example)
        return run

    seconds = _alternating(examples, {"rows": step(RowTokensLayer),
                                      "peft": step(TrainableTokensLayer)})
    n = len(examples) - 2
    tokens = sum(len(e["input_ids"]) for e in examples[2:]) / n
    return {"conversations": n, "mean_tokens": round(tokens), "rows_s": round(seconds["rows"], 3),
            "peft_s": round(seconds["peft"], 3),
            "speedup": round(seconds["peft"] / seconds["rows"], 2)}


def frozen_bf16_ab(conversations: int, dataset: str | None) -> dict:
    """Seconds per training conversation under bf16 autocast with the frozen weights stored in
    fp32 (autocast casts them every forward) and in bf16 (what training does): one model and
    its converted copy, taking turns on the same conversations (tests/training/test_frozen_bf16.py
    shows the two give the same loss and gradients)."""
    import copy

    from pipeline.model.generate import bf16_linear_weights

    model, examples = _model_and_examples(conversations, dataset)
    stored = copy.deepcopy(model)
    bf16_linear_weights(stored, frozen_only=True)
    seconds = _alternating(examples, {"fp32": lambda e: _train_step(model, e, bf16=True),
                                      "bf16": lambda e: _train_step(stored, e, bf16=True)})
    n = len(examples) - 2
    return {"conversations": n, "fp32_weights_s": round(seconds["fp32"], 3),
            "bf16_weights_s": round(seconds["bf16"], 3),
            "speedup": round(seconds["fp32"] / seconds["bf16"], 2)}


def layout_overrides(layout: str) -> list[str]:
    """``"2x1p128"`` -> ``batch_size=2 grad_accum=1 packing=true pad_to_multiple_of=128``
    (``p``: packed, else padded; a trailing number rounds the length up to its multiples)."""
    match = re.fullmatch(r"(\d+)x(\d+)(p?)(\d*)", layout)
    if not match:
        raise SystemExit(f"error: layout {layout!r} is not BxA[p][M] (e.g. 1x2, 2x1p, 2x1p128)")
    return [f"batch_size={match[1]}", f"grad_accum={match[2]}",
            f"packing={'true' if match[3] else 'false'}",
            f"pad_to_multiple_of={match[4] or 'null'}"]


def _layout(cfg: dict) -> str:
    return (f"{cfg['batch_size']}x{cfg['grad_accum']}{'p' if cfg.get('packing') else ''}"
            f"{cfg.get('pad_to_multiple_of') or ''}")


def summarise(run: Path) -> dict:
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    log = [json.loads(line) for line in (run / "train_log.jsonl").read_text().splitlines()
           if line.strip()]
    merged: dict[int, dict] = {}  # eval loss/accuracy and generation metrics log apart
    for entry in log:
        if any(k.startswith("eval_") for k in entry):
            merged.setdefault(entry["step"], {"step": entry["step"]}).update(entry)
    evals = [{k: v for k, v in merged[s].items() if k == "step" or k.startswith("eval_")}
             for s in sorted(merged)]
    train = metrics["train"]
    steps = train["global_step"]
    seconds = train["step_seconds"]
    reached = next((e["step"] for e in evals
                    if e.get("eval_functional_token_accuracy", 0) >= 0.95), None)
    return {
        "run": str(run), "kind": _kind(run, metrics),
        "loss_weight": metrics["config"]["loss_weight"],
        "first_token_weight": metrics["config"].get("first_token_weight", 1.0),
        "precision": metrics["precision"], "steps": steps, "layout": _layout(metrics["config"]),
        "epochs": round(steps / max(1, _steps_per_epoch(metrics)), 2),
        "steps_per_epoch": _steps_per_epoch(metrics),
        "train_minutes": round(seconds / 60, 1), "wall_minutes": round(train["seconds"] / 60, 1),
        "stopped_by_time": train.get("stopped_by_time"),
        "seconds_per_step": round(train["seconds_per_step"], 2),
        "conversations_per_s": round(_per_step(metrics["config"]) / train["seconds_per_step"], 3),
        "tokens_per_s": round(train["tokens_per_second"], 1),
        "peak_rss_mb": round(train["peak_rss_mb"]),
        "steps_to_95_token_accuracy": reached,
        "evals": evals,
        "final": metrics["final_eval"],
        "by_website": metrics.get("final_by_website", {}),
    }


def _kind(run: Path, metrics: dict) -> str:
    """speed (no evaluation), curve (a short run for the W comparison) or quality."""
    if not metrics["final_eval"]:
        return "speed"
    return "curve" if run.name.startswith("bench-curve") else "quality"


def _per_step(cfg: dict) -> int:
    return cfg["batch_size"] * cfg["grad_accum"]


def _steps_per_epoch(metrics: dict) -> int:
    return -(-metrics["data"]["train"]["rendered"] // _per_step(metrics["config"]))


def targets(runs: list[dict]) -> list[Target]:
    out = []
    for run in runs:
        final = run["final"]
        valid = final.get("eval_valid_call_rate")
        exact = final.get("eval_exact_call_match")
        if valid is None or exact is None:
            continue
        minutes = run["train_minutes"]
        turns = int(final.get("eval_generated", 0))
        measured = (f"valid {valid:.1%}, exact {exact:.1%} on {turns} held-out turns after "
                    f"{run['steps']} steps ({minutes:.0f} min of training)")
        over = minutes - run["seconds_per_step"] / 60 > MINUTES  # the budget ends after a step
        met = valid >= VALID and exact >= EXACT and not over
        gaps = [f"valid {VALID - valid:.1%} short" if valid < VALID else "",
                f"exact {EXACT - exact:.1%} short" if exact < EXACT else "",
                f"{minutes - MINUTES:.0f} min over" if over else ""]
        out.append(Target(f"SmolLM2-135M on CPU, W={run['loss_weight']:g}",
                          f">= {VALID:.0%} valid calls, >= {EXACT:.0%} exact, <= {MINUTES:.0f} min",
                          measured, met, "; ".join(g for g in gaps if g)))
    return out


def plot(runs: list[dict], path: Path, by_run: bool = False) -> Path | None:
    """Held-out functional-token accuracy and exact-call match against steps, one line per W
    (``by_run``: per run, named by its folder, against epochs: runs may differ in batch size)."""
    runs = [r for r in runs if r["evals"]]
    if not runs:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    panels = (("eval_functional_token_accuracy", "functional-token accuracy"),
              ("eval_valid_call_rate", "valid-call rate"),
              ("eval_exact_call_match", "exact-call match"))
    for ax, (key, title) in zip(axes, panels, strict=True):
        for run in sorted(runs, key=lambda r: r["loss_weight"]):
            per = max(1, run["steps_per_epoch"]) if by_run else 1
            points = [(e["step"] / per, e[key]) for e in run["evals"] if key in e]
            label = f"W={run['loss_weight']:g}"
            if run.get("first_token_weight", 1.0) != 1.0:
                label += f", first {run['first_token_weight']:g}"
            if by_run:
                label = f"{Path(run['run']).name} ({label})"
            if points:
                steps, values = zip(*points, strict=True)
                ax.plot(steps, values, marker=".", label=label)
        ax.set_title(title)
        ax.set_xlabel("epoch" if by_run else "optimizer step")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right", fontsize=8)
    axes[0].set_ylim(-0.02, 1.02)
    fig.suptitle("SmolLM2-135M, LoRA, held-out MiniWoB++ seeds", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--speed", nargs="*", default=[], choices=["fp32", "bf16"],
                        help="speed runs in these precisions (no evaluation)")
    parser.add_argument("--layouts", nargs="*", default=[],
                        help="speed runs of these micro-batch layouts: BxA padded, BxAp packed")
    parser.add_argument("--speed-steps", type=int, default=10)
    parser.add_argument("--dataset", help="dataset_dir for every run (default: the config's)")
    parser.add_argument("--weights", type=float, nargs="*", default=[],
                        help="quality runs of the default config with these loss weights")
    parser.add_argument("--curves", type=float, nargs="*", default=[],
                        help="short runs with frequent evaluations, one per loss weight")
    parser.add_argument("--curve-steps", type=int, default=60)
    parser.add_argument("--curve-eval-steps", type=int, default=10)
    parser.add_argument("--rows", type=int, default=0,
                        help="time the token-rows forward against peft's on N conversations")
    parser.add_argument("--casts", type=int, default=0,
                        help="time frozen weights stored in fp32 against bf16 on N conversations")
    parser.add_argument("--runs", nargs="*", default=[], help="finished run folders")
    parser.add_argument("--out", default="benchmarks/results/training.json")
    args = parser.parse_args()
    data = [f"dataset_dir={args.dataset}"] if args.dataset else []
    speed = [f"max_steps={args.speed_steps}", "max_minutes=null", "eval_split=null",
             "save_steps=1000", *data]
    folders = [Path(r) for r in args.runs]
    folders += [train(f"speed-{p}", [f"precision={p}", *speed], fresh=True)
                for p in args.speed]
    folders += [train(f"speed-{layout}", [*layout_overrides(layout), *speed], fresh=True)
                for layout in args.layouts]
    folders += [train(f"w{w:g}", [f"loss_weight={w}", *data]) for w in args.weights]
    folders += [train(f"curve-w{w:g}", [*data,
        f"loss_weight={w}", f"max_steps={args.curve_steps}", "max_minutes=null",
        f"eval_steps={args.curve_eval_steps}", "save_steps=1000",
        "eval_samples=8", "final_eval_samples=8", "eval_limit=32"]) for w in args.curves]
    if not folders and not args.rows and not args.casts:
        raise SystemExit("give --speed/--layouts/--weights/--curves to train, --rows to time "
                         "the token rows or --runs to summarise runs")
    rows = row_forward_ab(args.rows, args.dataset) if args.rows else None
    casts = frozen_bf16_ab(args.casts, args.dataset) if args.casts else None
    if casts:
        print_table("Frozen weights under bf16 autocast: seconds per training conversation", [
            "conversations", "stored fp32 s", "stored bf16 s", "speedup"],
            [[casts["conversations"], casts["fp32_weights_s"], casts["bf16_weights_s"],
              casts["speedup"]]])
    if rows:
        print_table("Token rows: seconds per training conversation (forward + backward)", [
            "conversations", "mean tokens", "row forward s", "peft forward s", "speedup"],
            [[rows["conversations"], rows["mean_tokens"], rows["rows_s"], rows["peft_s"],
              rows["speedup"]]])
    runs = [summarise(f) for f in folders]
    print_table("Speed (optimizer steps only)", [
        "run", "precision", "layout", "steps", "s/step", "conversations/s", "tokens/s",
        "peak RSS MB"],
        [[Path(r["run"]).name, r["precision"], r["layout"], r["steps"], r["seconds_per_step"],
          r["conversations_per_s"], r["tokens_per_s"], r["peak_rss_mb"]] for r in runs])
    quality = [r for r in runs if r["kind"] == "quality"]
    curves = [r for r in runs if r["kind"] == "curve"]
    print_table("Steps to 95% held-out functional-token accuracy", [
        "W", "steps", "evaluated every", "steps to 95%", "token acc at the end"],
        [[r["loss_weight"], r["steps"], r["evals"][0]["step"] if r["evals"] else None,
          r["steps_to_95_token_accuracy"], r["final"].get(QUALITY[0])] for r in curves])
    print_table("Held-out quality (final evaluation, every test_task turn)", [
        "run", "W", "W first", "steps", "epochs", "train min", "token acc", "valid", "exact",
        "exact query", "exact action", "steps to 95% token acc"],
        [[Path(r["run"]).name, r["loss_weight"], r["first_token_weight"], r["steps"], r["epochs"],
          r["train_minutes"],
          *(r["final"].get(k) for k in QUALITY), r["steps_to_95_token_accuracy"]]
         for r in quality])
    for r in quality:
        print_table(f"{Path(r['run']).name}: exact-call match by website (worst first)",
                    ["website", "turns", "valid", "exact"],
                    [[site, m["turns"], m["valid_call_rate"], m["exact_call_match"]]
                     for site, m in r["by_website"].items()])
    figure = plot(curves, PLOT) if curves else plot(quality, RUNS_PLOT, by_run=True)
    caption = ("W=1 vs W=5, against steps" if curves else "per run, against epochs (32 sampled "
               "turns per evaluation, every held-out turn at the last point)")
    finish({"machine": machine_info(), "runs": runs, "token_rows": rows, "frozen_bf16": casts,
            "plot": str(figure.relative_to(REPO)) if figure else None, "plot_caption": caption,
            "targets": [t.to_dict() for t in targets(quality)]}, args.out)


if __name__ == "__main__":
    main()
