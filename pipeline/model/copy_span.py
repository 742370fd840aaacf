"""Decoding a string value as a copy: each next id keeps the value a whole-word span of a source
text (the task and what the page and tools showed), case aside.

    choose = CopySpan(tokenizer, source="Task: Search for movies directed by Terry ...")
    answer = engine.submit(prompt_ids + prefix_ids, limit=24, choose=choose).result()
    is_span("terry", source)    # True: "Terry" is a word of the source
    is_span("Bec", source)      # False when the source only has "Beck"
    span_as_written("terry", source)   # "Terry"; "aoy" in "a O Y": "aOY"
    choose.allowed("Bec")       # the ids of "k", "k "... : "Beck" goes on in the source

The values an agent types into a field or picks from a list are nearly always copied: in the
recipe's training data every ``type`` text and ``select`` option is a whole-word span of the
conversation before it, but text-transform's, whose letters the page draws one by one and reads
back spaced ("a O Y" for "aOY": ``is_copy`` counts it a copy). A small model still garbles a
copy now and then ("Terry" -> "terrel", "Beck" -> "Bec"). ``CopySpan`` is
a chooser for ``pipeline.model.greedy``: given the ids decoded after the value's opening quote
and the logits of the next one, it takes the most likely id among those that keep the value the
start of a span beginning at a word (a vocabulary piece the source goes on with, case aside), or
that close it (a ``"``) where the span ends a word; once the value is closed it takes the greedy
id. The value is the model's most likely copy, in its own letter case (a task may ask for another
case). The vocabulary's pieces are read once per tokenizer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

import torch

MAX_PIECE = 24  # characters of the longest vocabulary piece a copy is continued with


def is_span(value: str, source: str) -> bool:
    """Whether ``value`` occurs in ``source`` (case aside) starting and ending at word bounds."""
    return next(_ends(value, source.lower(), whole=True), None) is not None


def span_as_written(value: str, source: str) -> str | None:
    """``value``'s first whole-word occurrence in ``source`` (case aside) as ``source`` writes
    it ("morbi" in "Morbi. Morbi id nisl": "Morbi"); None when there is none."""
    lower = source.lower()
    if len(lower) != len(source):  # a letter whose lower case is longer: offsets would drift
        return None
    found = next(_ends(value, lower, whole=True), None)
    if found is None:
        return _letters_as_written(value, source)
    return source[found[0] - len(value.lower()):found[0]]


def is_copy(value: str, source: str) -> bool:
    """Whether ``value`` is a whole-word span of ``source`` (case aside), or its letters are a
    text ``source`` shows drawn letter by letter ("aoy" of "a O Y")."""
    return is_span(value, source) or _letters_as_written(value, source) is not None


def _letters_as_written(value: str, source: str) -> str | None:
    """``value`` with each letter as ``source`` writes it where ``source`` holds the same
    letters drawn one by one, spaced apart, from a word start to a word end ("aoy" in a
    text-transform captcha read back as "a O Y": "aOY"; the spacing stays ``value``'s); None
    when it holds none. ("newyork" is no such copy of "New York": its words are not letters.)"""
    needle = "".join(value.split()).lower()
    if not needle or len(needle) != sum(not char.isspace() for char in value):
        return None
    kept = [at for at, char in enumerate(source) if not char.isspace()]
    joined = "".join(source[at] for at in kept).lower()
    start = joined.find(needle)
    while start >= 0:
        first, last = kept[start], kept[start + len(needle) - 1]
        if _bound(source, first - 1, needle[0]) and _bound(source, last + 1, needle[-1]) \
                and all(len(word) == 1 for word in source[first:last + 1].split()):
            letters = iter(source[at] for at in kept[start:start + len(needle)])
            return "".join(char if char.isspace() else next(letters) for char in value)
        start = joined.find(needle, start + 1)
    return None


class CopySpan:
    """A chooser (``pipeline.model.greedy``) that decodes a JSON string value, after its opening
    quote, as a whole-word span of ``source`` (module doc)."""

    def __init__(self, tokenizer: Any, source: str) -> None:
        self.tokenizer, self.source = tokenizer, source.lower()
        self.pieces, self.closers = _vocabulary(tokenizer)

    def __call__(self, generated: Sequence[int], logits: torch.Tensor) -> int:
        written = self.tokenizer.decode(list(generated), skip_special_tokens=False)
        allowed = [] if '"' in written else self.allowed(written)
        if not allowed:  # closed, or no copy goes on from here: the rest is the model's
            return int(logits.argmax())
        ids = torch.tensor(allowed, device=logits.device)
        return int(ids[logits[ids].float().argmax()])

    def allowed(self, written: str) -> list[int]:
        """The ids that continue ``written`` as a copy: a vocabulary piece that the source goes
        on with after an occurrence of it (at a word start; any word start while it is empty),
        or a closing quote after one that ends at a word end."""
        allowed: set[int] = set()
        value = written.lower()
        for end, whole in _ends(value, self.source, whole=False):
            if whole:
                allowed.update(self.closers)
            following = self.source[end:end + MAX_PIECE]
            for length in range(1, len(following) + 1):
                allowed.update(self.pieces.get(following[:length], ()))
        return sorted(allowed)


@cache
def _vocabulary(tokenizer: Any) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """The tokenizer's pieces a copy is written with -- lower-cased text -> ids, without quotes,
    backslashes or special tokens -- and the ids whose piece starts with a closing quote."""
    special = set(tokenizer.all_special_ids) | set(getattr(tokenizer, "added_tokens_decoder", {}))
    texts = tokenizer.batch_decode([[i] for i in range(len(tokenizer))])
    pieces: dict[str, list[int]] = {}
    closers = []
    for token, text in enumerate(texts):
        if token in special or not text:
            continue
        if text.startswith('"'):
            closers.append(token)
        elif '"' not in text and "\\" not in text and len(text) <= MAX_PIECE:
            pieces.setdefault(text.lower(), []).append(token)
    return {text: tuple(ids) for text, ids in pieces.items()}, tuple(closers)


def _ends(value: str, source: str, *, whole: bool) -> Iterator[tuple[int, bool]]:
    """For each occurrence of ``value`` (lower-cased here; ``source`` already is) that starts
    at a word start -- each word start but a space when it is empty -- where it ends, and
    whether that is a word end; with ``whole`` only those that are."""
    needle = value.lower()
    if not needle:
        if whole:
            return
        for start, char in enumerate(source):
            if not char.isspace() and _bound(source, start - 1, char):
                yield start, False
        return
    start = source.find(needle)
    while start >= 0:
        end = start + len(needle)
        if _bound(source, start - 1, needle[0]):
            ends_word = _bound(source, end, needle[-1])
            if ends_word or not whole:
                yield end, ends_word
        start = source.find(needle, start + 1)


def _bound(source: str, outside: int, edge: str) -> bool:
    """Whether the character at ``outside`` (just before or after a match) ends a word beside the
    match's ``edge`` character: the text's end, a non-alphanumeric neighbour, or an edge that is
    no letter or digit itself."""
    return (outside < 0 or outside >= len(source) or not source[outside].isalnum()
            or not edge.isalnum())
