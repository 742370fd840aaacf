"""Held-out metrics: functional-token accuracy from the eval forward, and valid-call rate and
exact-call match by generating answers to held-out prompts.

- ``functional_token_accuracy``: argmax of the logits at every position whose next-token label is
  a functional token (the tool token and ``<bu_end>``), against that label; plus the accuracy over
  all answer tokens. Fed by the trainer's evaluation loop through ``compute_metrics``.
- ``generation_metrics``: greedy generation (``pipeline.model.generate``) for a fixed sample of
  held-out assistant turns, decoded with ``skip_special_tokens=False`` and parsed by ``pipeline.tools.parse_calls``; a call
  is valid when the first parsed item is a ToolCall, exact when it equals the reference call
  (name and canonical arguments). Exact match is also split by the reference's kind: query
  turns (``exact_query_call``: the same search) and action turns (``exact_action_call``: the
  same element and text). ``GenerationEval`` runs it after each evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from transformers import TrainerCallback

from pipeline.model.generate import generate_turns
from pipeline.model.render import IGNORE
from pipeline.tools import ToolCall, parse_calls, tool_names
from training.data import EvalPrompt


def functional_token_accuracy(
    predictions: np.ndarray, labels: np.ndarray, functional_ids: Sequence[int]
) -> dict[str, float]:
    """Next-token accuracy at functional-token labels and at all labels (argmax ``predictions``
    aligned with the inputs, ``labels`` unshifted, -100 where none)."""
    predicted, target = predictions[:, :-1], labels[:, 1:]
    labelled = target != IGNORE
    functional = np.isin(target, np.asarray(functional_ids))
    correct = predicted == target
    return {
        "functional_token_accuracy": _mean(correct[functional]),
        "token_accuracy": _mean(correct[labelled]),
    }


def compute_metrics_for(functional_ids: Sequence[int]):
    """A ``compute_metrics`` for the trainer (with ``argmax_logits`` as the preprocessor)."""
    def compute(eval_prediction) -> dict[str, float]:
        predictions, labels = eval_prediction.predictions, eval_prediction.label_ids
        return functional_token_accuracy(np.asarray(predictions), np.asarray(labels),
                                         functional_ids)
    return compute


def argmax_logits(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """Keep only the argmax ids of the eval logits (``preprocess_logits_for_metrics``)."""
    return logits.argmax(dim=-1)


def call_outcome(text: str, reference: ToolCall) -> tuple[bool, bool]:
    """(valid, exact) for generated ``text`` against the ``reference`` call."""
    first = parse_calls(text)[0]
    valid = isinstance(first, ToolCall)
    return valid, valid and first == reference


def generation_metrics(
    model: Any, tokenizer: Any, prompts: Sequence[EvalPrompt], *, max_length: int,
    max_new_tokens: int, batch_size: int, progress: bool = False, bf16: bool = False,
) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """``valid_call_rate`` and ``exact_call_match`` (overall, query turns, action turns) over
    ``prompts``, and one row per prompt: key, reference call, generated text, valid, exact."""
    generations = generate_turns(model, tokenizer, [p.messages for p in prompts],
                                 max_length=max_length, max_new_tokens=max_new_tokens,
                                 batch_size=batch_size, progress=progress, bf16=bf16)
    texts = [g.text for g in generations]
    outcomes = [call_outcome(t, p.reference) for t, p in zip(texts, prompts, strict=True)]
    queries = set(tool_names("query"))
    is_query = np.array([p.reference.name in queries for p in prompts], dtype=bool)
    exact = np.array([e for _, e in outcomes], dtype=bool)
    metrics = {
        "valid_call_rate": _mean(np.array([v for v, _ in outcomes])),
        "exact_call_match": _mean(exact),
        "exact_query_call": _mean(exact[is_query]),
        "exact_action_call": _mean(exact[~is_query]),
        "generated": float(len(outcomes)),
    }
    rows = [{"key": p.key, "website": p.website, "reference": {"name": p.reference.name,
                                         "arguments": p.reference.arguments},
             "generated": text,
             "valid": valid, "exact": hit}
            for p, text, (valid, hit) in zip(prompts, texts, outcomes, strict=True)]
    return metrics, rows


class GenerationEval(TrainerCallback):
    """After each evaluation: generation metrics on the held-out sample, added to the metrics
    the evaluation returned and to the trainer's log history as ``eval_*``."""

    def __init__(self, tokenizer: Any, prompts: Sequence[EvalPrompt], *, max_length: int,
                 max_new_tokens: int, batch_size: int, progress: bool = False,
                 bf16: bool = False) -> None:
        self.tokenizer = tokenizer
        self.prompts = list(prompts)  # replaceable, e.g. by a larger set for the final evaluation
        self.last: list[dict[str, Any]] = []  # the latest evaluation's rows, one per prompt
        self.options = {"max_length": max_length, "max_new_tokens": max_new_tokens,
                        "batch_size": batch_size, "progress": progress, "bf16": bf16}

    def on_evaluate(self, args, state, control, model=None, metrics=None, **kwargs):
        if not self.prompts or model is None:
            return
        found, self.last = generation_metrics(model, self.tokenizer, self.prompts, **self.options)
        entry = {f"eval_{key}": value for key, value in found.items()}
        if metrics is not None:
            metrics.update(entry)
        if state.is_world_process_zero:
            state.log_history.append({**entry, "epoch": state.epoch, "step": state.global_step})


def _mean(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else 0.0
