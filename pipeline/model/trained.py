"""Save which base a training run used, and load a trained model back for inference.

    save_run_info(adapter_folder, "smollm2", base_folder)   # written by the training recipe
    model, tokenizer = load_trained("runs/x/adapter")       # adapter folder, checkpoint-N or merged
    model, tokenizer = load_trained("runs/x/adapter", merge=True)   # the adapter folded in

An adapter folder holds the peft adapter (LoRA weights and the trained functional-token rows),
the tokenizer with the functional tokens and the chat template, and ``pagescout_training.json``
naming the base model spec. ``load_trained`` loads the base through ``pipeline.model.hf``,
resizes it to the saved tokenizer and applies the adapter; a merged folder loads directly. A
checkpoint saved before newer tools joined the registry loads as saved: its tokenizer keeps the
tokens it was trained with (``pipeline.model.functional_tokens.fit_to_tokenizer``).

``merge=True`` folds the LoRA weights and the token rows into the base's weights
(``merge_and_unload``), for inference: a peft model runs every adapted linear layer as the base
product plus two small LoRA products, each through peft's Python dispatch, and the default
checkpoint adapts seven linear layers in each of 15 blocks. Decoding the calls student alone on
this 2-core CPU took 95 ms a token in bf16 unmerged and 70 ms merged (fp32: 63 and 54), with the
same answers on the generation tests' prompts; the policies load merged, training keeps the
adapter.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import PagescoutError
from pipeline.model.functional_tokens import fit_to_tokenizer, missing_tokens
from pipeline.model.token_rows import use_row_forward
from pipeline.tools import END_TOKEN

RUN_FILE = "pagescout_training.json"


def save_run_info(folder: str | Path, base_spec: str | None, base_folder: str | Path) -> None:
    info = {"base_model": base_spec, "base_folder": str(base_folder)}
    (Path(folder) / RUN_FILE).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")


def trained_folder(spec: str | Path) -> Path | None:
    """The folder ``load_trained`` takes for ``spec``: a training run folder's ``adapter/``, an
    adapter folder or ``checkpoint-N``, or a merged folder that holds the functional tokens;
    None when ``spec`` is none of these (a base model spec)."""
    folder = Path(spec).expanduser()
    if (folder / "adapter" / "adapter_config.json").is_file():
        return folder / "adapter"
    if (folder / "adapter_config.json").is_file():
        return folder
    if (folder / "config.json").is_file() and (folder / "tokenizer_config.json").is_file():
        tokenizer_files = folder.glob("*.json")
        if any(END_TOKEN in f.read_text(encoding="utf-8", errors="replace")
               for f in tokenizer_files if f.name.startswith(("tokenizer", "added_tokens"))):
            return folder
    return None


def load_trained(path: str | Path, dtype: str = "float32", merge: bool = False
                 ) -> tuple[Any, Any]:
    """``(model, tokenizer)`` of a trained adapter folder (or checkpoint-N), or of a merged
    model folder; in eval mode, functional tokens present; ``merge``: the adapter folded into
    the base's weights (see module doc)."""
    from peft import PeftModel
    from transformers import AutoTokenizer

    from pipeline.model.hf import load_causal_lm

    folder = Path(path)
    if not (folder / "adapter_config.json").is_file():
        model, tokenizer = load_causal_lm(folder, dtype=dtype)
        if END_TOKEN in missing_tokens(tokenizer):  # a merged model must know its tokens
            raise PagescoutError(f"{folder}: the tokenizer holds no functional tokens; pass a "
                                 "folder written by python -m training (or merged from one)")
        return model, tokenizer
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model, _ = load_causal_lm(_base_of(folder), dtype=dtype)
    fit_to_tokenizer(model, tokenizer)  # the adapter's rows match its saved tokenizer
    model = PeftModel.from_pretrained(model, str(folder))
    use_row_forward(model)
    if merge:
        model = model.merge_and_unload()
    model.eval()
    return model, tokenizer


def load_model(spec: str | Path, dtype: str = "float32") -> tuple[Any, Any, Path | None]:
    """``(model, tokenizer, folder)`` in eval mode: a training run folder (its ``adapter/``),
    an adapter folder or ``checkpoint-N`` (merged into the base's weights) or a merged folder
    holding the functional tokens (``folder``: the trained folder it read), or a base model
    spec (``smollm2``, a folder, a .gguf, a hub id: ``folder`` None)."""
    from pipeline.model.hf import load_causal_lm

    folder = trained_folder(spec)
    if folder is not None:
        model, tokenizer = load_trained(folder, dtype=dtype, merge=True)
        return model, tokenizer, folder
    model, tokenizer = load_causal_lm(spec, dtype=dtype)
    return model.eval(), tokenizer, None


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
