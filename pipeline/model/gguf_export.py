"""Write a Llama-architecture Hugging Face model (a merged checkpoint, the base model) as a GGUF
file that llama.cpp runs, with the tokenizer's vocabulary (functional tokens included).

    write_gguf(model, tokenizer, "outputs/run/model-f16.gguf", weights="f16")
    path = exported_gguf(model, tokenizer, weights="q8_0")    # cached by the weights' digest

llama.cpp decodes SmolLM2-135M on this 2-core CPU ~10x faster a token than the fp32 torch
forward, whose speed is bound by reading 538 MB of weights per token; GGUF stores them in f16
(half) or q8_0 (blocks of 32 int8 with an f16 scale: about a quarter). The tensors are named and
laid out as llama.cpp's own converter writes a ``LlamaForCausalLM``: the query and key
projections' rows permuted from the Hugging Face rotary layout (halves) to GGML's (interleaved
pairs); norms stay fp32; a tied output head is left out (llama.cpp reads the embedding then).
The vocabulary is written as a GPT-2 style BPE (tokens in id order, their merges, special
tokens -- the functional tokens among them -- as control tokens), with llama.cpp's name of the
pre-tokenizer (``pre_tokenizer``, found as llama.cpp's converter finds it) and the chat
template, so llama.cpp's own tokenizer gives the Hugging Face tokenizer's ids and the file
serves in llama.cpp's tools as it is (``python -m pipeline export-gguf``). pagescout's engine
still passes ids it tokenized itself.

Only a plain Llama model (the architecture ``pipeline.model.llama_forward`` takes) is written;
anything else raises ``GGUFExportError`` naming what it has.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Literal

import numpy as np

from pipeline.errors import PagescoutError
from pipeline.model.token_count import cache_root

Weights = Literal["f16", "q8_0", "f32"]
WEIGHT_TYPES = ("f16", "q8_0", "f32")
FORMAT_VERSION = 2  # bump when the written file changes, so cached exports are rebuilt
# llama.cpp names a BPE pre-tokenizer by the sha256 of the ids its tokenizer gives this text
# (llama.cpp's convert_hf_to_gguf.py); the Llama-architecture ones a plain Llama model may have
PRE_TOKENIZER_TEXT = (
    '\n \n\n \n\n\n \t \t\t \t\n  \n   \n    \n     \n🚀 (normal) 😶\u200d🌫️ (multiple emoj'
    'is concatenated) ✅ 🦙🦙 3 33 333 3333 33333 333333 3333333 33333333 3.3 3..3 3...3 កាន'
    "់តែពិសេសអាច😁 ?我想在apple工作1314151天～ ------======= нещо на Български ''''''```````"
    '""""......!!!!!!?????? I\'ve been \'told he\'s there, \'RE you sure? \'M not sure I'
    "'ll make it, 'D you like some tea? We'Ve a'lL")
PRE_TOKENIZERS = {
    "855059429035d75a914d1eda9f10a876752e281a054a7a3d421ef0533e5b6249": "smollm",
    "0ef9807a4087ebef797fc749390439009c3b9eda9ad1a097abbe738f486c01e5": "llama-bpe",
    "3ce83efda5659b07b1ad37ca97ca5797ea4285d9b9ab0dc679e4a720c9da7454": "gpt-2",
}


class GGUFExportError(PagescoutError):
    """A model that cannot be written as GGUF (not a plain Llama model, a vocabulary that does
    not fit the embedding); the message says what it is."""


def exported_gguf(model: Any, tokenizer: Any, weights: Weights = "f16") -> Path:
    """The GGUF file of ``model`` under ``<cache>/gguf/``, written on the first call for these
    weights (``weights_digest``, the tokenizer's size) and ``weights`` type; each writer writes
    a file of its own and renames it into place, so processes exporting at once do not
    clash."""
    key = f"{weights_digest(model)}|{len(tokenizer)}|{weights}|{FORMAT_VERSION}"
    name = hashlib.sha256(key.encode()).hexdigest()[:20]
    path = cache_root() / "gguf" / f"{name}-{weights}.gguf"
    if path.is_file() and path.stat().st_size > 0:
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    write_gguf(model, tokenizer, partial, weights)
    partial.replace(path)
    return path


