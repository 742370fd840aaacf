"""Build the trainable model, save a trained one, and load it back (eval and serve use this).

    model = with_lora(base_model, cfg.lora, new_ids)      # LoRA + the new token rows trainable
    model, tokenizer = load_trained("runs/x/adapter")     # adapter folder, checkpoint-N or merged

An adapter folder holds the peft adapter (LoRA weights and the trained functional-token rows),
the tokenizer with the functional tokens and the chat template, and ``pagescout_training.json``
naming the base model spec. ``load_trained`` loads the base through ``pipeline.hf_model``,
resizes it to the saved tokenizer and applies the adapter; a merged folder loads directly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import PagescoutError
from training.config import LoraConfig
from training.token_rows import use_row_forward
from training.tokens import add_functional_tokens, functional_token_ids
from training.top_layers import stop_backward_below, top_layer_indices

RUN_FILE = "pagescout_training.json"


def with_lora(model: Any, lora: LoraConfig, new_ids: list[int]) -> Any:
    """The model wrapped by peft: LoRA on ``lora.target_modules`` (of the top
    ``lora.top_layers`` decoder layers, backward stopped below them, when set) and ONLY the
    rows ``new_ids`` of the (tied) embedding trainable; every original row stays frozen. The
    token rows use the cheaper forward of ``training.token_rows``."""
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


def save_run_info(folder: str | Path, base_spec: str | None, base_folder: str | Path) -> None:
    info = {"base_model": base_spec, "base_folder": str(base_folder)}
    (Path(folder) / RUN_FILE).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


def load_trained(path: str | Path, dtype: str = "float32") -> tuple[Any, Any]:
    """``(model, tokenizer)`` of a trained adapter folder (or checkpoint-N), or of a merged
    model folder; in eval mode, functional tokens present."""
    from peft import PeftModel
    from transformers import AutoTokenizer

    from pipeline.hf_model import load_causal_lm

    folder = Path(path)
    if not (folder / "adapter_config.json").is_file():
        model, tokenizer = load_causal_lm(folder, dtype=dtype)
        functional_token_ids(tokenizer)  # a merged model must already know its tokens
        return model, tokenizer
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model, _ = load_causal_lm(_base_of(folder), dtype=dtype)
    add_functional_tokens(model, tokenizer, init=False)
    model = PeftModel.from_pretrained(model, str(folder))
    use_row_forward(model)
    model.eval()
    return model, tokenizer


def _base_of(folder: Path) -> str | None:
    """The base model spec: from the run file, else the adapter config's base path."""
    for candidate in (folder, folder.parent):
        if (candidate / RUN_FILE).is_file():
            return json.loads((candidate / RUN_FILE).read_text(encoding="utf-8"))["base_model"]
    adapter = json.loads((folder / "adapter_config.json").read_text(encoding="utf-8"))
    base = adapter.get("base_model_name_or_path")
    if not base:
        raise PagescoutError(f"{folder}: the adapter names no base model; pass a folder written "
                             "by python -m training")
    return base
