"""Which of several empty text fields a task fills next when it says their values in words, not
quotes: "Look for action movies directed by Bowen from year 1998" over Director, Genre, Year.

    next_field(index, "Look for action movies directed by Bowen from year 1998") -> Genre's ref

Each empty field's label is paired with a word of the task: the same stem or a long common
start ("Director" ~ "directed", "Movie Genre" ~ "movies", "Year" ~ "year"); a label that asks
for a date or a year ("Released Date") with the task's first four-digit number; one field left
unpaired with the first content word no pair claimed, nor the value after a claimed word
("action": the genre, by elimination -- before anything was typed: once a value is in, the
first free word may only describe the form, "the cheapest flight"). The field paired earliest
leads: the order the task says its values in; the last empty one leads when its label names a
word of the task (Year, once Genre and Director hold theirs: the form is not sent yet; not a
date field by the task's date, which waits for its calendar and the suggestion of the field
filled before it). Nothing changes on a page of one text field, or while a field stays
unpaired (the From and To of a flight, whose labels are only "from:" and "to:").
"""

from __future__ import annotations

import re
from os.path import commonprefix

from pipeline.query.filters import acted_on, role_test
from pipeline.query.index import Entry, PageIndex
from pipeline.query.text import STOP_WORDS, stem, terms, words

_TEXTBOX = role_test("textbox")
_DATED = frozenset(terms("date year born birth released"))
_YEAR = re.compile(r"\d{4}")
_MIN_COMMON = 5  # letters two stems share at the start to pair ("direct" of director/directed)


def next_field(index: PageIndex, task: str) -> int | None:
    """The empty text field whose value the task says first, or None (see the module)."""
    boxes = [entry for entry in index.entries.values() if _TEXTBOX(entry)]
    fields = [entry for entry in boxes if not acted_on(entry)]
    if not fields or len(boxes) < 2:
        return None
    said = words(task)
    stems = ["" if at == 0 or word in STOP_WORDS else stem(word)  # (0: the imperative, "Look")
             for at, word in enumerate(said)]
    # the rest filled: only a word of the task names the last one (a date field waits for its
    # calendar)
    lone = len(fields) == 1
    paired: dict[int, int] = {}
    for entry in fields:
        at = _paired_word(_label(entry), said, stems, set(paired.values()), dated=not lone)
        if at is not None:
            paired[entry.ref] = at
    unpaired = [entry.ref for entry in fields if entry.ref not in paired]
    if len(unpaired) == 1 and paired and len(fields) == len(boxes):  # nothing typed yet
        taken = set(paired.values()) | {_next_content(stems, at) for at in paired.values()}
        free = next((at for at, word in enumerate(stems) if word and at not in taken), None)
        if free is not None:
            paired[unpaired[0]] = free
    if len(paired) < len(fields):  # which comes first is not known
        return None
    return min(paired, key=paired.__getitem__)


def _label(entry: Entry) -> tuple[str, ...]:
    return terms(entry.node.name or entry.context or "")


def _paired_word(label: tuple[str, ...], said: list[str], stems: list[str],
                 taken: set[int], dated: bool = True) -> int | None:
    """The position of the task word the label names: a shared stem or start, else (a label
    asking for a date or year, when ``dated``) the first four-digit number."""
    for at, word in enumerate(stems):
        if at not in taken and word and any(
                word == part or len(commonprefix([word, part])) >= _MIN_COMMON
                for part in label):
            return at
    if dated and _DATED.intersection(label):
        return next((at for at, word in enumerate(said)
                     if at not in taken and _YEAR.fullmatch(word)), None)
    return None


def _next_content(stems: list[str], at: int) -> int | None:
    """The content word after position ``at``: the value a paired word introduces ("directed
    by *Bowen*", "year *1998*")."""
    return next((later for later in range(at + 1, len(stems)) if stems[later]), None)
