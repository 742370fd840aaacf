"""Mind2Web's step metrics and the intervals every reported figure carries.

Definitions (the official ``metric.py``, see ../shared/FACTS.md):

- **Element Accuracy**: the predicted element is one of the step's positives.
- **Operation F1**: set-based token F1 between ``"OP value"`` strings split on whitespace,
  case-sensitive; CLICK has no value; two empty strings score 1.
- **Step SR**: element correct and Operation F1 = 1.
- **Task SR**: every step of the task succeeds. Papers report macro averages: the mean over
  tasks of the per-task mean (``macro``), which for Task SR is the share of tasks all of whose
  steps succeeded. A step without a positive (or one the reader could not use) scores 0.

Intervals: ``wilson`` for a share (n trials), ``mean_interval`` (normal approximation, or
the bootstrap for small samples) for means such as Operation F1 or tokens per step.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054


def op_string(op: str, value: str = "") -> str:
    """``"CLICK"``, ``"TYPE Kenda"``, ``"SELECT Large"`` -- what Operation F1 compares."""
    return op if op == "CLICK" or not value else f"{op} {value}"


def op_f1(predicted: str, gold: str) -> float:
    """Set-based token F1 over whitespace tokens (case-sensitive); two empty strings score 1."""
    pred, ref = set(predicted.split()), set(gold.split())
    if not pred and not ref:
        return 1.0
    common = len(pred & ref)
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True, slots=True)
class StepScore:
    task_id: str  # the annotation id: steps of one task share it
    element: bool
    op_f1: float

    @property
    def success(self) -> bool:
        return self.element and self.op_f1 == 1.0


@dataclass(frozen=True, slots=True)
class Figure:
    """A reported number with its sample size and 95% interval."""

    value: float
    n: int
    low: float
    high: float

    def to_dict(self) -> dict[str, float | int]:
        return {"value": round(self.value, 6), "n": self.n, "low": round(self.low, 6),
                "high": round(self.high, 6)}

    def overlaps(self, other: Figure) -> bool:
        return self.low <= other.high and other.low <= self.high


def wilson(successes: int, n: int) -> Figure:
    """A share with its Wilson score interval (sound at 0 and 1 and for small n)."""
    if n == 0:
        return Figure(0.0, 0, 0.0, 0.0)
    p = successes / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return Figure(p, n, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], seed: int = 0, resamples: int = 2000) -> Figure:
    """A mean with a 95% interval: normal approximation from 30 values on, the percentile
    bootstrap below."""
    n = len(values)
    if n == 0:
        return Figure(0.0, 0, 0.0, 0.0)
    mean = sum(values) / n
    if n == 1:
        return Figure(mean, 1, mean, mean)
    if n >= 30:
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
        half = Z95 * sd / math.sqrt(n)
        return Figure(mean, n, mean - half, mean + half)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(resamples))
    return Figure(mean, n, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1])


def sign_test(only_a: int, only_b: int) -> float:
    """Two-sided exact sign test on paired outcomes: the chance of a split at least this uneven
    between the pairs only A won and those only B won, were both equally likely (ties, won or lost
    by both, do not count)."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2**n
    return min(1.0, 2 * tail)


def share(flags: Iterable[bool]) -> Figure:
    flags = list(flags)
    return wilson(sum(flags), len(flags))


def mind2web_metrics(scores: Sequence[StepScore]) -> dict[str, Figure]:
    """Element Accuracy, Operation F1 and Step SR as macro averages over tasks (the papers'
    figures), their micro (per-step) forms, and Task SR."""
    by_task: dict[str, list[StepScore]] = defaultdict(list)
    for score in scores:
        by_task[score.task_id].append(score)
    tasks = list(by_task.values())

    def macro(value) -> Figure:
        return mean_interval([sum(value(s) for s in steps) / len(steps) for steps in tasks])

    return {
        "element_accuracy": macro(lambda s: float(s.element)),
        "operation_f1": macro(lambda s: s.op_f1),
        "step_sr": macro(lambda s: float(s.success)),
        "task_sr": share(all(s.success for s in steps) for steps in tasks),
        "element_accuracy_micro": share(s.element for s in scores),
        "step_sr_micro": share(s.success for s in scores),
    }
