"""Keys and values that grow in place: a ``DynamicCache`` whose layers write each forward's new
keys and values into buffers with room for them, instead of concatenating.

    past = RoomyCache(layers=30, capacity=len(prompt) + 96)            # empty: prefill into it
    past = RoomyCache(layers=30, capacity=width + 96, data=blocks)     # per layer: blocks of rows
    # a block is (keys, values, pad): rows (B_i, H, T_i, D) after pad zero positions, all
    # blocks of a layer as wide (pad + T_i); they are stacked along the batch in one copy
    model(input_ids=..., cache=past, use_cache=True)                   # as with a DynamicCache
    past.keep_rows([0, 2], trim=5)     # drop finished rows and 5 columns of common left padding

``DynamicLayer.update`` concatenates: every forward copies the layer's whole keys and values to
add one token to them. On a 2-core CPU that copy was half of a decode step for 16 rows of ~700
tokens (30 layers x 2 x 4 MB per token). Here a layer holds a buffer of ``capacity`` positions
and exposes ``keys``/``values`` as views of its filled part; a forward writes only its own
positions. Beyond the capacity a layer grows once to twice what it needs. ``crop`` (inherited)
shortens the views, so the next write goes where the cropped positions were. The data a cache
starts from is copied into its own buffers (once: no padded or stacked intermediate), so tensors
passed in (a prefix cache's entries, another batch's views) are never written to.

A cache made with a ``dtype`` stores its keys and values in it. Under bf16 autocast the keys
come out of the rotary embedding in fp32 (its fp32 cos/sin promote them) while the values are
bf16, and attention casts the whole fp32 key cache to bf16 on every forward: a copy of every
layer's keys per decoded token, 11% of a 16-row decode step. Stored as bf16 (the same rounding,
done once per position), attention reads them as they are and the keys take half the memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import torch
from transformers.cache_utils import Cache, DynamicCache, DynamicLayer


class RoomyLayer(DynamicLayer):
    """One layer's keys and values as views of buffers with room to grow (see module doc)."""

    def __init__(self, capacity: int, dtype: torch.dtype | None = None) -> None:
        super().__init__()
        self.capacity, self.dtype_stored = capacity, dtype
        self._keys: torch.Tensor | None = None
        self._values: torch.Tensor | None = None

    def update(self, key_states: torch.Tensor, value_states: torch.Tensor, *args: Any,
               **kwargs: Any) -> tuple[torch.Tensor, torch.Tensor]:
        if not self.is_initialized:
            self.lazy_initialization(key_states, value_states)
        length = self.get_seq_length()
        needed = length + key_states.shape[-2]
        if self._keys is None or needed > self._keys.shape[-2]:
            self._grow(key_states, value_states, length, needed)
        self._keys[:, :, length:needed] = key_states
        self._values[:, :, length:needed] = value_states
        self.keys, self.values = self._keys[:, :, :needed], self._values[:, :, :needed]
        return self.keys, self.values

    def _grow(self, key_states: torch.Tensor, value_states: torch.Tensor, length: int,
              needed: int) -> None:
        size = max(self.capacity, needed) if self._keys is None else 2 * needed
        keys = self._empty(key_states, key_states.shape[0], size)
        values = self._empty(value_states, value_states.shape[0], size)
        if length:
            keys[:, :, :length] = self.keys
            values[:, :, :length] = self.values
        self._keys, self._values = keys, values

    def pack(self, blocks: Sequence[tuple[torch.Tensor, torch.Tensor, int]]) -> None:
        """Start from ``blocks`` (see module doc): each block's rows written after its ``pad``
        zero positions, the blocks one after another along the batch."""
        keys, values, pad = blocks[0]
        self.lazy_initialization(keys, values)
        width = pad + keys.shape[-2]
        rows = sum(block[0].shape[0] for block in blocks)
        size = max(self.capacity, width)
        self._keys = self._empty(keys, rows, size)
        self._values = self._empty(values, rows, size)
        start = 0
        for keys, values, pad in blocks:
            end = start + keys.shape[0]
            self._keys[start:end, :, :pad] = 0
            self._values[start:end, :, :pad] = 0
            self._keys[start:end, :, pad:width] = keys
            self._values[start:end, :, pad:width] = values
            start = end
        self.keys, self.values = self._keys[:, :, :width], self._values[:, :, :width]

    def _empty(self, like: torch.Tensor, rows: int, size: int) -> torch.Tensor:
        """A buffer of ``rows`` x heads x ``size`` positions x head dim, in the stored dtype."""
        return like.new_empty(rows, like.shape[1], size, like.shape[-1],
                              dtype=self.dtype_stored or like.dtype)

    def keep_rows(self, rows: torch.Tensor, trim: int) -> None:
        """Keep the batch rows ``rows`` (in that order) and drop the first ``trim`` positions."""
        if self._keys is None:
            return
        length = self.get_seq_length()
        rows = rows.to(self._keys.device)
        self._keys = self._keys.index_select(0, rows)[:, :, trim:]
        self._values = self._values.index_select(0, rows)[:, :, trim:]
        self.keys = self._keys[:, :, :length - trim]
        self.values = self._values[:, :, :length - trim]


class RoomyCache(DynamicCache):
    """A ``DynamicCache`` of ``layers`` ``RoomyLayer``s with room for ``capacity`` positions,
    started from ``data`` when given (per layer, its blocks: see module doc), stored in
    ``dtype`` (None: as the model gives them)."""

    def __init__(self, layers: int, capacity: int,
                 data: Iterable[Sequence[tuple[torch.Tensor, torch.Tensor, int]]] = (),
                 dtype: torch.dtype | None = None) -> None:
        Cache.__init__(self, layers=[RoomyLayer(capacity, dtype) for _ in range(layers)])
        for layer, blocks in zip(self.layers, data, strict=False):
            layer.pack(blocks)

    def keep_rows(self, rows: Sequence[int], trim: int = 0) -> None:
        """Keep only the batch rows ``rows`` and drop the first ``trim`` positions of every
        row (left padding no kept row needs)."""
        index = torch.tensor(list(rows), dtype=torch.long)
        for layer in self.layers:
            layer.keep_rows(index, trim)
