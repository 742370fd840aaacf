"""The training recipe, top to bottom: setup -> train -> save.

    python -m training --config configs/training/smollm2-135m-cpu.yaml [key=value ...]
    accelerate launch --config_file configs/accelerate/cpu.yaml -m training --config ...

setup: the base model (``pipeline.model.hf``), functional tokens with their embedding init, LoRA
plus the new token rows (holding an earlier run's adapter with ``init_adapter``), datagen's splits rendered to ids/labels/weights, the held-out prompts for
generation, and the trainer (``WeightedSFTTrainer``) with TRL's defaults set explicitly.
train: ``trainer.train``, resuming from ``resume_from_checkpoint`` or the latest ``checkpoint-N``
when ``resume=true``; checkpoints every ``save_steps``, evaluation every ``eval_steps``.
save: in ``output_dir``: ``adapter/`` (adapter + tokenizer + run info), ``merged/`` when
``merge=true``, ``metrics.json``, ``train_log.jsonl``, ``training_curves.png``, ``README.md``,
and ``generations.jsonl`` (the final evaluation's answers, reference and verdict per turn).
"""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.config import config_to_dict
from pipeline.errors import PagescoutError
from pipeline.model.functional_tokens import add_functional_tokens
from pipeline.model.generate import bf16_linear_weights
from pipeline.model.trained import load_trained, save_run_info, trained_folder
from pipeline.tools import functional_tokens
from training import report
from training.budget import TimeBudget
from training.config import TrainingConfig
from training.data import (
    Collator,
    RenderSettings,
    cap_per_task,
    eval_prompts,
    load_split,
    render_records,
    screen_bad_lines,
)
from training.lora import start_from, with_lora
from training.metrics import GenerationEval, argmax_logits, compute_metrics_for
from training.trainer import WeightedSFTTrainer


@dataclass
class Run:
    """What setup builds and train/save use."""

    cfg: TrainingConfig
    trainer: Any
    tokenizer: Any
    base_folder: Path
    precision: str
    data: dict[str, Any]
    eval_records: list[dict[str, Any]]
    generation: GenerationEval


def main(cfg: TrainingConfig) -> dict[str, Any]:
    """Train as configured; returns the summary written to ``metrics.json``."""
    run = setup(cfg)
    seconds, steps = train(run)
    return save(run, seconds, steps)


def setup(cfg: TrainingConfig) -> Run:
    from datasets import Dataset
    from transformers import set_seed

    from pipeline.model.hf import load_causal_lm, resolve_model

    set_seed(cfg.seed)
    precision = choose_precision(cfg.precision)
    base_folder = resolve_model(cfg.model)
    model, tokenizer = load_causal_lm(base_folder, dtype="float32")
    new_ids = add_functional_tokens(model, tokenizer)
    model = with_lora(model, cfg.lora, new_ids)
    if cfg.init_adapter:
        start_from(model, trained_folder(cfg.init_adapter), tokenizer)
    if precision == "bf16":  # what autocast computes, without casting every weight each step
        bf16_linear_weights(model, frozen_only=True)
    settings = RenderSettings(cfg.max_length, cfg.loss_weight, tuple(new_ids),
                              cfg.first_token_weight)
    train_set, train_info = _rendered(cfg, "train", cfg.train_split, cfg.limit, tokenizer,
                                      settings)
    data = {"train": train_info}
    eval_set, records = None, []
    if cfg.eval_split is not None:
        eval_set, data["eval"] = _rendered(cfg, "eval", cfg.eval_split, cfg.eval_limit,
                                           tokenizer, settings)
        records, _ = load_split(cfg.dataset_dir, cfg.eval_split)
    generation = GenerationEval(tokenizer, eval_prompts(records, cfg.eval_samples, cfg.seed),
                                max_length=cfg.max_length, max_new_tokens=cfg.eval_max_new_tokens,
                                batch_size=cfg.eval_batch_size, progress=cfg.progress,
                                bf16=precision == "bf16")
    trainer = WeightedSFTTrainer(
        model=model, args=sft_config(cfg, precision, has_eval=eval_set is not None),
        train_dataset=Dataset.from_list(train_set),
        eval_dataset=Dataset.from_list(eval_set) if eval_set else None,
        processing_class=tokenizer, data_collator=Collator(tokenizer.pad_token_id, cfg.packing,
                                                         cfg.pad_to_multiple_of),
        compute_metrics=compute_metrics_for(new_ids), preprocess_logits_for_metrics=argmax_logits,
        callbacks=[generation, TimeBudget(cfg.max_minutes), report.JsonlLog(cfg.output_dir)],
    )
    if trainer.is_world_process_zero():
        Path(cfg.output_dir).mkdir(parents=True, exist_ok=True)
        save_run_info(cfg.output_dir, cfg.model, base_folder)
    return Run(cfg, trainer, tokenizer, base_folder, precision, data, records, generation)


