"""Whether typed text, or a passage to select, comes from what the model read before writing it.

A training turn that types "gray" into a field while neither the task nor anything on the
model's screen says "gray" (the value sits in a table the observation does not list) teaches a
student to invent values. The teacher reads the page's text first when the value is there
(``datagen.teachers.oracle``); the verifier rejects what is still ungrounded
(``execution_stage``, reason ``ungrounded_value``).

    value_grounded("gray", "Task: Enter the value of Color ...\\nColor\\ngray")   # True
    value_grounded("6gHF", "... 6 g H F ...")   # True: letters set apart one by one
    value_grounded("04/12/2023", "Depart on April 12, 2023")   # True: the same numbers
    value_grounded("rm apache.rb", "Delete the file with no extension")   # False

A value is grounded when every word of it appears among the words read, case-insensitive, and
read the ways a value is converted rather than invented: a number equals any number read ("04"
and "4"), an English number word ("two") or a month's name ("April", "Apr": 4); an hour read
with "pm" also as its 24-hour number ("9:37 PM": 21); characters set apart one by one ("6 g H
F") as the word they spell; a whole number also by a range read around it ("between 0-9",
"from 10 to 20": guess-number's bisection types 4, a choice the task leaves to the model). Short
numbers are grounded by any equal number on the screen (an element count among them): the check
catches values that appear nowhere, not lucky ones.

A passage to select (``select_text``) is quoted, not converted: it is grounded when it appears
whole in what was read, whitespace aside (``passage_grounded``), as the page must show it.

    passage_grounded("Erat. Ipsum eget.", "PAGE: ...\nDonec at adipiscing. Erat. Ipsum eget.")  # True
"""

from __future__ import annotations

import re

from pipeline.query.passage import squeezed

_WORD = re.compile(r"\w+")
_SPACED = re.compile(r"(?<!\S)(?:\w\s+){2,}\w(?!\S)")  # "6 g H F": one word, spelt out
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen", "twenty")
_RANGE = re.compile(r"\b(?:between|from)\s+(-?\d+)\s*(?:-|–|to|and)\s*(-?\d+)")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_NUMBER_WORDS = {word: number for number, word in enumerate(_NUMBERS)} | {
    name: number for number, month in enumerate(_MONTHS, start=1)
    for name in (month, month[:3])}


def value_grounded(value: str, read: str) -> bool:
    """True when ``value`` can be written from ``read`` (the task and what the model saw)."""
    words = _WORD.findall(value.casefold())
    if not words:
        return True  # punctuation or nothing: no word to invent
    lowered = read.casefold()
    seen = set(_WORD.findall(lowered))
    seen |= {"".join(spelt.split()) for spelt in _SPACED.findall(lowered)}
    numbers = {int(word) for word in seen if word.isdigit()}
    numbers |= {_NUMBER_WORDS[word] for word in seen if word in _NUMBER_WORDS}
    if "pm" in seen:
        numbers |= {hour + 12 for hour in numbers if 1 <= hour < 12}
    ranges = [(int(low), int(high)) for low, high in _RANGE.findall(lowered)]

    def read_number(number: int) -> bool:
        return number in numbers or any(low <= number <= high for low, high in ranges)

    return all(word in seen or (word.isdigit() and read_number(int(word))) for word in words)


def passage_grounded(passage: str, read: str) -> bool:
    """True when ``passage`` appears whole in ``read``, whitespace aside (case counts)."""
    return squeezed(passage) in squeezed(read)
