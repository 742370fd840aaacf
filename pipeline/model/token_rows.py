"""A cheaper forward for peft's trainable token rows (``trainable_token_indices``).

peft computes the wrapped embedding and the tied LM head from a full copy of the vocabulary
matrix with the trained rows written in (``W.index_copy(rows, deltas)``): every forward copies
the 49k x 576 matrix twice, and autograd builds a gradient for all of it only to keep the rows
of the new tokens -- on a 2-core CPU ~0.2 s of a ~1.8 s SmolLM2-135M conversation step, and a
matrix copy per generated token at inference. The same values and the same gradients come from
the frozen matrix plus the trained rows:

- embedding: look the ids up in the frozen matrix, then put the trained rows' vectors at the
  positions whose id is one of theirs;
- LM head: project onto the frozen matrix, then overwrite the trained rows' logit columns with
  the projection onto the rows.

    use_row_forward(model)   # after get_peft_model / PeftModel.from_pretrained

Only the forward changes (the layers' class is swapped for a subclass), so saving, loading and
merging are peft's own; merged or disabled adapters, several active adapters and layer types
peft's own code does not know fall back to peft's forward.
"""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from peft.tuners.trainable_tokens.layer import TrainableTokensLayer


class RowTokensLayer(TrainableTokensLayer):
    """``TrainableTokensLayer`` whose forward never materialises the merged matrix."""

    def forward_adapters(self, x: torch.Tensor, active_adapters, *args, **kwargs) -> torch.Tensor:
        base = self.base_layer
        if (self.disable_adapters or self.merged or len(active_adapters) != 1
                or not isinstance(base, torch.nn.Embedding | torch.nn.Linear)):
            return super().forward_adapters(x, active_adapters, *args, **kwargs)
        name = active_adapters[0]
        index = torch.as_tensor(self.token_indices[name], device=base.weight.device)
        rows = self.trainable_tokens_delta[name].to(base.weight)
        if isinstance(base, torch.nn.Linear):
            logits = F.linear(x, base.weight)  # peft's own forward ignores a bias too
            return logits.index_copy(-1, index, F.linear(x, rows))
        out = F.embedding(x, base.weight, base.padding_idx, base.max_norm, base.norm_type,
                          base.scale_grad_by_freq, base.sparse)
        match = x.unsqueeze(-1).eq(index)  # (..., new rows): which new id each position holds
        out = torch.where(match.any(-1, keepdim=True), F.embedding(match.int().argmax(-1), rows),
                          out)
        scale = self._get_embed_scale()
        return out if scale is None else out * scale.to(out.dtype)


def use_row_forward(model: Any) -> int:
    """Give every trainable-token layer of ``model`` the row forward; returns how many."""
    layers = [m for m in model.modules() if type(m) is TrainableTokensLayer]
    for layer in layers:
        layer.__class__ = RowTokensLayer
    return len(layers)
