"""Datagen's dataset files -> rendered examples, batches, and held-out prompts for generation.

    records, bad = load_split("outputs/datagen", "train", limit=None)
    records, per_task = cap_per_task(records, max_per_task=48, seed=0)
    examples, stats = render_records(records, tokenizer, settings)
    batch = Collator(pad_id=tokenizer.pad_token_id)(examples[:2])

Records are read with plain ``json`` (one record per line in ``<dir>/data/<split>/shard-*.jsonl``;
tool arguments differ from row to row, which a columnar loader would have to widen). A line that
is not a record, or a record that cannot be rendered, is counted and named in the stats, never
silently dropped; malformed lines are also printed (count, first file:line) and more than
``max_bad_share`` of them stops the run (``screen_bad_lines``). ``Collator`` pads (ids with pad, labels with -100, weights with 0) or, with
``packing``, concatenates a micro-batch into ONE row with ``position_ids`` restarting at each
example, which transformers turns into a block-diagonal attention mask (no padding at all).
Every batch carries ``token_count``, its real tokens (padding left out), for tokens/s.
``pad_to_multiple_of`` rounds a batch's length up (a packed row gets a filler segment of pad
ids with its own positions, no labels and no weight, which attends to itself only): on a CPU every new length makes new matrix-product kernels and
buffers, and a 30-minute run over rows of every length from ~300 to ~2,000 tokens slowed from
1.3 to ~2.5 s a step as its memory grew from 3 to 5.5 GB; rounded to 128 it keeps ~1.5 s.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from pipeline.errors import PagescoutError
from pipeline.model.render import IGNORE, RenderError, assistant_calls, render_trajectory
from training.config import split_folder


@dataclass(frozen=True, slots=True)
class RenderSettings:
    max_length: int
    loss_weight: float
    functional_ids: tuple[int, ...]
    first_token_weight: float = 1.0


@dataclass
class RenderStats:
    records: int = 0
    rendered: int = 0
    truncated: int = 0  # records whose observation or tool results were cut
    tokens: int = 0
    rejected: dict[str, str] = field(default_factory=dict)  # key -> why


@dataclass(frozen=True, slots=True)
class EvalPrompt:
    """One held-out assistant turn: the conversation before it and the call it made."""

    key: str
    messages: list[dict[str, Any]]
    reference: Any  # ToolCall
    website: str = ""  # the record's website (a MiniWoB++ task), for results per website


def load_split(
    dataset_dir: str | Path, split: str, limit: int | None = None
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The records of a split in file order (at most ``limit``), and bad lines by location."""
    records: list[dict[str, Any]] = []
    bad: dict[str, str] = {}
    for shard in sorted(split_folder(dataset_dir, split).glob("shard-*.jsonl")):
        with open(shard, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if limit is not None and len(records) >= limit:
                    return records, bad
                record, problem = _parse(line)
                if record is None:
                    bad[f"{shard.name}:{number}"] = problem
                else:
                    records.append(record)
    return records, bad


def cap_per_task(records: Sequence[dict[str, Any]], max_per_task: int | None, seed: int
                 ) -> tuple[list[dict[str, Any]], dict[str, dict[str, int]]]:
    """At most ``max_per_task`` records of each task (the record's ``website``: a MiniWoB++
    task), drawn with ``seed``, the rest kept in file order; and ``{task: {"before", "after"}}``.
    A task's records are its episodes' steps (and their paraphrased copies), so long tasks and
    large families would otherwise dominate the batches. ``None`` keeps everything."""
    by_task: dict[str, list[int]] = {}
    for i, record in enumerate(records):
        task = record.get("website")
        if not isinstance(task, str) or not task:
            raise PagescoutError(f"record {record.get('key', i)!r}: no 'website' (its task) to "
                                 "cap per task; rebuild the dataset with datagen build or set "
                                 "max_per_task=null")
        by_task.setdefault(task, []).append(i)
    rng = random.Random(seed)
    keep: set[int] = set()
    counts = {}
    for task in sorted(by_task):
        indices = by_task[task]
        if max_per_task is not None and len(indices) > max_per_task:
            indices = rng.sample(indices, max_per_task)
        keep.update(indices)
        counts[task] = {"before": len(by_task[task]), "after": len(indices)}
    return [r for i, r in enumerate(records) if i in keep], counts


def screen_bad_lines(split: str, records: int, bad: dict[str, str], max_share: float) -> str:
    """The warning to print for a split's malformed lines ('' when there are none); raises
    PagescoutError when their share of all lines is over ``max_share``."""
    if not bad:
        return ""
    where, problem = next(iter(bad.items()))
    share = len(bad) / (records + len(bad))
    note = (f"split {split!r}: {len(bad)} malformed line(s) skipped ({share:.1%} of "
            f"{records + len(bad)}); the first at {where}: {problem}")
    if share > max_share:
        raise PagescoutError(f"{note}; that is over max_bad_share={max_share:g}: repair the "
                             "files (re-run datagen build) or raise max_bad_share")
    return note


def _parse(line: str) -> tuple[dict[str, Any] | None, str]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc}"
    if not isinstance(record, dict) or not isinstance(record.get("messages"), list):
        return None, "no 'messages' list"
    return record, ""


