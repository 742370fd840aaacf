"""How a date in a task shows on the page that picks it: the words a calendar widget uses.

    date_terms("Select 12/09/2016 as the date")       -> ["9"]                 the day cell
    month_terms("Select 12/09/2016 as the date")      -> ["december", "prev", "previous", "next"]

A task writes a date as numbers ("12/09/2016", month first as US tasks do); a calendar shows its
day without the leading zero, the month by name, and reaches another month through its
previous/next buttons. The instruction planner searches the day as a keyword and the month's
words at a lower weight (``instruction``), so a calendar's navigation is found while the day
cell is not on screen yet.
"""

from __future__ import annotations

import re

DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/\d{2,4}\b")  # month/day/year
_LEADING_ZERO = re.compile(r"\b0\d\b")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
MONTH_NAVIGATION = ("prev", "previous", "next")


def date_terms(text: str) -> list[str]:
    """The day of each date in ``text`` as a calendar shows it: "12/09/2016" -> "9", and the
    numbers of the text without leading zeros ("09" -> "9")."""
    out = [str(int(day)) for _, day in DATE.findall(text)]
    out += [str(int(w)) for w in _LEADING_ZERO.findall(text)]
    return list(dict.fromkeys(out))


def month_terms(text: str) -> list[str]:
    """For the dates in ``text``: each month's name and the words that move a calendar to it;
    [] without a date."""
    months = [int(month) for month, _ in DATE.findall(text)]
    if not months:
        return []
    names = [MONTHS[m - 1] for m in months if 1 <= m <= len(MONTHS)]
    return list(dict.fromkeys([*names, *MONTH_NAVIGATION]))
