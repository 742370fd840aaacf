"""A spinner's arrows toward the number a task names: the page says which way is left to go.

    spin_value("Select -6 with the spinner and hit Submit")   -> "-6"
    spinner_weights(weights, "-6", [0.0])                       -> "down", "decrement", ... lead

A spinner (ARIA ``spinbutton``: jQuery UI's, a number input) is set by pressing its up or down
arrow until it holds the number. The task names only the goal; the page shows the spinner's
value (its live value, ``aria-valuenow`` or ``value``). The instruction planner passes the
clause's number as ``spin_value`` (an argument only the planner gives ``query_elements``) and
the query engine, which sees the page, puts the arrow toward it above every other word while
the value differs -- the arrows' class or label says "up" / "down" (``ui-spinner-up``,
"Increment") -- and leaves the words alone once it holds the number, or where the page shows no
spinner.
"""

from __future__ import annotations

import re

from pipeline.query.dates import LEAD

NUMBER = re.compile(r"(?<![\w/.])-?\d+(?:\.\d+)?(?![\w/])")  # not a date's part, not "3rd"
UP_WORDS = ("up", "increment", "increase", "plus")
DOWN_WORDS = ("down", "decrement", "decrease", "minus")
ATTRIBUTE_LEAD = 3.0  # the arrows say "up" in a class or a label, which score below a text


def spin_value(text: str) -> str | None:
    """The first number of ``text`` that may be a spinner's goal ("-6", "2.5"), or None."""
    found = NUMBER.search(text)
    return found.group(0) if found else None


def spinner_value(live: str | None, attributes: dict[str, str]) -> float | None:
    """A spinner's current number: its live value, else ``aria-valuenow``, else the ``value``
    attribute; None when it shows none."""
    for shown in (live, attributes.get("aria-valuenow"), attributes.get("value")):
        try:
            return float(shown)
        except (TypeError, ValueError):
            continue
    return None


def spinner_weights(weights: dict[str, float], wanted: str,
                    current: list[float]) -> dict[str, float]:
    """``weights`` with the arrow toward ``wanted`` leading while the page's first spinner
    (``current``: the values of its spinners) holds another number; unchanged otherwise."""
    try:
        goal = float(wanted)
    except ValueError:
        return weights
    if not current or current[0] == goal:
        return weights
    toward, away = (UP_WORDS, DOWN_WORDS) if current[0] < goal else (DOWN_WORDS, UP_WORDS)
    top = (max(weights.values(), default=0.0) + LEAD) * ATTRIBUTE_LEAD
    out = {word: weight for word, weight in weights.items() if word not in away}
    out.update(dict.fromkeys(toward, top))
    return out
