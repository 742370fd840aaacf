"""Which element shows a word alike in meaning to one the task names: "Select words similar to
incorrect, tragic and click Submit" over boxes labelled wrong, water, sad.

    similar_words("Select words similar to incorrect, tragic and click Submit.")
    # -> ("incorrect", "tragic")
    similar_target(index, ("incorrect", "tragic"))   # -> the ref of "wrong" (then of "sad")

The instruction planner reads the asked words (``similar_words``, an argument only it gives
``query_elements``); the engine matches them to the choices the page shows -- its checkboxes,
radios or options, else every element with a label of one or two words -- one choice each, by
the best total WordNet similarity (``pipeline.query.similar``), and leads with the first asked
word's choice that is still to do. The words the task says never show on such a page, so a
plain word search cannot find them. Without WordNet (Debian's ``wordnet-base``) nothing leads.
"""

from __future__ import annotations

import re

from pipeline.errors import PagescoutError
from pipeline.query.filters import acted_on, role_test
from pipeline.query.index import PageIndex
from pipeline.query.similar import boxes_for

# "words similar to a, b and c", "the synonyms of a", "words closest in meaning to a"; the list
# ends where an action on something else starts ("and click Submit") or with the sentence
_SIMILAR = re.compile(
    r"\b(?:similar|synonymous|synonyms?|closest\s+in\s+meaning|alike\s+in\s+meaning)\s+"
    r"(?:to|of|for|with)\s+(?P<words>.+?)"
    r"(?=\s*,?\s+and\s+(?:then\s+)?(?:click|press|hit|submit|tap)\b|[.!?]?\s*$)",
    re.IGNORECASE)
_ITEM_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_CHOICES = (role_test("checkbox"), role_test("radio"), role_test("option"))
_SHORT_LABEL = 2  # words of a label that can be a word of the list, where no choice is marked
# choices matched at most: each new word costs a WordNet walk (~0.3 s), so on a page of more
# (a list of links) the words alone search
MAX_CHOICES = 24


def similar_words(instruction: str) -> tuple[str, ...]:
    """The words the task asks for others alike in meaning to, lower case, in its order."""
    found = _SIMILAR.search(instruction)
    if found is None:
        return ()
    items = (item.strip(" \"'“”").lower() for item in _ITEM_SPLIT.split(found["words"]))
    return tuple(item for item in items if item)


def similar_target(index: PageIndex, asked: tuple[str, ...]) -> int | None:
    """The choice matched to the first asked word whose choice is still to do (None: every one
    is done, the page has fewer choices than asked words or more than ``MAX_CHOICES``, or
    WordNet is missing)."""
    choices = [ref for ref, entry in index.entries.items()
               if entry.label and any(test(entry) for test in _CHOICES)]
    if len(choices) < len(asked):
        choices = [ref for ref, entry in index.entries.items()
                   if entry.label and len(entry.label.split()) <= _SHORT_LABEL]
    if not asked or not len(asked) <= len(choices) <= MAX_CHOICES:
        return None
    labels = [index.entries[ref].label for ref in choices]
    try:
        matched = boxes_for(list(asked), labels)
    except PagescoutError:  # no WordNet here: the words alone search
        return None
    by_label = {}
    for ref, label in zip(choices, labels, strict=True):
        by_label.setdefault(label, ref)
    for label in matched:
        if not acted_on(index.entries[by_label[label]]):
            return by_label[label]
    return None
