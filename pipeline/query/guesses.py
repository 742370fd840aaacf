"""A number to guess within a range, narrowed by the page's "higher"/"lower" feedback.

    guess_hint(page, "Guess the number between 0-9 and press Submit. ...",
               ["[spinbutton]  Submit -> TYPE: 4", "[key]  Enter -> ENTER"])
        -> (0, 3, 1)   # the page says "The number is lower than 4": 0-3 is left, guess 1

"Guess the number between 0-9 and press Submit. Use the feedback below": the page says only
whether the last guess sent was too high or too low, and the next user turn no longer shows
what it said of the guesses before. A small model forgets the range and guesses at random. The
range the feedback leaves follows from the guesses the history sent (typed, then Enter or a
click) as the engine leads them -- each within what the one before left, so a guess below the
one before means that one was too high -- and the page's feedback on the last one sent. The
``planned`` step shows the range and its middle beside the field to type into
(``pipeline.agent.observe.step_candidates``), which bisects it in at most four guesses; while
a typed guess waits to be sent, or once the page gives no feedback on the last one sent, it
shows nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from pipeline.distill.model import DistilledPage
from pipeline.query.text import HISTORY_LINE, whole_number

_RANGE = re.compile(r"\bguess\b.*?\bbetween\s+(-?\d+)\s*(?:-|to|and)\s*(-?\d+)", re.IGNORECASE)
_FEEDBACK = re.compile(r"\b(lower|smaller|less|higher|greater|larger|bigger|more)\s+than\s+"
                       r"(-?\d+)\b", re.IGNORECASE)
_LOWER = frozenset({"lower", "smaller", "less"})


def guess_hint(page: DistilledPage, task: str,
               history: Sequence[str]) -> tuple[int, int, int] | None:
    """(low, high, the middle) of the range the feedback leaves, or None: no range in the task,
    a typed guess not sent yet, or no feedback on the last guess sent."""
    bounds = _RANGE.search(task)
    if bounds is None:
        return None
    low, high = int(bounds.group(1)), int(bounds.group(2))
    sent: list[int] = []
    waiting: int | None = None
    for line in history:
        found = HISTORY_LINE.match(line)
        op = found["op"] if found else ""
        if op == "TYPE" and (typed := whole_number(found["value"] or "")) is not None:
            waiting = typed
        elif waiting is not None and op in ("ENTER", "CLICK"):
            sent.append(waiting)
            waiting = None
    if waiting is not None:
        return None
    for guess, after in pairwise(sent):
        low, high = (low, guess - 1) if after < guess else (guess + 1, high)
    if sent:
        said = _feedback(page, sent[-1])
        if said is None:
            return None
        low, high = (low, sent[-1] - 1) if said in _LOWER else (sent[-1] + 1, high)
    return (low, high, (low + high) // 2) if low <= high else None


def _feedback(page: DistilledPage, guess: int) -> str | None:
    """The word of the page's "lower than 4" on ``guess``, or None when the page says none."""
    text = " ".join(node.text for node in page.root.walk() if node.is_text)
    return next((found.group(1).lower() for found in _FEEDBACK.finditer(text)
                 if int(found.group(2)) == guess), None)
