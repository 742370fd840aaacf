"""WordNet 3.0 synonyms for the instruction words a paraphrase may change.

    synonyms("select")  # -> ("choose", "pick out"), from the sense pinned in SENSES

WordNet is read by ``pipeline.query.wordnet`` (Debian's ``wordnet-base``, no download). Only the
sense pinned for each word in ``SENSES`` is used, never every sense of a word ("click" is mostly
a sound in WordNet), and a lemma must be at least ``min_count`` times in WordNet's sense-tagged
corpus to be offered.
"""

from __future__ import annotations

from functools import cache

from pipeline.query.wordnet import DEFAULT_DIR, reader

# instruction word -> (WordNet sense, least corpus count of a lemma offered for it)
SENSES: dict[str, tuple[str, int]] = {
    "select": ("choose.v.01", 30),     # choose, select
    "choose": ("choose.v.01", 30),
    "find": ("locate.v.01", 5),        # locate
    "solve": ("solve.v.01", 5),        # figure out
    "press": ("push.v.01", 50),        # push
    "email": ("electronic_mail.n.01", 0),  # e-mail
    "list": ("list.n.01", 0),          # listing
}


@cache
def synonyms(word: str, root: str = DEFAULT_DIR) -> tuple[str, ...]:
    """The other lemmas of ``word``'s pinned sense (multi-word ones with spaces); () if none."""
    if word not in SENSES:
        return ()
    name, min_count = SENSES[word]
    lemmas = reader(root).synset(name).lemmas()
    return tuple(sorted({lemma.name().replace("_", " ") for lemma in lemmas
                         if lemma.count() >= min_count and lemma.name() != word}))
