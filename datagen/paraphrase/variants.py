"""k paraphrases of a task text that keep every value it names.

    result = paraphrase("Select Helli from the list and click Submit.", 2, random.Random(0))
    result.variants  # e.g. ['Pick Helli in the list, then click Submit.', ...]
    result.dropped   # [(variant, [values it lost])]: candidates the check refused

Candidates are the shape's rewordings (``datagen.paraphrase.templates``) and the original,
each as is and with its instruction verbs and generic nouns swapped for WordNet synonyms
(``datagen.paraphrase.wordnet``; never a word inside quotes). ``k`` of them, drawn with the
caller's ``rng`` (so the same seed gives the same variants), are checked with
``datagen.paraphrase.values.missing_values``: a variant that lost or changed a value is
dropped, not repaired.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from datagen.paraphrase.templates import VOCABULARY, reword
from datagen.paraphrase.values import missing_values
from datagen.paraphrase.wordnet import SENSES, synonyms
from pipeline.query.wordnet import DEFAULT_DIR

_WORD_OR_QUOTE = re.compile(r'"[^"]*"|[A-Za-z]+')


@dataclass(slots=True)
class Paraphrases:
    variants: list[str] = field(default_factory=list)
    dropped: list[tuple[str, list[str]]] = field(default_factory=list)


def paraphrase(text: str, k: int, rng: random.Random,
               wordnet_dir: str = DEFAULT_DIR) -> Paraphrases:
    """Up to ``k`` checked variants of ``text``, all different from it and from each other."""
    out = Paraphrases()
    if k < 1:
        return out
    bases = [text, *reword(text)]
    candidates = set(bases)
    for base in bases:
        candidates.add(with_synonyms(base, rng, wordnet_dir))
    candidates.discard(text)
    pool = sorted(candidates)
    rng.shuffle(pool)
    for variant in pool[:k]:
        lost = missing_values(text, variant, VOCABULARY)
        if lost:
            out.dropped.append((variant, lost))
        else:
            out.variants.append(variant)
    return out


def with_synonyms(text: str, rng: random.Random, wordnet_dir: str = DEFAULT_DIR) -> str:
    """``text`` with each word of ``SENSES`` outside quotes swapped for a synonym (its case
    kept), each with probability 1/2."""
    def swap(match: re.Match[str]) -> str:
        word = match.group()
        options = synonyms(word.lower(), wordnet_dir) if word.lower() in SENSES else ()
        if not options or rng.random() < 0.5:
            return word
        choice = rng.choice(options)
        return choice[0].upper() + choice[1:] if word[0].isupper() else choice

    return _WORD_OR_QUOTE.sub(swap, text)