def render_records(
    records: Sequence[dict[str, Any]], tokenizer: Any, settings: RenderSettings,
    progress: bool = False,
) -> tuple[list[dict[str, list]], RenderStats]:
    """Rendered examples (``input_ids``, ``labels``, ``loss_weights``) and what happened."""
    from tqdm.auto import tqdm

    stats = RenderStats(records=len(records))
    examples = []
    for i, record in enumerate(tqdm(records, desc="render", disable=not progress)):
        try:
            out = render_trajectory(record["messages"], tokenizer, max_length=settings.max_length,
                                    loss_weight=settings.loss_weight,
                                    functional_ids=settings.functional_ids,
                                    first_token_weight=settings.first_token_weight)
        except RenderError as exc:
            stats.rejected[str(record.get("key", i))] = str(exc)
            continue
        examples.append({"input_ids": out.input_ids, "labels": out.labels,
                         "loss_weights": out.loss_weights})
        stats.rendered += 1
        stats.truncated += out.truncated_tokens > 0
        stats.tokens += len(out.input_ids)
    return examples, stats


def eval_prompts(
    records: Sequence[dict[str, Any]], count: int | None, seed: int
) -> list[EvalPrompt]:
    """``count`` held-out assistant turns drawn with ``seed`` (the same turns at every eval), or
    every turn in file order when ``count`` is None."""
    turns = []
    for i, record in enumerate(records):
        for j, message in enumerate(record["messages"]):
            if message.get("role") == "assistant" and message.get("tool_calls"):
                turns.append((str(record.get("key", i)), record["messages"][:j], message,
                              str(record.get("website") or "")))
    picked = turns if count is None else random.Random(seed).sample(turns, min(count, len(turns)))
    out = []
    for key, before, message, website in picked:
        try:
            reference = assistant_calls(message)[0]
        except RenderError:
            continue
        out.append(EvalPrompt(key, [dict(m) for m in before], reference, website))
    return out


@dataclass(frozen=True, slots=True)
class Collator:
    """Examples -> a batch of tensors (padded, or one packed row with restarting positions)."""

    pad_id: int
    packing: bool = False
    pad_to_multiple_of: int | None = None

    def __call__(self, examples: Sequence[dict[str, list]]) -> dict[str, torch.Tensor]:
        if self.packing:
            return self._packed(examples)
        width = self._rounded(max(len(e["input_ids"]) for e in examples))
        batch: dict[str, list] = {"input_ids": [], "labels": [], "loss_weights": [],
                                  "attention_mask": []}
        for e in examples:
            pad = width - len(e["input_ids"])
            batch["input_ids"].append(list(e["input_ids"]) + [self.pad_id] * pad)
            batch["labels"].append(list(e["labels"]) + [IGNORE] * pad)
            batch["loss_weights"].append(list(e["loss_weights"]) + [0.0] * pad)
            batch["attention_mask"].append([1] * len(e["input_ids"]) + [0] * pad)
        return {**_tensors(batch), "token_count": torch.tensor(_token_count(examples))}

    def _packed(self, examples: Sequence[dict[str, list]]) -> dict[str, torch.Tensor]:
        row: dict[str, list] = {"input_ids": [], "labels": [], "loss_weights": [],
                                "position_ids": []}
        for e in examples:
            row["input_ids"] += e["input_ids"]
            row["labels"] += e["labels"]
            row["loss_weights"] += e["loss_weights"]
            row["position_ids"] += list(range(len(e["input_ids"])))
        tokens = _token_count(examples)
        filler = self._rounded(tokens) - tokens
        row["input_ids"] += [self.pad_id] * filler
        row["labels"] += [IGNORE] * filler
        row["loss_weights"] += [0.0] * filler
        row["position_ids"] += list(range(filler))
        return {**_tensors({key: [value] for key, value in row.items()}),
                "token_count": torch.tensor(tokens)}

    def _rounded(self, length: int) -> int:
        step = self.pad_to_multiple_of or 1
        return -(-length // step) * step


def _token_count(examples: Sequence[dict[str, list]]) -> int:
    """The batch's real tokens: what tokens/s counts, padding and filler left out."""
    return sum(len(e["input_ids"]) for e in examples)


def _tensors(batch: dict[str, list]) -> dict[str, torch.Tensor]:
    return {key: torch.tensor(value, dtype=torch.float32 if key == "loss_weights" else torch.long)
            for key, value in batch.items()}
