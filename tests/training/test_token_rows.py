"""The row forward of the trainable token rows gives peft's own values and gradients, on the real
SmolLM2 model with LoRA and the functional-token rows."""

from __future__ import annotations

import pytest
import torch
from peft.tuners.trainable_tokens.layer import TrainableTokensLayer

from pipeline.model.functional_tokens import add_functional_tokens
from pipeline.model.token_rows import RowTokensLayer
from training.config import LoraConfig
from training.lora import with_lora


@pytest.fixture(scope="module")
def peft_model(base_folder):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(str(base_folder))
    ids = add_functional_tokens(model, tok)
    model = with_lora(model, LoraConfig(rank=4, alpha=8, dropout=0.0,
                                        target_modules=("q_proj", "v_proj")), ids)
    torch.manual_seed(0)
    with torch.no_grad():  # trained rows that differ from their initial values
        for layer in _token_layers(model):
            for delta in layer.trainable_tokens_delta.values():
                delta.add_(torch.randn_like(delta) * 0.05)
    return model, tok, ids


def _token_layers(model):
    return [m for m in model.modules() if isinstance(m, TrainableTokensLayer)]


def _forward_backward(model, ids: torch.Tensor):
    model.zero_grad()
    logits = model(input_ids=ids, use_cache=False).logits
    logits.float().logsumexp(-1).sum().backward()
    grads = {n: p.grad.detach().clone() for n, p in model.named_parameters() if p.grad is not None}
    return logits.detach(), grads


def _as_peft(model):
    """Switch the layers back to peft's own class (and returns them, to switch again)."""
    layers = [m for m in _token_layers(model) if type(m) is RowTokensLayer]
    for layer in layers:
        layer.__class__ = TrainableTokensLayer
    return layers


def test_with_lora_uses_the_row_forward_on_embedding_and_tied_head(peft_model):
    model, _, _ = peft_model
    kinds = sorted(type(m.base_layer).__name__ for m in _token_layers(model))
    assert kinds == ["Embedding", "Linear"]
    assert all(type(m) is RowTokensLayer for m in _token_layers(model))


def test_same_logits_and_gradients_as_peft(peft_model):
    model, tok, ids = peft_model
    text = f"Find the button.\n{tok.convert_ids_to_tokens(ids[1])}" + '{"index": 3}<bu_end>'
    input_ids = torch.tensor([tok.encode(text)])
    assert set(ids) & set(input_ids[0].tolist())  # the new rows are looked up, not only scored
    rows_logits, rows_grads = _forward_backward(model, input_ids)
    layers = _as_peft(model)
    try:
        peft_logits, peft_grads = _forward_backward(model, input_ids)
    finally:
        for layer in layers:
            layer.__class__ = RowTokensLayer
    assert torch.allclose(rows_logits, peft_logits, atol=1e-5)
    assert rows_grads.keys() == peft_grads.keys()
    assert any("trainable_tokens_delta" in name for name in rows_grads)
    for name, grad in rows_grads.items():
        # float32 sums in another order: up to ~1e-4 apart on gradients of ~60, so the absolute
        # tolerance follows the tensor's scale (a wrong row would be off by the gradient itself)
        scale = peft_grads[name].abs().max().item()
        assert torch.allclose(grad, peft_grads[name], atol=1e-5 * max(scale, 1.0), rtol=1e-4), name


def test_disabled_adapter_reads_the_frozen_rows(peft_model):
    model, tok, ids = peft_model
    input_ids = torch.tensor([tok.encode("Click OK") + ids[:2]])
    layer = next(m for m in _token_layers(model) if isinstance(m.base_layer, torch.nn.Embedding))
    with torch.no_grad():
        trained = layer(input_ids)
        with model.disable_adapter():
            disabled = layer(input_ids)
        frozen = layer.base_layer(input_ids)
    assert torch.equal(disabled, frozen)
    new = torch.tensor([t in ids for t in input_ids[0].tolist()])
    assert torch.equal(trained[0, ~new], frozen[0, ~new])
    assert not torch.allclose(trained[0, new], frozen[0, new])
