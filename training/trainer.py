"""The weighted cross-entropy, and the TRL ``SFTTrainer`` subclass whose only change is that loss.

    loss = sum_i w_i * CE_i / sum_i w_i      over every labelled position of the ACCUMULATED batch

``w_i`` comes from the data (``loss_weights``: W on functional tokens, 1 on other answer tokens,
0 where there is no label). Gradient accumulation stays exact the way transformers does it: the
trainer collects the micro-batches of one optimizer step, counts their normaliser once and passes
it to every ``compute_loss`` as ``num_items_in_batch``; each micro-batch returns its weighted sum
divided by that total, so the accumulated gradient equals the gradient of one big batch. The only
difference from transformers' count is what is counted: the sum of the weights (with W = 1 that
is the number of labelled tokens, transformers' own count).

The forward is the model's ordinary one, not TRL's fused LM head (which reads ``lm_head.bias``
and fails under peft's ``trainable_token_indices``), with one saving: in training the LM head
projects only the positions whose next token is a label (``logits_to_keep`` as a bool mask) --
the answer is ~10% of a query-tool conversation and the 49k-row head ~30% of the step's time.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from trl import SFTTrainer

from pipeline.model.render import IGNORE

MODEL_INPUTS = ("input_ids", "attention_mask", "position_ids")


def predicted_positions(labels: torch.Tensor) -> torch.Tensor:
    """``(batch, seq)`` bool: the positions whose NEXT token is a label (the only positions the
    loss reads; the last position of a row never is)."""
    keep = torch.zeros_like(labels, dtype=torch.bool)
    keep[:, :-1] = labels[:, 1:].ne(IGNORE)
    return keep


def weighted_cross_entropy(
    logits: torch.Tensor, labels: torch.Tensor, weights: torch.Tensor,
    total_weight: torch.Tensor | float | None = None,
) -> torch.Tensor:
    """Sum of ``weights * CE`` over the next-token positions, divided by ``total_weight`` (the
    accumulated batch's weight sum) or, without it, this batch's sum. ``logits`` are either the
    whole ``(batch, seq, vocab)`` or only the ``(n, vocab)`` rows at ``predicted_positions``."""
    keep = predicted_positions(labels)
    if logits.dim() == 3:
        logits = logits[keep]
    targets = labels.roll(-1, dims=1)[keep]
    weights = weights.roll(-1, dims=1)[keep].float()
    ce = F.cross_entropy(logits.float(), targets, reduction="none")
    denominator = weights.sum() if total_weight is None else total_weight
    denominator = torch.as_tensor(denominator, dtype=ce.dtype, device=ce.device)
    return (ce * weights).sum() / denominator.clamp(min=1e-8)


def weight_total(batches: list[dict[str, torch.Tensor]]) -> torch.Tensor:
    """The normaliser of one optimizer step: the weights of every micro-batch at the positions
    the loss uses (the first position of a row is never predicted)."""
    return sum(b["loss_weights"][:, 1:].mul(b["labels"][:, 1:].ne(IGNORE)).sum() for b in batches)


class WeightedSFTTrainer(SFTTrainer):
    """``SFTTrainer`` with the weighted cross-entropy; everything else is TRL's."""

    loss_is_scaled_for_ga = True  # compute_loss divides by the whole accumulated batch's weights

    def get_batch_samples(self, epoch_iterator, num_batches, device):
        """The step's micro-batches; the normaliser passed on is their weight sum (summed over
        processes too, like transformers' token count under ``average_tokens_across_devices``)."""
        batches, _ = super().get_batch_samples(epoch_iterator, num_batches, device)
        if not batches:
            return batches, None
        total = weight_total(batches).to(device)
        if self.args.average_tokens_across_devices and self.args.world_size > 1:
            total = self.accelerator.gather(total).sum()
        return batches, total

    def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
        # training projects only the positions the loss reads onto the vocabulary (~1/10 of a
        # query-tool conversation); evaluation keeps every position for the token accuracy
        keep = predicted_positions(inputs["labels"]) if self.model.training else 0
        outputs = model(**{k: inputs[k] for k in MODEL_INPUTS if k in inputs}, use_cache=False,
                        logits_to_keep=keep)
        loss = weighted_cross_entropy(outputs.logits, inputs["labels"], inputs["loss_weights"],
                                      num_items_in_batch)
        if (self.model.training and num_items_in_batch is not None
                and self.args.average_tokens_across_devices and self.args.world_size > 1):
            loss = loss * self.accelerator.num_processes  # DDP averages the gradients
        if self.model.training:
            self._count_tokens(inputs)
        return (loss, outputs) if return_outputs else loss

    @property
    def tokens_trained(self) -> int:
        """Tokens (padding excluded) of every training micro-batch this process has run."""
        return self._total_train_tokens

    def _count_tokens(self, inputs: dict[str, Any]) -> None:
        """Tokens seen, logged as ``num_tokens`` (TRL's own metric, for tokens/s)."""
        local = inputs["token_count"]  # the collator's: padding and filler left out
        self._total_train_tokens += int(self.accelerator.gather_for_metrics(local).sum())
        self._metrics["train"]["num_tokens"] = [self._total_train_tokens]
