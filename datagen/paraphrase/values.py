"""The values a task text names, and which of them a rewording lost.

    task_values('Enter "Jerald" into the text field and press Submit.')  # ['"Jerald"', 'Submit']
    missing_values(original, variant)  # [] when every value is still there, unchanged

A value is what the agent must reproduce or find, so a paraphrase may never touch it: a quoted
string (with its quotes), a word with a digit (numbers, dates, times, ordinals, ids such as
``HF2``), an ``@handle``, a capitalised word that does not open a sentence (names, field and
button labels), and any word the paraphraser has no rule for (``nb`` in a list of checkbox
labels): only the closed instruction vocabulary of ``datagen.paraphrase.templates`` and the
WordNet senses may change. Each value must appear in the variant at least as often as in the
original.
"""

from __future__ import annotations

import re
from collections import Counter

_TOKEN = re.compile(r'"[^"]*"|[^\s",.;:!?()]+(?:[.:/,-][^\s",.;:!?()]+)*')
_OPENS_SENTENCE = re.compile(r'(?:^|[.!?]\s+)$')


def task_values(text: str, vocabulary: frozenset[str]) -> list[str]:
    """The values of ``text`` in order; ``vocabulary``: the lower-case words a rewording may
    change (anything else is a value)."""
    out = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        literal = token.startswith(('"', "@")) or any(c.isdigit() for c in token)
        name = token[0].isupper() and not _OPENS_SENTENCE.search(text[: match.start()])
        if literal or name or token.lower() not in vocabulary:
            out.append(token)
    return out


def missing_values(original: str, variant: str, vocabulary: frozenset[str]) -> list[str]:
    """The values of ``original`` that ``variant`` does not keep unchanged (as many times)."""
    have = Counter(_TOKEN.findall(variant))
    need = Counter(task_values(original, vocabulary))
    return sorted(value for value, count in need.items() if have[value] < count)
