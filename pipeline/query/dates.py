"""How a date in a task shows on the page that picks it: the words a calendar widget uses.

    date_terms("Select 12/09/2016 as the date")       -> ["9"]                 the day cell
    month_terms("Select 12/09/2016 as the date")      -> ["december", "prev", "previous", "next"]
    picked_date("Select 12/09/2016 as the date")      -> "2016-12-09"
    calendar_weights(weights, "2016-12-09", [(2016, 11)])  -> "next" leads: November is shown

A task writes a date as numbers ("12/09/2016", month first as US tasks do); a calendar shows its
day without the leading zero, the month by name, and reaches another month through its
previous/next buttons. The instruction planner searches the day as a keyword and the month's
words at a lower weight (``instruction``), so a calendar's navigation is found while the day
cell is not on screen yet. Once a calendar is open the page says which month it shows
("November 2016"): ``calendar_weights`` (the query engine's, given the planner's
``calendar_date``) then leads with the button that moves toward the wanted month, or with the day
once that month is shown -- a day cell of the wrong month says the same number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b")  # month/day/year
_LEADING_ZERO = re.compile(r"\b0\d\b")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
MONTH_NAVIGATION = ("prev", "previous", "next")
_BACK = ("prev", "previous")
_SHOWN_MONTH = re.compile(rf"\b({'|'.join(MONTHS)})\s+(\d{{4}})\b", re.IGNORECASE)
LEAD = 0.5  # how far the calendar's next move is put above every other word


def date_terms(text: str) -> list[str]:
    """The day of each date in ``text`` as a calendar shows it: "12/09/2016" -> "9", and the
    numbers of the text without leading zeros ("09" -> "9")."""
    out = [str(int(day)) for _, day, _ in DATE.findall(text)]
    out += [str(int(w)) for w in _LEADING_ZERO.findall(text)]
    return list(dict.fromkeys(out))


def month_terms(text: str) -> list[str]:
    """For the dates in ``text``: each month's name and the words that move a calendar to it;
    [] without a date."""
    months = [int(month) for month, _, _ in DATE.findall(text)]
    if not months:
        return []
    names = [MONTHS[m - 1] for m in months if 1 <= m <= len(MONTHS)]
    return list(dict.fromkeys([*names, *MONTH_NAVIGATION]))


def picked_date(text: str) -> str | None:
    """The first date of ``text`` as ``YYYY-MM-DD`` (a two-digit year is this century's), or
    None without a valid one."""
    for month, day, year in DATE.findall(text):
        full = int(year) + (2000 if len(year) == 2 else 0)
        if 1 <= int(month) <= 12 and 1 <= int(day) <= 31:
            return f"{full:04d}-{int(month):02d}-{int(day):02d}"
    return None


def shown_months(texts: Iterable[str]) -> list[tuple[int, int]]:
    """The (year, month) pairs a calendar's headings show among ``texts`` ("December 2016")."""
    found = _SHOWN_MONTH.findall(" ".join(texts))
    return sorted({(int(year), MONTHS.index(name.lower()) + 1) for name, year in found})


def calendar_weights(weights: dict[str, float], date: str,
                     shown: list[tuple[int, int]]) -> dict[str, float]:
    """``weights`` for picking ``date`` (YYYY-MM-DD) from a calendar that shows ``shown``: the
    moves toward the month lead (``LEAD`` above every other word) and the day, the other
    direction and the month's name are dropped while another month is shown; once it is shown
    the day leads and the moves and the name are dropped. Unchanged without a calendar on screen
    or a valid date."""
    try:
        year, month, day = (int(part) for part in date.split("-"))
    except ValueError:
        return weights
    if not shown or not 1 <= month <= 12:
        return weights
    wanted, name, cell = (year, month), MONTHS[month - 1], str(day)
    top = max(weights.values(), default=0.0) + LEAD
    out = {w: v for w, v in weights.items() if w not in MONTH_NAVIGATION and w != name}
    if wanted in shown:
        out[cell] = top
    else:
        out.pop(cell, None)
        for word in _BACK if wanted < shown[0] else ("next",):
            out[word] = top
    return out
