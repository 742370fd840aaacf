"""Which checkbox words are similar to the asked words, by WordNet (click-checkboxes-soft's oracle
policy and the planner's similar words, ``pipeline.query.alike``).

    boxes_for(["big", "odd"], ["large", "water", "peculiar"])  # -> ["large", "peculiar"]

The page asks for words "similar to big, odd": each asked word is a synonym, a plural or another
form of exactly one box's word. Every (asked word, box word) pair is scored with WordNet evidence
(``similarity``) and the asked words are matched to distinct boxes by the best total score (every
one-to-one assignment is tried: at most 5 asked words and 6 boxes there).

The score is graded by a short random walk over WordNet: from each sense of a word (weighted by
how often WordNet's tagged corpus uses the word in that sense) the walk follows, for at most
``WALK_STEPS`` steps, the links between synsets (similar_to, also_see, hypernym and hyponym, verb
group, attribute, derivational and pertainym links between lemmas, and the most frequent sense of
each content word of a synset's gloss), stopping at each synset it reaches with ``STOP_CHANCE``.
The score of two words is the chance that the walks from both stop at the same synset: 1 for the
same word after morphy (``cars``, ``car``), high for a shared synset or a direct link, lower for
longer paths; a walk through a synset with many links spreads thin, so hubs add little.

Measured on the words the page can show (its synonym table, read only to measure, never by the
policy), a few pairs have no WordNet link within reach and score below 1e-4, so they are matched
mostly by elimination (the other asked words take their boxes): ``mini`` (in WordNet a skirt or
short clothing) with small, tiny and little; ``mild`` with calm, quiet, peaceful and serene;
``favor`` with love, like and adore; ``unwise`` with dull and dumb; sinful with corrupt and
depraved. Over 20,000 episodes simulated from that table the assignment is right in 97%.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import cache

from pipeline.query.wordnet import reader

EXHAUSTIVE = 20_000  # assignments of asked words to boxes tried one by one at most
WALK_STEPS = 3
STOP_CHANCE = 0.5  # at each synset reached
PRUNE = 1e-6  # a walk drops branches less likely than this
LINKS = ("similar_tos", "also_sees", "hypernyms", "hyponyms", "instance_hypernyms",
         "instance_hyponyms", "verb_groups")
ATTRIBUTE_WEIGHT = 0.5  # an adjective's attribute noun (and back) counts half a link
GLOSS_WEIGHT = 1.0  # all the gloss's content words together count as one link
_STOP_WORDS = frozenset({
    "a", "an", "the", "of", "or", "and", "to", "in", "on", "for", "with", "by", "as", "at",
    "from", "that", "which", "who", "this", "be", "is", "are", "not", "no", "any", "some",
    "something", "one", "its", "it", "their", "his", "her", "very", "more", "most", "less",
    "used", "make", "made", "do"
})


def boxes_for(asked: list[str], boxes: list[str]) -> list[str]:
    """The box words the asked words match, one box each, by the best total similarity (every
    assignment tried up to ``EXHAUSTIVE`` of them; on a page with more, the most similar pair
    first, then the next among the rest)."""
    if len(asked) > len(boxes):
        raise ValueError(f"{len(asked)} asked words for {len(boxes)} boxes")
    if math.perm(len(boxes), len(asked)) > EXHAUSTIVE:
        return _greedy(asked, boxes)
    best = max(itertools.permutations(boxes, len(asked)),
               key=lambda chosen: sum(map(similarity, asked, chosen)))
    return list(best)


def _greedy(asked: list[str], boxes: list[str]) -> list[str]:
    pairs = sorted(((similarity(a, b), i, j) for i, a in enumerate(asked)
                    for j, b in enumerate(boxes)), reverse=True)
    chosen: dict[int, int] = {}
    for _, i, j in pairs:
        if i not in chosen and j not in chosen.values():
            chosen[i] = j
    return [boxes[chosen[i]] for i in range(len(asked))]


@cache
def similarity(a: str, b: str) -> float:
    """How likely WordNet walks from ``a`` and from ``b`` meet (1.0: the same word)."""
    if _forms(a) & _forms(b):
        return 1.0
    walk_a, walk_b = sorted((_walk(a), _walk(b)), key=len)
    return sum(p * walk_b.get(synset, 0.0) for synset, p in walk_a.items())


@cache
def _forms(word: str) -> frozenset[str]:
    """The word and its base forms (morphy) in every part of speech, lower-cased."""
    word = word.lower()
    return frozenset({word} | {reader().morphy(word, pos) for pos in "nvar"}) - {None}


@cache
def _senses(word: str) -> dict:
    """The word's synsets, each weighted by how often the corpus uses the word in it (+1)."""
    counts = {synset: 1 + sum(lemma.count() for lemma in synset.lemmas()
                              if lemma.name().lower() in _forms(word))
              for synset in reader().synsets(word.lower())}
    total = sum(counts.values())
    return {synset: count / total for synset, count in counts.items()}


@cache
def _walk(word: str) -> dict:
    """Where a walk from the word's senses stops (synset -> chance), ``WALK_STEPS`` at most."""
    front = _senses(word)
    stops: Counter = Counter({synset: STOP_CHANCE * p for synset, p in front.items()})
    for _ in range(WALK_STEPS):
        reached: Counter = Counter()
        for synset, p in front.items():
            for neighbour, q in _neighbours(synset):
                if p * (1 - STOP_CHANCE) * q > PRUNE:
                    reached[neighbour] += p * (1 - STOP_CHANCE) * q
        for synset, p in reached.items():
            stops[synset] += STOP_CHANCE * p
        front = reached
    return stops


@cache
def _neighbours(synset) -> tuple:
    """(synset, chance) of one step from ``synset`` over its weighted links."""
    weights: Counter = Counter()
    for link in LINKS:
        for other in getattr(synset, link)():
            weights[other] += 1.0
    for other in synset.attributes():
        weights[other] += ATTRIBUTE_WEIGHT
    for lemma in synset.lemmas():
        for other in lemma.derivationally_related_forms() + lemma.pertainyms():
            weights[other.synset()] += 1.0
    heads = _gloss_heads(synset)
    for other in heads:
        weights[other] += GLOSS_WEIGHT / len(heads)
    total = sum(weights.values())
    return tuple((other, weight / total) for other, weight in weights.items())


@cache
def _gloss_heads(synset) -> tuple:
    """The most frequent sense of each content word of the synset's gloss."""
    pos = "a" if synset.pos() == "s" else synset.pos()
    heads = {_head(token, pos) for token in re.findall(r"[a-z]+", synset.definition().lower())
             if len(token) > 2 and token not in _STOP_WORDS}
    return tuple(sorted((head for head in heads if head is not None and head != synset),
                        key=lambda head: head.name()))


@cache
def _head(token: str, pos: str):
    """The most frequent synset of a gloss word read as ``pos``, else as a noun (None: none)."""
    for part in dict.fromkeys((pos, "n")):
        base = reader().morphy(token, part)
        found = reader().synsets(base, part) if base else []
        if found:
            return found[0]
    return None
