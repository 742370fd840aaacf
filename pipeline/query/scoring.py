"""Prune4Web text scoring: match types (exact > phrase > all words > some words > fuzzy) times
field tiers (visible text > accessible name/aria-label/placeholder/alt/title > other attributes).

    query = make_query("purchasing", index.vocab)
    score, source, match = entry_score(query, index.entries[ref])

Both sides are Porter-stemmed terms with stop-words dropped. A field scores the best match type it
reaches; "Sign in" also matches the one-word "signin" through the glued form, and words missing
from a field may still match it fuzzily (rapidfuzz ratio >= 80 against the page's vocabulary, for
words of four letters or more); a query without any word ("♥♥♥") matches the characters of a field.
An attribute that is the query's words and a number (``id=slider-2`` for "sliders") matches
exactly. An element scores its best field times the field's tier weight,
plus a tenth of its other matching fields (so an element that says it twice edges ahead).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from pipeline.query.index import Entry, Field
from pipeline.query.text import compact, terms

MATCH_WEIGHTS = {"exact": 1.0, "phrase": 0.85, "words": 0.7, "some": 0.5, "fuzzy": 0.4}
TIER_WEIGHTS = {1: 1.0, 2: 0.85, 3: 0.6}
FUZZY_CUTOFF = 80.0
FUZZY_MIN_LENGTH = 4
_REST_SHARE = 0.1


@dataclass(slots=True)
class Query:
    text: str
    seq: tuple[str, ...]
    line: str  # " s1 s2 " for phrase tests
    glued: str  # the whole query as one word ("signin"), "" for one-word queries
    fuzzy: dict[str, dict[str, float]] = field(default_factory=dict)  # term -> {vocab term: sim}
    terms: frozenset[str] = frozenset()  # every index term this query can hit

    def __post_init__(self) -> None:
        found = set(self.seq) | ({self.glued} if self.glued else set())
        for similar in self.fuzzy.values():
            found.update(similar)
        self.terms = frozenset(found)


def make_query(text: str, vocab: Iterable[str] = ()) -> Query:
    """Stems of ``text`` and, against ``vocab``, the fuzzy neighbours of each (and of the glued
    whole) that are not the term itself."""
    seq = terms(text)
    glued_raw = compact(text)
    glued = glued_raw if len(seq) > 1 and glued_raw and not glued_raw[0].isdigit() else ""
    vocab = list(vocab)
    fuzzy: dict[str, dict[str, float]] = {}
    for term in set(seq) | ({glued} if glued else set()):
        if len(term) < FUZZY_MIN_LENGTH or not vocab:
            continue
        found = process.extract(
            term, vocab, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=None
        )
        similar = {choice: score / 100 for choice, score, _ in found if choice != term}
        if similar:
            fuzzy[term] = similar
    return Query(text, seq, f" {' '.join(seq)} ", glued, fuzzy)


def field_score(query: Query, item: Field) -> tuple[float, str]:
    """The match of ``query`` in one field: (weight, match type), (0, "") when none."""
    seq = query.seq
    if not seq:  # no word at all ("♥♥♥", "×"): the characters themselves
        return _symbol_score(query.text, item.text)
    if item.bag.isdisjoint(query.terms):
        return 0.0, ""
    if item.seq == seq or (query.glued and item.seq == (query.glued,)) or (
            item.tier == 3 and _numbered(item.seq, seq)):
        return MATCH_WEIGHTS["exact"], "exact"
    bag = item.bag
    if (len(seq) > 1 and query.line in item.line) or (query.glued and query.glued in bag):
        return MATCH_WEIGHTS["phrase"], "phrase"
    hits = sum(1 for term in seq if term in bag)
    if hits == len(seq):
        return MATCH_WEIGHTS["words"], "words"
    near = sum(_fuzzy(query, term, bag) for term in seq if term not in bag)
    near = max(near, len(seq) * _fuzzy(query, query.glued, bag)) if query.glued else near
    if hits:
        return MATCH_WEIGHTS["some"] * (hits + 0.6 * near) / len(seq), "some"
    if near:
        return MATCH_WEIGHTS["fuzzy"] * near / len(seq), "fuzzy"
    return 0.0, ""


def _numbered(seq: tuple[str, ...], wanted: tuple[str, ...]) -> bool:
    """An attribute that is the wanted words and a number: ``id=slider-2`` is a "slider"."""
    return len(seq) == len(wanted) + 1 and seq[-1].isdigit() and seq[:-1] == wanted


def _symbol_score(wanted: str, text: str) -> tuple[float, str]:
    wanted, text = wanted.strip(), text.strip()
    if not wanted:
        return 0.0, ""
    if wanted == text:
        return MATCH_WEIGHTS["exact"], "exact"
    return (MATCH_WEIGHTS["phrase"], "phrase") if wanted in text else (0.0, "")


def _fuzzy(query: Query, term: str, bag: frozenset[str]) -> float:
    similar = query.fuzzy.get(term)
    if not similar:
        return 0.0
    return max((sim for choice, sim in similar.items() if choice in bag), default=0.0)


def entry_score(
    query: Query, entry: Entry, tiers: tuple[int, ...] = (1, 2, 3)
) -> tuple[float, str, str]:
    """(score, field source, match type) of an element's best field, tier-weighted."""
    best, source, match, total = 0.0, "", "", 0.0
    for item in entry.fields:
        if item.tier not in tiers:
            continue
        weight, kind = field_score(query, item)
        if not weight:
            continue
        weight *= TIER_WEIGHTS[item.tier]
        total += weight
        if weight > best:
            best, source, match = weight, item.source, kind
    return best + _REST_SHARE * (total - best), source, match