def weights_digest(model: Any) -> str:
    """A digest of the model's weights (names, shapes, dtypes and bytes)."""
    import torch

    digest = hashlib.blake2b(digest_size=16)
    for name, tensor in model.state_dict().items():
        digest.update(f"{name}{tuple(tensor.shape)}{tensor.dtype}".encode())
        digest.update(tensor.detach().contiguous().cpu().view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def write_gguf(model: Any, tokenizer: Any, path: str | Path, weights: Weights = "f16") -> Path:
    """Write ``model`` (a ``LlamaForCausalLM``, weights merged) and ``tokenizer`` to ``path``."""
    import gguf

    if weights not in WEIGHT_TYPES:
        raise GGUFExportError(f"weights must be one of {', '.join(WEIGHT_TYPES)}, not {weights!r}")
    config = _llama_config(model)
    state = {k: v.detach().float().cpu().numpy() for k, v in model.state_dict().items()}
    vocab_rows = state["model.embed_tokens.weight"].shape[0]
    tokens, types, merges = _vocabulary(tokenizer, vocab_rows)

    path = Path(path)
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name(str(getattr(config, "_name_or_path", "") or "pagescout model"))
    writer.add_context_length(config.max_position_embeddings)
    writer.add_embedding_length(config.hidden_size)
    writer.add_block_count(config.num_hidden_layers)
    writer.add_feed_forward_length(config.intermediate_size)
    writer.add_head_count(config.num_attention_heads)
    writer.add_head_count_kv(config.num_key_value_heads)
    writer.add_rope_freq_base(_rope_theta(config))
    writer.add_layer_norm_rms_eps(config.rms_norm_eps)
    writer.add_vocab_size(vocab_rows)
    writer.add_rope_dimension_count(_head_dim(config))
    writer.add_file_type({"f32": 0, "f16": 1, "q8_0": 7}[weights])

    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre(pre_tokenizer(tokenizer))
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    for setter, token_id in ((writer.add_bos_token_id, tokenizer.bos_token_id),
                             (writer.add_eos_token_id, tokenizer.eos_token_id),
                             (writer.add_pad_token_id, tokenizer.pad_token_id),
                             (writer.add_unk_token_id, tokenizer.unk_token_id)):
        if isinstance(token_id, int):
            setter(token_id)
    writer.add_add_bos_token(False)
    if isinstance(getattr(tokenizer, "chat_template", None), str):
        writer.add_chat_template(tokenizer.chat_template)

    for name, array in _llama_tensors(state, config):
        _add_tensor(writer, gguf, name, array, weights)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def pre_tokenizer(tokenizer: Any) -> str:
    """llama.cpp's name for the tokenizer's pre-tokenizer (how it splits text before BPE):
    "smollm" for SmolLM2's; "default" when the tokenizer is none llama.cpp is known to name."""
    ids = tokenizer.encode(PRE_TOKENIZER_TEXT, add_special_tokens=False)
    return PRE_TOKENIZERS.get(hashlib.sha256(str(ids).encode()).hexdigest(), "default")


def _llama_config(model: Any) -> Any:
    from pipeline.model.llama_forward import plain_llama

    if not plain_llama(model):
        config = getattr(model, "config", None)
        raise GGUFExportError(
            "only a plain Llama model (no biases, SiLU, the default rotary embedding, adapters "
            f"merged) is written as GGUF; this one is {type(model).__name__} "
            f"(model_type={getattr(config, 'model_type', None)!r})")
    return model.config


def _rope_theta(config: Any) -> float:
    """The rotary base: ``rope_parameters["rope_theta"]`` (transformers 5), else
    ``rope_theta``."""
    parameters = getattr(config, "rope_parameters", None) or {}
    theta = parameters.get("rope_theta") if isinstance(parameters, dict) else None
    return float(theta if theta is not None else getattr(config, "rope_theta", 10000.0))


def _head_dim(config: Any) -> int:
    return getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads


def _llama_tensors(state: dict[str, np.ndarray], config: Any):
    """(GGUF name, array) of every tensor, in llama.cpp's names and layout."""
    heads, kv_heads = config.num_attention_heads, config.num_key_value_heads
    yield "token_embd.weight", state["model.embed_tokens.weight"]
    for i in range(config.num_hidden_layers):
        hf = f"model.layers.{i}."
        yield f"blk.{i}.attn_norm.weight", state[hf + "input_layernorm.weight"]
        yield f"blk.{i}.attn_q.weight", _rotary_rows(state[hf + "self_attn.q_proj.weight"], heads)
        yield f"blk.{i}.attn_k.weight", _rotary_rows(state[hf + "self_attn.k_proj.weight"],
                                                     kv_heads)
        yield f"blk.{i}.attn_v.weight", state[hf + "self_attn.v_proj.weight"]
        yield f"blk.{i}.attn_output.weight", state[hf + "self_attn.o_proj.weight"]
        yield f"blk.{i}.ffn_norm.weight", state[hf + "post_attention_layernorm.weight"]
        yield f"blk.{i}.ffn_gate.weight", state[hf + "mlp.gate_proj.weight"]
        yield f"blk.{i}.ffn_up.weight", state[hf + "mlp.up_proj.weight"]
        yield f"blk.{i}.ffn_down.weight", state[hf + "mlp.down_proj.weight"]
    yield "output_norm.weight", state["model.norm.weight"]
    if not getattr(config, "tie_word_embeddings", False) and "lm_head.weight" in state:
        yield "output.weight", state["lm_head.weight"]


def _rotary_rows(weight: np.ndarray, heads: int) -> np.ndarray:
    """A q or k projection's rows from the Hugging Face rotary layout (each head's first half
    rotated with its second) to GGML's (each even row with the next), as llama.cpp's converter
    permutes them."""
    rows = weight.shape[0]
    return (weight.reshape(heads, 2, rows // heads // 2, *weight.shape[1:])
            .swapaxes(1, 2).reshape(weight.shape))


def _add_tensor(writer: Any, gguf: Any, name: str, array: np.ndarray, weights: Weights) -> None:
    """A matrix in the chosen ``weights`` type (q8_0 where its rows split into blocks of 32);
    vectors (norms) in fp32, as llama.cpp keeps them."""
    array = np.ascontiguousarray(array, dtype=np.float32)
    if array.ndim < 2 or weights == "f32":
        writer.add_tensor(name, array)
        return
    if weights == "f16" or array.shape[-1] % 32:
        writer.add_tensor(name, array.astype(np.float16))
        return
    q8 = gguf.GGMLQuantizationType.Q8_0
    writer.add_tensor(name, gguf.quants.quantize(array, q8), raw_shape=None, raw_dtype=q8)


def _vocabulary(tokenizer: Any, rows: int) -> tuple[list[str], list[int], list[str]]:
    """(tokens in id order, their GGUF token types, the BPE merges) of a byte-level BPE
    tokenizer, padded with unused tokens up to the embedding's ``rows``."""
    import gguf

    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise GGUFExportError("the tokenizer is not a fast (tokenizers) tokenizer: its BPE "
                              "merges cannot be read for the GGUF vocabulary")
    spec = json.loads(backend.to_str())
    if spec.get("model", {}).get("type") != "BPE":
        raise GGUFExportError(f"only a BPE tokenizer is written as GGUF, not "
                              f"{spec.get('model', {}).get('type')!r}")
    merges = [m if isinstance(m, str) else " ".join(m) for m in spec["model"].get("merges", [])]
    by_id = {i: t for t, i in tokenizer.get_vocab().items()}
    if by_id and max(by_id) >= rows:
        raise GGUFExportError(f"the tokenizer has id {max(by_id)} but the embedding only "
                              f"{rows} rows: resize the embedding before export")
    special = {a["id"] for a in spec.get("added_tokens", []) if a.get("special")}
    added = {a["id"] for a in spec.get("added_tokens", [])}
    tokens, types = [], []
    for i in range(rows):
        if i not in by_id:
            tokens.append(f"[PAD{i}]")
            types.append(gguf.TokenType.UNUSED)
        else:
            tokens.append(by_id[i])
            types.append(gguf.TokenType.CONTROL if i in special else
                         gguf.TokenType.USER_DEFINED if i in added else gguf.TokenType.NORMAL)
    return tokens, [int(t) for t in types], merges
