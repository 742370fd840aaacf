"""A built trajectory told with a paraphrased instruction: the same steps, labels and verdicts,
only the task line of its first user turn reworded (``meta.paraphrase`` keeps the original).

    for kind, suffix, record in variant_records(trajectory, task, 2, rng): ...
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

from datagen.dataset import dataset_record
from datagen.paraphrase.variants import paraphrase
from datagen.records import Trajectory
from pipeline.errors import FormatError

DROPPED_REASON = "paraphrase_changed_value"
KEY_MARK = "|para"  # a variant's key: <step_id>|<mode>|para<i>


def variant_records(trajectory: Trajectory, task: str, k: int, rng: random.Random,
                    wordnet_dir: str) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """("write" | "reject", key suffix, record) for each of ``k`` candidate variants: a dataset
    record per accepted variant, a reject naming the lost values per dropped one."""
    result = paraphrase(task, k, rng, wordnet_dir)
    for i, variant in enumerate(result.variants):
        messages = with_instruction(trajectory.messages, task, variant, trajectory.step_id)
        meta = {**trajectory.meta, "paraphrase": {"index": i, "original": task}}
        copy = dataclasses.replace(trajectory, messages=messages, meta=meta)
        yield "write", f"{KEY_MARK}{i}", dataset_record(copy)
    for j, (variant, lost) in enumerate(result.dropped):
        yield "reject", f"{KEY_MARK}-dropped{j}", {
            "step_id": trajectory.step_id, "mode": trajectory.mode, "reason": DROPPED_REASON,
            "original": task, "variant": variant, "lost_values": lost}


def with_instruction(messages: list[dict[str, Any]], task: str, variant: str,
                     step_id: str) -> list[dict[str, Any]]:
    """``messages`` with the first user turn's ``Task: <task>`` line saying ``variant``."""
    head = f"Task: {task}\n"
    for i, message in enumerate(messages):
        if message.get("role") == "user":
            content = message.get("content") or ""
            if not content.startswith(head):
                raise FormatError(f"{step_id}: the first user turn does not open with "
                                  f"{head.strip()!r}; cannot paraphrase its instruction")
            reworded = {**message, "content": f"Task: {variant}\n" + content[len(head):]}
            return [*messages[:i], reworded, *messages[i + 1:]]
    raise FormatError(f"{step_id}: no user turn to paraphrase")
