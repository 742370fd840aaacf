"""The forward of a Llama-architecture causal LM (SmolLM2, Llama 2/3, ...) in one function, for
decoding: the same logits as the Hugging Face forward bit for bit, without its per-layer Python.

    forward = llama_forward(model)         # None: not a plain Llama model (peft, other families)
    out = forward(input_ids=ids, position_ids=positions, attention_mask=mask, cache=past,
                  use_cache=True, logits_to_keep=1)          # what model(...) takes
    out.logits                                               # (batch, kept positions, vocab)

A forward of transformers' ``LlamaForCausalLM`` goes through ~15 modules per layer, each with
its decorators, keyword plumbing and output records, and rebuilds the rotary tables and the
4-D mask every call. On a 2-core CPU that Python is a real share of a decode step: a step of 16
rows of ~300 positions took 101 ms through the model and 90 ms here, a lone row 51 and 43 ms
(SmolLM2-135M in bf16, alternating the two step by step). The weights are the model's own
(read at each call, so converting them to bf16 afterwards is seen), the keys and values go to
the cache passed in (``cache.layers[i].update``), and every operation is the model's, in the
same order and dtypes -- the RMS norm in fp32, the rotary embedding in fp32 (the keys come out
fp32 under bf16 autocast, as in the model), attention through ``scaled_dot_product_attention``
with the query heads of a lone position folded onto their key/value head as transformers folds
them -- so a test compares the logits with the model's exactly, in fp32 and under bf16
autocast, for prefill chunks, padded rows and draft slots. Two things the model repeats are
done once, with the same values: the boolean mask becomes attention's additive one once per
forward (each layer's attention call converted it again), and each normed input is cast to the
autocast dtype once for the products that read it (q, k, v; gate, up), not by each. With the
fp32 argmax of ``pipeline.model.greedy`` that took SmolLM2-135M in bf16 from 80-94 to 63-68 ms
a 16-row decode step and from 140-176 to 87-106 ms a 117-token prefill (old and new code
alternated on this 2-core machine). Fusing the q/k/v (or gate/up) products into one would
save another 7-11% but rounds differently, so it is not done.

Only a plain ``LlamaForCausalLM`` with the default rotary embedding, SiLU, no biases and plain
linear layers takes this path; anything else (a peft-wrapped model, or the model inside one,
whose LoRA layers this function would not apply; other architectures) gets None and decodes
through its own forward.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
import torch.nn.functional as F


@dataclass(frozen=True, slots=True)
class Output:
    logits: torch.Tensor


class LlamaForward:
    """``model``'s forward as one function (see module doc)."""

    def __init__(self, model: Any) -> None:
        config = model.config
        self.model = model
        self.kv_heads = config.num_key_value_heads
        self.head_dim = (getattr(config, "head_dim", None)
                         or config.hidden_size // config.num_attention_heads)
        self.eps = config.rms_norm_eps
        self.layers = list(model.model.layers[: config.num_hidden_layers])

    def __call__(self, *, input_ids: torch.Tensor, position_ids: torch.Tensor, cache: Any,
                 logits_to_keep: int | torch.Tensor = 0,
                 attention_mask: torch.Tensor | None = None, use_cache: bool = True) -> Output:
        inner = self.model.model
        batch, length = input_ids.shape
        hidden = inner.embed_tokens(input_ids)
        cos, sin = self._rotary(position_ids, hidden.dtype)
        compute = autocast_dtype(input_ids.device) or hidden.dtype
        allowed = _additive(self._mask(attention_mask, cache.get_seq_length(), batch, length,
                                       input_ids.device), compute)
        for index, layer in enumerate(self.layers):
            hidden = self._layer(layer, index, hidden, cos, sin, allowed, cache, compute)
        if isinstance(logits_to_keep, int):
            hidden = hidden[:, -logits_to_keep:] if logits_to_keep else hidden
        else:
            hidden = hidden[:, logits_to_keep]
        return Output(self.model.lm_head(self._norm(hidden, inner.norm.weight)))

    def _layer(self, layer: Any, index: int, hidden: torch.Tensor, cos: torch.Tensor,
               sin: torch.Tensor, allowed: torch.Tensor, cache: Any,
               compute: torch.dtype) -> torch.Tensor:
        attention, mlp = layer.self_attn, layer.mlp
        batch, length, _ = hidden.shape
        x = self._norm(hidden, layer.input_layernorm.weight).to(compute)
        query = F.linear(x, attention.q_proj.weight).view(batch, length, -1, self.head_dim)
        key = F.linear(x, attention.k_proj.weight).view(batch, length, -1, self.head_dim)
        value = F.linear(x, attention.v_proj.weight).view(batch, length, -1, self.head_dim)
        query, key, value = query.transpose(1, 2), key.transpose(1, 2), value.transpose(1, 2)
        query = query * cos + _rotate_half(query) * sin
        key = key * cos + _rotate_half(key) * sin
        key, value = cache.layers[index].update(key, value)
        if length == 1:  # each key/value head's query heads as one row each (no repeated keys)
            out = F.scaled_dot_product_attention(
                query.reshape(batch, self.kv_heads, -1, self.head_dim), key, value,
                attn_mask=allowed, scale=attention.scaling)
        else:
            out = F.scaled_dot_product_attention(query, key, value, attn_mask=allowed,
                                                 scale=attention.scaling, enable_gqa=True)
        out = out.reshape(batch, -1, length, self.head_dim).transpose(1, 2)
        hidden = hidden + F.linear(out.reshape(batch, length, -1).contiguous(),
                                   attention.o_proj.weight)
        x = self._norm(hidden, layer.post_attention_layernorm.weight).to(compute)
        gate = F.silu(F.linear(x, mlp.gate_proj.weight))
        return hidden + F.linear(gate * F.linear(x, mlp.up_proj.weight), mlp.down_proj.weight)

    def _norm(self, hidden: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        dtype = hidden.dtype
        x = hidden.to(torch.float32)
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return weight * x.to(dtype)

    def _rotary(self, position_ids: torch.Tensor, dtype: torch.dtype
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """cos and sin of every position, (batch, 1, length, head dim), as the model makes them
        (in fp32, then in the hidden states' dtype)."""
        rotary = self.model.model.rotary_emb
        inv_freq = rotary.inv_freq.to(device=position_ids.device, dtype=torch.float)
        with torch.autocast(position_ids.device.type, enabled=False):
            freqs = position_ids[..., None].float() * inv_freq
            angles = torch.cat((freqs, freqs), dim=-1)
            cos = angles.cos() * rotary.attention_scaling
            sin = angles.sin() * rotary.attention_scaling
        return cos.to(dtype)[:, None], sin.to(dtype)[:, None]

    @staticmethod
    def _mask(attention_mask: torch.Tensor | None, past: int, batch: int, length: int,
              device: torch.device) -> torch.Tensor:
        """Which cached and new positions each new position attends to: (batch, 1, length,
        past + length), causal and without the padded columns."""
        width = past + length
        causal = (torch.arange(width, device=device)[None, :]
                  <= torch.arange(past, width, device=device)[:, None])
        if attention_mask is None:
            return causal[None, None].expand(batch, 1, length, width)
        return attention_mask[:, None, None, :width].bool() & causal[None, None]


def autocast_dtype(device: torch.device) -> torch.dtype | None:
    """The dtype autocast computes linear layers and attention in on ``device``, if it is on."""
    if torch.is_autocast_enabled(device.type):
        return torch.get_autocast_dtype(device.type)
    return None


def _additive(allowed: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """A boolean attention mask as the additive one attention turns it into (0 where allowed,
    -inf elsewhere), in the dtype attention computes in: made once per forward rather than by
    every layer's attention call, with the same values."""
    return allowed.new_zeros(allowed.shape, dtype=dtype).masked_fill_(~allowed, float("-inf"))


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def llama_forward(model: Any) -> LlamaForward | None:
    """The one-function forward of ``model`` when it is a plain Llama model this module
    reproduces exactly (see module doc), else None."""
    if not plain_llama(model) or model.config._attn_implementation != "sdpa":
        return None
    return LlamaForward(model)


def plain_llama(model: Any) -> bool:
    """Whether ``model`` is a ``LlamaForCausalLM`` with the default rotary embedding, SiLU, no
    biases and plain linear layers (no adapter inside): what this forward and the GGUF export
    (``pipeline.model.gguf_export``) read."""
    config = getattr(model, "config", None)
    if type(model).__name__ != "LlamaForCausalLM" or config is None:
        return False
    rotary = model.model.rotary_emb
    return not (getattr(config, "attention_bias", False) or getattr(config, "mlp_bias", False)
                or config.hidden_act != "silu" or getattr(rotary, "rope_type", "") != "default"
                or getattr(config, "pretraining_tp", 1) != 1
                or not all(type(module) is torch.nn.Linear for layer in model.model.layers
                           for module in _projections(layer)))


def _projections(layer: Any) -> tuple:
    """The decoder layer's linear modules: plain ``nn.Linear`` here, or adapted (a LoRA layer
    keeps a ``weight`` of its base, so reading it would drop the adapter)."""
    attention, mlp = layer.self_attn, layer.mlp
    return (attention.q_proj, attention.k_proj, attention.v_proj, attention.o_proj,
            mlp.gate_proj, mlp.up_proj, mlp.down_proj)
