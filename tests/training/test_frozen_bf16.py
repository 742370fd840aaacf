"""Training in bf16 keeps its frozen weights in bf16: the same loss and gradients as fp32
weights under autocast, LoRA and the tied vocabulary matrix untouched in fp32."""

from __future__ import annotations

import copy

import torch

from pipeline.model.generate import bf16_linear_weights
from training.config import LoraConfig
from training.lora import with_lora

NEW_IDS = [60, 61]


def tiny_peft_model():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=4,
        num_attention_heads=2, num_key_value_heads=2, tie_word_embeddings=True))
    model = with_lora(model, LoraConfig(rank=4, alpha=8, dropout=0.0, top_layers=2), NEW_IDS)
    for name, param in model.named_parameters():  # LoRA's B starts at zero: give it a value
        if "lora_B" in name:
            torch.nn.init.normal_(param, std=0.1)
    return model.train()


def loss_and_grads(model) -> tuple[float, dict[str, torch.Tensor]]:
    ids = torch.tensor([[1, 5, 60, 7, 9, 61, 3, 2]])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        loss = model(input_ids=ids, labels=ids, use_cache=False).loss
    loss.backward()
    return loss.item(), {n: p.grad.clone() for n, p in model.named_parameters()
                         if p.requires_grad}


def test_frozen_weights_in_bf16_train_as_under_autocast():
    model = tiny_peft_model()
    stored = copy.deepcopy(model)
    converted = bf16_linear_weights(stored, frozen_only=True)
    assert converted == 4 * 7  # every projection of the 4 layers; not lm_head, not LoRA's A/B
    dtypes = {n: p.dtype for n, p in stored.named_parameters()}
    assert all(d == torch.float32 for n, d in dtypes.items() if "lora_" in n or "embed" in n)
    projections = [d for n, d in dtypes.items() if n.endswith("proj.base_layer.weight")]
    assert projections and all(d == torch.bfloat16 for d in projections)
    modules = dict(stored.named_modules())
    head = next(m for n, m in modules.items() if "lm_head" in n and type(m) is torch.nn.Linear)
    embed = next(m for m in modules.values() if type(m) is torch.nn.Embedding)
    assert head.weight is embed.weight  # the LM head is still the embedding's fp32 matrix
    assert head.weight.dtype == torch.float32

    loss, grads = loss_and_grads(model)
    loss_bf16, grads_bf16 = loss_and_grads(stored)
    assert loss_bf16 == loss
    assert grads.keys() == grads_bf16.keys() and grads
    for name, grad in grads.items():
        assert torch.equal(grad, grads_bf16[name]), name
