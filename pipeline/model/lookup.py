"""Prompt-lookup drafts: the tokens a greedy answer will probably copy next, read from the
sequence itself (Saxena 2023; transformers' ``prompt_lookup_num_tokens``) and from the model's
earlier answers (a datastore of past outputs, as REST, He et al. 2023, drafts from a corpus).

    draft([5, 6, 7, 8, 9, 6, 7], count=2)                     # [8, 9]: what followed "6 7" before
    draft([1, 2, 40], count=3, earlier=[40, 41, 42, 43, 2])   # [41, 42, 43]: an earlier answer

An agent's answers copy spans of their prompt (the task's words, an element's label, a value
to type, an index a tool returned), so the ids that followed the latest earlier occurrence of
the sequence's last few ids are a good guess at the ids that come next. The call syntax around
those values (``<bu_click>{"index": 4}<bu_end>``: eight ids, of which only the index is the
page's) is in no prompt, but in every earlier answer: ``AnswerMemory`` keeps the last answers'
ids, and a match there is taken when it is longer than the sequence's own (on a tie the
sequence wins: it holds this page's values). ``greedy`` verifies a draft in one forward and
keeps only the part the model itself would have chosen: a draft changes how fast an answer is
decoded, never the answer.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

LOOKUP_TOKENS = 4  # draft ids a row verifies per decode forward by default; 0: none
MAX_NGRAM = 3  # the longest suffix of the sequence that is looked up
MEMORY_TOKENS = 512  # ids of earlier answers an ``AnswerMemory`` keeps by default


class AnswerMemory:
    """The ids of the latest answers, oldest first, at most ``capacity`` of them (whole answers
    only: an answer longer than that is not kept). Not thread-safe: the decoding thread adds
    and reads it."""

    def __init__(self, capacity: int = MEMORY_TOKENS) -> None:
        self.capacity = capacity
        self._answers: deque[list[int]] = deque()
        self._size = 0
        self.ids: list[int] = []

    def add(self, answer: Sequence[int]) -> None:
        if not answer or len(answer) > self.capacity:
            return
        self._answers.append(list(answer))
        self._size += len(answer)
        while self._size > self.capacity:
            self._size -= len(self._answers.popleft())
        self.ids = [i for kept in self._answers for i in kept]


def draft(ids: Sequence[int], count: int, max_ngram: int = MAX_NGRAM,
          earlier: Sequence[int] = ()) -> list[int]:
    """Up to ``count`` ids that followed the latest occurrence of the longest suffix of ``ids``
    (``max_ngram`` ids down to one) found before its end in ``ids``, or found in ``earlier``
    when that match is longer; [] when even the last id occurred in neither."""
    if count <= 0 or not ids:
        return []
    own_end, own = _latest_match(ids, ids, len(ids) - 2, max_ngram)
    other_end, other = (_latest_match(earlier, ids, len(earlier) - 2, max_ngram)
                        if own < max_ngram else (-1, 0))  # a tie goes to the sequence anyway
    if other > own:
        return list(earlier[other_end + 1:other_end + 1 + count])
    return list(ids[own_end + 1:own_end + 1 + count]) if own else []


def _latest_match(source: Sequence[int], ids: Sequence[int], last_end: int,
                  max_ngram: int) -> tuple[int, int]:
    """Where in ``source`` (ending at ``last_end`` at the latest, scanning back) the longest
    suffix of ``ids`` ends, and its length (0: the last id is nowhere)."""
    best_end, best_length = -1, 0
    for end in range(last_end, -1, -1):
        length = _shared_suffix(source, ids, end, min(max_ngram, end + 1, len(ids)))
        if length > best_length:
            best_end, best_length = end, length
            if length == max_ngram:
                break
    return best_end, best_length


def _shared_suffix(source: Sequence[int], ids: Sequence[int], end: int, limit: int) -> int:
    """How many ids of ``source`` ending at ``end`` equal the last ids of ``ids``, at most
    ``limit``."""
    n = 0
    while n < limit and source[end - n] == ids[-1 - n]:
        n += 1
    return n
