"""LoRA on the top N decoder layers only, with backward stopped below the lowest of them.

    indices = top_layer_indices(model, 15)         # peft's ``layers_to_transform``
    model = get_peft_model(model, config)          # LoRA in those layers only
    stop_backward_below(model, indices[0])         # the layers below run forward only

With LoRA in the upper layers only, nothing below the lowest LoRA layer holds a trainable weight
but the functional tokens' embedding rows, so the backward pass through the lower layers would
serve only those rows' input side. Detaching the hidden states that enter the lowest LoRA layer
skips it: a backward pass through a layer costs about twice its forward here, so on SmolLM2-135M
(30 layers) on a 2-core CPU one training conversation takes ~1.65 s with LoRA on the top 15
layers against ~2.3 s on all 30. The token rows then learn through the tied LM head (their
output side) only; their input side moves with it, as the tie wants.
"""

from __future__ import annotations

from typing import Any

import torch

from pipeline.errors import PagescoutError


def decoder_layers(model: Any) -> torch.nn.ModuleList:
    """The model's stack of decoder layers: the first module list as long as the config's
    ``num_hidden_layers`` (``model.layers`` of Llama/Qwen2, ``transformer.h`` of GPT-2)."""
    count = getattr(model.config, "num_hidden_layers", None)
    for module in model.modules():
        if isinstance(module, torch.nn.ModuleList) and len(module) == count:
            return module
    raise PagescoutError(f"{type(model).__name__}: no stack of {count} decoder layers found; "
                         "set lora.top_layers: null to put LoRA in every layer")


def top_layer_indices(model: Any, top: int) -> list[int]:
    """Indices of the ``top`` uppermost decoder layers, lowest first."""
    count = len(decoder_layers(model))
    if top > count:
        raise PagescoutError(f"lora.top_layers: {top}, but the model has {count} decoder "
                             f"layers; use at most {count} (or null for all)")
    return list(range(count - top, count))


def stop_backward_below(model: Any, first: int) -> Any:
    """Detach the hidden states entering decoder layer ``first``; returns the hook's handle."""
    def detach(module, args, kwargs):
        if args:
            return (args[0].detach(), *args[1:]), kwargs
        return args, {**kwargs, "hidden_states": kwargs["hidden_states"].detach()}

    return decoder_layers(model)[first].register_forward_pre_hook(detach, with_kwargs=True)
