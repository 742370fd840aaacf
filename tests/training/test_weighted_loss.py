"""The weighted cross-entropy against a hand computation, and its normalisation under gradient
accumulation through the real trainer (one step of bs=4 equals bs=1 x 4 accumulated)."""

from __future__ import annotations

import math

import pytest
import torch
from datasets import Dataset

from pipeline.model.render import IGNORE
from training.data import Collator
from training.trainer import (
    WeightedSFTTrainer,
    predicted_positions,
    weight_total,
    weighted_cross_entropy,
)


def _ce(logits: list[float], target: int) -> float:
    return -math.log(math.exp(logits[target]) / sum(math.exp(v) for v in logits))


def test_weighted_loss_equals_hand_computation():
    logits = torch.tensor([[[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 3.0], [1.0, 1.0, 1.0]]])
    labels = torch.tensor([[IGNORE, 1, 2, 0]])
    weights = torch.tensor([[0.0, 1.0, 5.0, 1.0]])
    # position t predicts labels[t + 1]: logits rows 0, 1, 2 -> targets 1, 2, 0
    terms = [(1.0, _ce([2, 0, 0], 1)), (5.0, _ce([0, 1, 0], 2)), (1.0, _ce([0.5, 0.5, 3], 0))]
    expected = sum(w * ce for w, ce in terms) / 7.0
    assert weighted_cross_entropy(logits, labels, weights).item() == pytest.approx(expected)
    # a whole accumulated batch of weight 14: this micro-batch contributes half its share
    half = weighted_cross_entropy(logits, labels, weights, torch.tensor(14.0)).item()
    assert half == pytest.approx(expected / 2)


def test_ignored_positions_count_nothing():
    logits = torch.randn(1, 4, 5)
    weights = torch.tensor([[0.0, 1.0, 9.0, 1.0]])
    masked = torch.tensor([[IGNORE, 1, IGNORE, 3]])
    reference = weighted_cross_entropy(logits, masked, torch.tensor([[0.0, 1.0, 0.0, 1.0]]))
    assert weighted_cross_entropy(logits, masked, weights).item() == pytest.approx(reference.item())


def test_predicted_positions_are_the_ones_before_each_label():
    labels = torch.tensor([[IGNORE, IGNORE, 4, 5, IGNORE], [IGNORE, 7, IGNORE, IGNORE, 8]])
    assert predicted_positions(labels).tolist() == [
        [False, True, True, False, False], [True, False, False, True, False]]


def _tiny_llama():
    from transformers import LlamaConfig, LlamaForCausalLM, set_seed

    set_seed(0)
    return LlamaForCausalLM(LlamaConfig(
        vocab_size=16, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=32))


def test_loss_from_kept_logits_equals_loss_from_all_logits():
    """Training projects only the predicted positions onto the vocabulary: same loss, same
    gradients as the full logits, padded rows included."""
    batch = Collator(pad_id=0)(_examples())
    inputs = {"input_ids": batch["input_ids"], "attention_mask": batch["attention_mask"]}
    results = []
    for keep in (0, predicted_positions(batch["labels"])):
        model = _tiny_llama()
        logits = model(**inputs, logits_to_keep=keep).logits
        loss = weighted_cross_entropy(logits, batch["labels"], batch["loss_weights"])
        loss.backward()
        results.append((loss.item(), model.model.layers[0].mlp.up_proj.weight.grad.clone()))
    (full, full_grad), (kept, kept_grad) = results
    assert kept == pytest.approx(full, rel=1e-6)
    assert torch.allclose(kept_grad, full_grad, atol=1e-7)


def test_weight_total_skips_first_position_and_ignored():
    batch = {"labels": torch.tensor([[5, 1, IGNORE, 2]]),
             "loss_weights": torch.tensor([[3.0, 1.0, 7.0, 5.0]])}
    assert weight_total([batch, batch]).item() == 12.0


def _examples() -> list[dict]:
    rows = [[3, 7, 9, 4, 2], [5, 6, 1], [8, 8, 3, 2, 7, 1], [4, 9]]
    out = []
    for i, ids in enumerate(rows):
        labels = [IGNORE] + ids[1:]
        weights = [0.0] + [5.0 if (i + j) % 3 == 0 else 1.0 for j in range(1, len(ids))]
        out.append({"input_ids": ids, "labels": labels, "loss_weights": weights})
    return out


def _one_step(tmp_path, tokenizer, batch_size: int, accumulation: int) -> torch.Tensor:
    from trl import SFTConfig

    model = _tiny_llama()
    args = SFTConfig(
        output_dir=str(tmp_path / f"run-{batch_size}x{accumulation}"), use_cpu=True, bf16=False,
        per_device_train_batch_size=batch_size, gradient_accumulation_steps=accumulation,
        max_steps=1, learning_rate=1.0, optim="sgd", lr_scheduler_type="constant",
        max_grad_norm=0.0, weight_decay=0.0, report_to="none", save_strategy="no",
        remove_unused_columns=False, dataset_kwargs={"skip_prepare_dataset": True},
        disable_tqdm=True, seed=0, data_seed=0)
    before = model.lm_head.weight.detach().clone()
    trainer = WeightedSFTTrainer(model=model, args=args, train_dataset=Dataset.from_list(
        _examples()), processing_class=tokenizer, data_collator=Collator(pad_id=0))
    trainer.train()
    return model.lm_head.weight.detach() - before


def test_gradient_accumulation_normalises_over_the_whole_batch(tmp_path, tokenizer):
    whole = _one_step(tmp_path, tokenizer, 4, 1)
    assert whole.abs().sum() > 0
    for batch_size, accumulation in ((1, 4), (2, 2)):
        update = _one_step(tmp_path, tokenizer, batch_size, accumulation)
        assert torch.allclose(update, whole, atol=1e-6), (batch_size, accumulation)
