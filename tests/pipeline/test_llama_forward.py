"""The one-function Llama forward gives the real SmolLM2's logits bit for bit -- prefill chunks
after a cache, ragged rows under a padding mask, a lone row's draft slots -- in fp32 and under
bf16 autocast with bf16 weights; other models keep their own forward."""

from __future__ import annotations

import copy

import pytest
import torch

from pipeline.model.kv_cache import RoomyCache
from pipeline.model.llama_forward import llama_forward


@pytest.fixture(scope="module")
def models(base_folder):
    from pipeline.model.generate import bf16_linear_weights
    from pipeline.model.hf import load_causal_lm

    model, _ = load_causal_lm(base_folder)
    model.eval()
    in_bf16 = copy.deepcopy(model)
    bf16_linear_weights(in_bf16)
    return {False: model, True: in_bf16}


def run(forward, model, ids: torch.Tensor, bf16: bool) -> list[torch.Tensor]:
    """Logits of: two prefill chunks (the second after a cache), then three decode steps of
    rows padded to different widths, then four draft slots; every call through ``forward``."""
    rows = ids.shape[0]
    layers = model.config.num_hidden_layers
    out = []
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        past = RoomyCache(layers, 64, dtype=torch.bfloat16 if bf16 else None)
        for start, end in ((0, 24), (24, 40)):
            out.append(forward(input_ids=ids[:, start:end], cache=past, use_cache=True,
                               position_ids=torch.arange(start, end).expand(rows, end - start),
                               logits_to_keep=torch.tensor([end - start - 1])).logits)
        mask = torch.ones(rows, 40, dtype=torch.long)
        mask[1, :7] = 0  # row 1 is 7 positions shorter: left-padded
        positions = torch.tensor([40, 33, 40])[:rows, None]
        for step in range(3):
            mask = torch.cat([mask, mask.new_ones(rows, 1)], dim=1)
            out.append(forward(input_ids=ids[:, step:step + 1], position_ids=positions + step,
                               attention_mask=mask, cache=past, use_cache=True,
                               logits_to_keep=1).logits)
        mask = torch.cat([mask, mask.new_ones(rows, 4)], dim=1)
        out.append(forward(input_ids=ids[:, 5:9], position_ids=positions + 3 + torch.arange(4),
                           attention_mask=mask, cache=past, use_cache=True,
                           logits_to_keep=4).logits)
    return [logits.float() for logits in out]


@pytest.mark.parametrize("bf16", [False, True])
def test_the_logits_are_the_models_bit_for_bit(models, bf16):
    model = models[bf16]
    ids = torch.randint(200, 40_000, (3, 40), generator=torch.Generator().manual_seed(7))
    forward = llama_forward(model)
    assert forward is not None
    expected, got = run(model, model, ids, bf16), run(forward, model, ids, bf16)
    assert [g.shape for g in got] == [e.shape for e in expected]
    for index, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert torch.equal(g, e), (index, (g - e).abs().max().item())


def test_other_models_keep_their_own_forward(models):
    from peft import LoraConfig, get_peft_model

    wrapped = get_peft_model(copy.deepcopy(models[False]),
                             LoraConfig(r=2, target_modules=["q_proj"]))
    assert llama_forward(wrapped) is None
    assert llama_forward(wrapped.base_model.model) is None  # its LoRA layers would be skipped
    eager = copy.deepcopy(models[False])
    eager.config._attn_implementation = "eager"
    assert llama_forward(eager) is None
    assert llama_forward(torch.nn.Linear(2, 2)) is None


def test_an_fp32_policy_on_weights_a_bf16_policy_stored_in_bf16_says_so(models, base_folder):
    from transformers import AutoTokenizer

    from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
    from pipeline.errors import PagescoutError

    tokenizer = AutoTokenizer.from_pretrained(str(base_folder))
    with pytest.raises(PagescoutError, match="stored in bf16.*load the model again"):
        ModelPolicy(models[True], tokenizer, "untuned", "shared", GenerationSettings(bf16=False))
    ModelPolicy(models[False], tokenizer, "untuned", "fp32", GenerationSettings(bf16=False))
