"""LoRA on the base model: which modules, which layers, and the functional-token rows trainable.

    model = with_lora(base_model, cfg.lora, new_ids)      # LoRA + the new token rows trainable
    start_from(model, "runs/round-1/adapter", tokenizer)  # ... holding an earlier run's weights

Saving and loading a trained adapter is ``pipeline.model.trained`` (inference must not import the
training stage).
"""

from __future__ import annotations

import json
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


def start_from(model: Any, folder: str | Path, tokenizer: Any) -> int:
    """Load an earlier run's adapter (its LoRA weights and functional-token rows) into ``model``
    (wrapped by ``with_lora`` with the same LoRA settings; ``tokenizer`` is this run's), so
    training continues from it: a second DAgger round starts from the first round's student.
    An adapter trained before a tool joined the registry continues too: its token rows are
    matched to this run's by token (``_moved_token_rows``), a token it lacks starts fresh.
    Returns the tensors loaded; raises PagescoutError naming the folder when the adapter does
    not fit."""
    from peft import get_peft_model_state_dict, set_peft_model_state_dict
    from safetensors.torch import load_file

    path = Path(folder) / "adapter_model.safetensors"
    if not path.is_file():
        raise PagescoutError(f"init_adapter: {folder} holds no adapter_model.safetensors; pass "
                             "a run folder, its adapter/ or a checkpoint-N of python -m training")
    saved = load_file(str(path))
    wanted = get_peft_model_state_dict(model)
    if any(wanted[k].shape != saved[k].shape for k in set(wanted) & set(saved)
           if ".token_adapter." in k):
        saved = _moved_token_rows(saved, wanted, Path(folder), _token_names(model, tokenizer))
    misfit = sorted(set(wanted) ^ set(saved)) + sorted(
        k for k in set(wanted) & set(saved) if wanted[k].shape != saved[k].shape)
    if misfit:
        raise PagescoutError(f"init_adapter: {folder} does not fit this run's LoRA ({len(misfit)} "
                             f"tensors differ, e.g. {misfit[0]}); train with the lora.* settings "
                             "of the run that wrote it")
    set_peft_model_state_dict(model, saved)
    return len(saved)


def _token_names(model: Any, tokenizer: Any) -> list[str]:
    """The tokens of ``model``'s trainable embedding rows, in row order."""
    ids = model.peft_config["default"].trainable_token_indices["embed_tokens"]
    return tokenizer.convert_ids_to_tokens(list(ids))


def _moved_token_rows(saved: dict[str, Any], wanted: dict[str, Any], folder: Path,
                      names: list[str]) -> dict[str, Any]:
    """``saved`` with its functional-token tensors in this run's layout: each trainable row
    (``trainable_tokens_delta``: the row itself, not a difference) goes to the row of the same
    token here, found through the adapter's own tokenizer and config; the embedding copies
    (``base_layer``) are this run's, whose rows the new tokens' rows extend."""
    from transformers import AutoTokenizer

    try:
        config = json.loads((folder / "adapter_config.json").read_text(encoding="utf-8"))
        old_ids = config["trainable_token_indices"]["embed_tokens"]
        old_names = AutoTokenizer.from_pretrained(str(folder)).convert_ids_to_tokens(old_ids)
    except (OSError, KeyError, TypeError, ValueError) as exc:
        raise PagescoutError(f"init_adapter: {folder} has other functional tokens than this "
                             f"run and no tokenizer or adapter config to match them by ({exc})"
                             ) from None
    old_row = {name: row for row, name in enumerate(old_names)}
    moved = dict(saved)
    for key, tensor in wanted.items():
        if key.endswith(".base_layer.weight") and ".token_adapter." in key:
            moved[key] = tensor.clone()
        elif key.endswith(".trainable_tokens_delta") and key in saved:
            rows = tensor.clone()
            for row, name in enumerate(names):
                if name in old_row:
                    rows[row] = saved[key][old_row[name]]
            moved[key] = rows
    return moved
