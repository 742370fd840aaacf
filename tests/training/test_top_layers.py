"""LoRA on the top decoder layers only (``lora.top_layers``), on the real SmolLM2 model: the
LoRA weights sit in those layers, backward stops below the lowest of them, and the functional
tokens' rows still train (through the tied LM head)."""

from __future__ import annotations

import pytest
import torch

from pipeline.errors import PagescoutError
from pipeline.model.functional_tokens import add_functional_tokens
from training.config import LoraConfig
from training.lora import with_lora
from training.top_layers import decoder_layers


def _model(base_folder, top_layers):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    ids = add_functional_tokens(model, AutoTokenizer.from_pretrained(str(base_folder)))
    lora = LoraConfig(rank=4, alpha=8, dropout=0.0, target_modules=["q_proj", "down_proj"],
                      top_layers=top_layers)
    return with_lora(model, lora, ids), ids


@pytest.fixture(scope="module")
def top3(base_folder):
    return _model(base_folder, 3)


def test_lora_only_in_the_top_layers(top3):
    model, _ = top3
    count = len(decoder_layers(model))
    trainable = [n for n, p in model.named_parameters() if p.requires_grad]
    layers = {int(n.split(".layers.")[1].split(".")[0]) for n in trainable if ".layers." in n}
    assert layers == set(range(count - 3, count))
    assert len(trainable) == 3 * 2 * 2 + 1  # (lora_A, lora_B) x 2 modules x 3 layers + rows
    assert any("trainable_tokens_delta" in n for n in trainable)


def test_backward_stops_below_the_lowest_lora_layer_and_rows_still_learn(top3):
    model, ids = top3
    layers = decoder_layers(model)
    first = len(layers) - 3
    needs_grad = {}

    def record(index):
        def hook(module, args, kwargs):
            hidden = args[0] if args else kwargs["hidden_states"]
            needs_grad[index] = hidden.requires_grad
        return hook

    handles = [layers[i].register_forward_pre_hook(record(i), with_kwargs=True)
               for i in (first - 1, first)]
    try:
        model.zero_grad()
        logits = model(input_ids=torch.tensor([[1, ids[0], 2, ids[1], 3]]), use_cache=False).logits
        logits.logsumexp(-1).sum().backward()
    finally:
        for handle in handles:
            handle.remove()
    # below: the token rows' embedding makes the hidden states need grad; the cut detaches them
    assert needs_grad == {first - 1: True, first: False}
    grads = {n: p.grad for n, p in model.named_parameters() if p.requires_grad}
    assert all(g is not None and g.abs().sum() > 0 for n, g in grads.items() if "lora_B" in n
               or "trainable_tokens_delta" in n)


def test_more_top_layers_than_the_model_has_is_a_clear_error(base_folder):
    with pytest.raises(PagescoutError, match=r"lora.top_layers: 31, but the model has 30"):
        _model(base_folder, 31)