def train(run: Run) -> tuple[float, int]:
    """Run the trainer (resuming when asked); returns the wall time and the steps it ran."""
    checkpoint = resume_point(run.cfg)
    start = time.perf_counter()
    run.trainer.train(resume_from_checkpoint=checkpoint)
    first = int(Path(checkpoint).name.rsplit("-", 1)[-1]) if checkpoint else 0
    return time.perf_counter() - start, run.trainer.state.global_step - first


def save(run: Run, seconds: float, steps: int) -> dict[str, Any]:
    """Adapter, optional merged model, final held-out metrics and the reports."""
    cfg, trainer = run.cfg, run.trainer
    final = {}
    if cfg.eval_split is not None:
        run.generation.prompts = eval_prompts(run.eval_records, cfg.final_eval_samples, cfg.seed)
        final = trainer.evaluate()
    out = Path(cfg.output_dir)
    adapter_dir = out / "adapter"
    trainer.save_model(str(adapter_dir))
    if not trainer.is_world_process_zero():
        return {}
    save_run_info(adapter_dir, cfg.model, run.base_folder)
    state, budget = trainer.state, TimeBudget.of(trainer)
    tokens = trainer.tokens_trained
    summary = {
        "config": config_to_dict(cfg), "base_model": cfg.model or "SmolLM2-135M-Instruct",
        "base_folder": str(run.base_folder), "precision": run.precision,
        "functional_tokens": functional_tokens(), "data": run.data,
        "train": {"global_step": state.global_step, "seconds": seconds,
                  "step_seconds": budget.spent, "stopped_by_time": budget.exhausted,
                  "seconds_per_step": budget.session / steps if steps > 0 else None,
                  "tokens_seen": tokens,  # by this process (a resumed run: since resuming)
                  "tokens_per_second": tokens / budget.session if budget.session else None,
                  "peak_rss_mb": peak_rss_mb()},
        "final_eval": {k: v for k, v in final.items() if isinstance(v, (int, float))},
        "final_by_website": report.by_website(run.generation.last),
        "adapter_dir": str(adapter_dir), "versions": versions(),
    }
    if cfg.merge:
        summary["merged_dir"] = str(merge(adapter_dir, out / "merged"))
    report.write_metrics(out / report.METRICS_FILE, summary)
    report.write_generations(out / report.GENERATIONS_FILE, run.generation.last)
    report.plot_curves(state.log_history, out / report.PLOT_FILE)
    (out / report.CARD_FILE).write_text(report.model_card(summary), encoding="utf-8")
    return summary


