"""LoRA on the base model: which modules, which layers, and the functional-token rows trainable.

    model = with_lora(base_model, cfg.lora, new_ids)      # LoRA + the new token rows trainable

Saving and loading a trained adapter is ``pipeline.model.trained`` (inference must not import the
training stage).
"""

from __future__ import annotations

from typing import Any

from pipeline.model.token_rows import use_row_forward
from training.config import LoraConfig
from training.top_layers import stop_backward_below, top_layer_indices


def with_lora(model: Any, lora: LoraConfig, new_ids: list[int]) -> Any:
    """The model wrapped by peft: LoRA on ``lora.target_modules`` (of the top
    ``lora.top_layers`` decoder layers, backward stopped below them, when set) and ONLY the
    rows ``new_ids`` of the (tied) embedding trainable; every original row stays frozen. The
    token rows use the cheaper forward of ``pipeline.model.token_rows``."""
    from peft import LoraConfig as PeftLoraConfig
    from peft import get_peft_model

    layers = top_layer_indices(model, lora.top_layers) if lora.top_layers else None
    config = PeftLoraConfig(
        r=lora.rank, lora_alpha=lora.alpha, lora_dropout=lora.dropout,
        target_modules=list(lora.target_modules), task_type="CAUSAL_LM",
        trainable_token_indices={"embed_tokens": list(new_ids)}, layers_to_transform=layers,
    )
    model = get_peft_model(model, config)
    use_row_forward(model)
    if layers and layers[0] > 0:
        stop_backward_below(model, layers[0])
    return model
