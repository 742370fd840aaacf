"""Prompt-lookup drafts: the tokens a greedy answer will probably copy next, read from the
sequence itself (Saxena 2023; transformers' ``prompt_lookup_num_tokens``).

    draft([5, 6, 7, 8, 9, 6, 7], count=2)     # [8, 9]: what followed the last "6 7" before

An agent's answers copy spans of their prompt (the task's words, an element's label, a value
to type, an index a tool returned), so the ids that followed the latest earlier occurrence of
the sequence's last few ids are a good guess at the ids that come next. ``greedy`` verifies a
draft in one forward and keeps only the part the model itself would have chosen: a draft
changes how fast an answer is decoded, never the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

LOOKUP_TOKENS = 4  # draft ids a lone row verifies per decode forward by default; 0: none
MAX_NGRAM = 3  # the longest suffix of the sequence that is looked up


def draft(ids: Sequence[int], count: int, max_ngram: int = MAX_NGRAM) -> list[int]:
    """Up to ``count`` ids that followed the latest earlier occurrence of the longest suffix of
    ``ids`` (``max_ngram`` ids down to one) found again in ``ids``; [] when even the last id
    never occurred before."""
    if count <= 0 or len(ids) < 2:
        return []
    best_end, best_length = -1, 0
    for end in range(len(ids) - 2, -1, -1):  # the latest occurrence first
        length = _shared_suffix(ids, end, min(max_ngram, end + 1))
        if length > best_length:
            best_end, best_length = end, length
            if length == max_ngram:
                break
    return list(ids[best_end + 1:best_end + 1 + count]) if best_length else []


def _shared_suffix(ids: Sequence[int], end: int, limit: int) -> int:
    """How many ids ending at ``end`` equal the last ids of ``ids``, at most ``limit``."""
    n = 0
    while n < limit and ids[end - n] == ids[-1 - n]:
        n += 1
    return n
