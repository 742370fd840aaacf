"""LoRA on the base model: which modules, which layers, and the functional-token rows trainable.

    model = with_lora(base_model, cfg.lora, new_ids)      # LoRA + the new token rows trainable
    start_from(model, "runs/round-1/adapter")             # ... holding an earlier run's weights

Saving and loading a trained adapter is ``pipeline.model.trained`` (inference must not import the
training stage).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import PagescoutError
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


def start_from(model: Any, folder: str | Path) -> int:
    """Load an earlier run's adapter (its LoRA weights and functional-token rows) into ``model``
    (wrapped by ``with_lora`` with the same LoRA settings), so training continues from it: a
    second DAgger round starts from the first round's student. Returns the tensors loaded;
    raises PagescoutError naming the folder when the adapter does not fit."""
    from peft import get_peft_model_state_dict, set_peft_model_state_dict
    from safetensors.torch import load_file

    path = Path(folder) / "adapter_model.safetensors"
    if not path.is_file():
        raise PagescoutError(f"init_adapter: {folder} holds no adapter_model.safetensors; pass "
                             "a run folder, its adapter/ or a checkpoint-N of python -m training")
    saved = load_file(str(path))
    wanted = get_peft_model_state_dict(model)
    misfit = sorted(set(wanted) ^ set(saved)) + sorted(
        k for k in set(wanted) & set(saved) if wanted[k].shape != saved[k].shape)
    if misfit:
        raise PagescoutError(f"init_adapter: {folder} does not fit this run's LoRA ({len(misfit)} "
                             f"tensors differ, e.g. {misfit[0]}); train with the lora.* settings "
                             "of the run that wrote it")
    set_peft_model_state_dict(model, saved)
    return len(saved)
