"""Past keys and values of earlier prompts, reused when a new prompt starts the same way.

An agent's calls share long prefixes: every call of a step extends the step's conversation
(system prompt, user turn, then assistant and tool turns, append-only), and every step of every
episode opens with the same system prompt and the task. ``PrefixCache`` keeps the keys and values
of recent sequences (prompt plus answer, as token ids) so that generation prefills only the
tokens after the longest common prefix:

    cache = PrefixCache(capacity=16)
    keep, layers = cache.lookup(prompt_ids)     # layers: per-layer (keys, values) of prompt[:keep]
    ...                                         # prefill prompt[keep:], decode
    cache.store(prompt_ids + answer_ids[:-1], layers_after)

Entries are keyed by token ids, so a cached state is only ever used for exactly the tokens it was
computed from: concurrent episodes cannot see each other's pages, only share their common prefix.
``lookup`` hands out views of an entry's tensors, which generation extends into new tensors
(``torch.cat``), so an entry is never modified after it is stored. The least recently used
entry goes first when ``capacity`` is reached; an entry that a new one extends is dropped
(the new one holds all it had). Lookups and stores are thread-safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import torch

Layers = tuple[tuple[torch.Tensor, torch.Tensor], ...]  # per layer: keys, values (1, H, T, D)


class PrefixCache:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[tuple[int, ...], Layers] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def lookup(self, ids: Sequence[int]) -> tuple[int, Layers | None]:
        """``(keep, layers)``: the length of the longest cached prefix of ``ids`` that leaves
        at least one token to prefill (the next token's logits come from the last prompt token)
        and its keys and values (None when ``keep`` is 0)."""
        limit = len(ids) - 1
        with self._lock:
            best, best_key = 0, None
            for key in self._entries:
                n = common_prefix(key, ids, limit)
                if n > best:
                    best, best_key = n, key
            if best_key is None:
                return 0, None
            self._entries.move_to_end(best_key)
            layers = self._entries[best_key]
        return best, tuple((k[:, :, :best], v[:, :, :best]) for k, v in layers)

    def store(self, ids: Sequence[int], layers: Layers) -> None:
        """Keep ``layers`` (the keys and values of exactly ``ids``) for later lookups."""
        if self.capacity <= 0 or not ids:
            return
        key = tuple(ids)
        with self._lock:
            for old in [k for k in self._entries if len(k) <= len(key) and key[:len(k)] == k]:
                del self._entries[old]  # the new entry extends it
            self._entries[key] = layers
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)


def common_prefix(a: Sequence[int], b: Sequence[int], limit: int) -> int:
    """How many leading ids ``a`` and ``b`` share, at most ``limit``."""
    n = min(len(a), len(b), limit)
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