def sft_config(cfg: TrainingConfig, precision: str, *, has_eval: bool) -> Any:
    """TRL's config with every default that matters here set explicitly (TRL's own defaults:
    bf16=True, gradient_checkpointing=True, lr 2e-5, max_length 1024)."""
    import torch
    from trl import SFTConfig

    evaluating = "steps" if has_eval else "no"
    return SFTConfig(
        output_dir=cfg.output_dir, seed=cfg.seed, bf16=precision == "bf16", fp16=False,
        use_cpu=not torch.cuda.is_available(),
        learning_rate=cfg.learning_rate, lr_scheduler_type=cfg.lr_scheduler,
        warmup_steps=cfg.warmup_steps, weight_decay=cfg.weight_decay,
        max_grad_norm=cfg.max_grad_norm, num_train_epochs=cfg.epochs, max_steps=cfg.max_steps,
        per_device_train_batch_size=cfg.batch_size, per_device_eval_batch_size=cfg.batch_size,
        gradient_accumulation_steps=cfg.grad_accum,
        activation_checkpointing=cfg.gradient_checkpointing,
        activation_checkpointing_kwargs={"use_reentrant": False},
        max_length=cfg.max_length, packing=False,  # rendering and packing are ours
        dataset_kwargs={"skip_prepare_dataset": True}, remove_unused_columns=False,
        logging_steps=cfg.logging_steps, logging_first_step=True,
        eval_strategy=evaluating, eval_steps=cfg.eval_steps,
        save_strategy="steps", save_steps=cfg.save_steps, save_total_limit=cfg.save_total_limit,
        report_to="none", disable_tqdm=not cfg.progress, dataloader_num_workers=0,
    )


def choose_precision(wanted: str) -> str:
    """``bf16`` or ``fp32``: ``auto`` picks bf16 on a GPU that supports it and on a CPU with
    native bf16 instructions (AVX512-BF16 / AMX), fp32 otherwise."""
    import torch

    if wanted != "auto":
        return wanted
    if torch.cuda.is_available():
        return "bf16" if torch.cuda.is_bf16_supported() else "fp32"
    return "bf16" if torch.ops.mkldnn._is_mkldnn_bf16_supported() else "fp32"


def resume_point(cfg: TrainingConfig) -> str | None:
    """The checkpoint to resume from: the configured one, the latest with ``resume=true``, or
    None (a fresh start; also when ``resume=true`` finds no checkpoint yet)."""
    from transformers.trainer_utils import get_last_checkpoint

    if cfg.resume_from_checkpoint:
        return cfg.resume_from_checkpoint
    if cfg.resume and Path(cfg.output_dir).is_dir():
        return get_last_checkpoint(cfg.output_dir)
    return None


def merge(adapter_dir: Path, folder: Path) -> Path:
    """The saved LoRA and token rows merged into the base's fp32 weights (not the bf16 copies
    training computed with), saved as a plain model folder."""
    merged, tokenizer = load_trained(adapter_dir, merge=True)
    merged.save_pretrained(str(folder), safe_serialization=True)
    tokenizer.save_pretrained(str(folder))
    return folder


def peak_rss_mb() -> float:
    """This process's peak resident memory (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def versions() -> dict[str, str]:
    import accelerate
    import peft
    import torch
    import transformers
    import trl

    return {m.__name__: m.__version__ for m in (torch, transformers, peft, trl, accelerate)}


def _rendered(cfg, role, split, limit, tokenizer, settings) -> tuple[list[dict], dict[str, Any]]:
    """A split's rendered examples and its stats; no usable record is an error."""
    records, bad = load_split(cfg.dataset_dir, split, limit)
    note = screen_bad_lines(split, len(records), bad, cfg.max_bad_share)
    if note:
        print(f"warning: {role} {note}", file=sys.stderr)
    per_task: dict[str, dict[str, int]] = {}
    if role == "train" and cfg.max_per_task is not None:
        records, per_task = cap_per_task(records, cfg.max_per_task, cfg.seed)
    examples, stats = render_records(records, tokenizer, settings, progress=cfg.progress)
    if stats.rejected:
        key, why = next(iter(stats.rejected.items()))
        print(f"warning: {role} split {split!r}: {len(stats.rejected)} record(s) not "
              f"renderable, skipped; the first, {key}: {why}", file=sys.stderr)
    info = {"split": split, "records": stats.records, "rendered": stats.rendered,
            "truncated": stats.truncated, "tokens": stats.tokens,
            "bad_lines": bad, "rejected": stats.rejected, "per_task": per_task}
    if not examples:
        raise PagescoutError(f"{role} split {split!r} in {cfg.dataset_dir}: no usable record "
                             f"({len(bad)} bad lines, {len(stats.rejected)} not renderable); "
                             "check datagen's output or raise max_length")
    return examples, info
