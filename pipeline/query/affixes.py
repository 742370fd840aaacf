"""Which element shows the word a task spells out by its ends: "an item that starts with "An"
and ends with "ica"".

    affix('Type an item that starts with "An" and ends with "ica"')  -> ("an", "ica")
    affix_target(index, ("an", "ica"))   -> the suggestion list that shows "Antarctica"

The instruction planner reads the word's ends (``affix``, an argument only it gives
``query_elements``); the engine leads with the first element still to do whose visible text
holds a word with both ends -- an autocomplete's suggestion once the start was typed -- and
leaves the order alone while none does (the field before anything was typed). A text field
holding such a word was filled already: it is never the target.
"""

from __future__ import annotations

import re

from pipeline.query.filters import acted_on, role_test
from pipeline.query.index import PageIndex

_QUOTE = r"[\"“”‘’']([^\"“”‘’']+)[\"“”‘’']"
_STARTS = re.compile(rf"\b(?:starts?|starting|begins?|beginning)\s+with\s+{_QUOTE}",
                     re.IGNORECASE)
_ENDS = re.compile(rf"\b(?:ends?|ending)\s+with\s+{_QUOTE}", re.IGNORECASE)
_WORD = re.compile(r"[\w'-]+")
_TEXTBOX = role_test("textbox")


def affix(instruction: str) -> tuple[str, str] | None:
    """The start and the end (lower case, "" when not said) of the word the task describes."""
    start, end = _STARTS.search(instruction), _ENDS.search(instruction)
    if start is None and end is None:
        return None
    return (start.group(1).lower() if start else "", end.group(1).lower() if end else "")


def affix_target(index: PageIndex, ends: tuple[str, str]) -> int | None:
    """The first element, not a text field and not done, whose text has a word with ``ends``."""
    start, end = ends
    for ref, entry in index.entries.items():
        if _TEXTBOX(entry) or acted_on(entry):
            continue
        if any(word.startswith(start) and word.endswith(end) and len(word) > len(start + end)
               for word in _WORD.findall(entry.text.lower())):
            return ref
    return None
