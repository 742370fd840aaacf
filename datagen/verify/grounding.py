"""Whether typed text comes from what the model read before writing it.

A training turn that types "gray" into a field while neither the task nor anything on the
model's screen says "gray" (the value sits in a table the observation does not list) teaches a
student to invent values. The teacher reads the page's text first when the value is there
(``datagen.teachers.oracle``); the verifier rejects what is still ungrounded
(``execution_stage``, reason ``ungrounded_value``).

    value_grounded("gray", "Task: Enter the value of Color ...\\nColor\\ngray")   # True
    value_grounded("6gHF", "... 6 g H F ...")   # True: letters set apart one by one
    value_grounded("21:37", "Enter 9:37 PM as the time")   # False: a conversion, not a reading

A value is grounded when every word of it appears among the words read (case-insensitive; a
number also when its English word was read: "two" grounds "2"; characters set apart one by one,
"6 g H F", read as the word they spell). Short numbers are grounded by any equal word on the screen (an element count
among them): the check catches values that appear nowhere, not lucky ones.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
_SPACED = re.compile(r"(?<!\S)(?:\w\s+){2,}\w(?!\S)")  # "6 g H F": one word, spelt out
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen", "twenty")
_NUMBER_WORDS = {word: str(number) for number, word in enumerate(_NUMBERS)}


def value_grounded(value: str, read: str) -> bool:
    """True when ``value`` can be written from ``read`` (the task and what the model saw)."""
    words = _WORD.findall(value.casefold())
    if not words:
        return True  # punctuation or nothing: no word to invent
    seen = set(_WORD.findall(read.casefold()))
    seen |= {digit for word, digit in _NUMBER_WORDS.items() if word in seen}
    seen |= {"".join(spelt.split()) for spelt in _SPACED.findall(read.casefold())}
    return all(word in seen for word in words)
