"""How a date in a task shows on the page that picks it: the words a calendar widget uses.

    date_terms("Select 12/09/2016 as the date")       -> ["9"]                 the day cell
    month_terms("Select 12/09/2016 as the date")      -> ["december", "prev", "previous", "next"]
    picked_date("Select 12/09/2016 as the date")      -> "2016-12-09"
    calendar_weights(weights, "2016-12-09", [(2016, 11)])  -> "next" leads: November is shown
    year_jump("2016-01-09", [(2016, 12)])                   -> "Control+PageUp": 11 months back

A task writes a date as numbers ("12/09/2016", month first as US tasks do); a calendar shows its
day without the leading zero, the month by name, and reaches another month through its
previous/next buttons. The instruction planner searches the day as a keyword and the month's
words at a lower weight (``instruction``), so a calendar's navigation is found while the day
cell is not on screen yet. Once a calendar is open the page says which month it shows
("November 2016"): ``calendar_weights`` (the query engine's, given the planner's
``calendar_date``) then leads with the button that moves toward the wanted month, or with the day
once that month is shown -- a day cell of the wrong month says the same number. A month more
than ``YEAR_JUMP_AFTER`` months away is nearer by a year's jump -- the jQuery UI datepicker's
Control+PageUp (PageDown) on its date field -- than by that many clicks (a task has 10 actions):
then the date field leads, and the ``planned`` step shows the key beside it
(``pipeline.agent.observe``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.distill.model import DistilledPage

DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{2,4})\b")  # month/day/year
_LEADING_ZERO = re.compile(r"\b0\d\b")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
MONTH_NAVIGATION = ("prev", "previous", "next")
_BACK = ("prev", "previous")
_SHOWN_MONTH = re.compile(rf"\b({'|'.join(MONTHS)})\s+(\d{{4}})\b", re.IGNORECASE)
LEAD = 0.5  # how far the calendar's next move is put above every other word
YEAR_JUMP_AFTER = 6  # months away: further, a year's jump and steps back are fewer actions
_DATE_FIELD = "date"  # the word of a date field's label ("Date:", "Departure Date")
_PAGE_MONTHS = "page_months"  # the key of a page's shown months in ``DistilledPage.derived``


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


def page_months(page: DistilledPage) -> list[tuple[int, int]]:
    """The (year, month) pairs a calendar on ``page`` shows (``shown_months`` of its texts),
    read once and kept on the page (``derived``): the query and the step's hint both ask."""
    found = page.derived.get(_PAGE_MONTHS)
    if found is None:
        texts = (node.text for node in page.root.walk() if node.is_text)
        found = page.derived[_PAGE_MONTHS] = shown_months(texts)
    return found


def year_jump(date: str | None, shown: list[tuple[int, int]]) -> str | None:
    """The key that jumps a calendar showing ``shown`` a year toward ``date`` (YYYY-MM-DD):
    "Control+PageUp" (back) or "Control+PageDown", when the month is more than
    ``YEAR_JUMP_AFTER`` months from the first shown; None nearer, without a calendar on screen
    or without a valid date."""
    try:
        year, month, _ = (int(part) for part in (date or "").split("-"))
    except ValueError:
        return None
    if not shown:
        return None
    ahead = (year - shown[0][0]) * 12 + month - shown[0][1]
    if abs(ahead) <= YEAR_JUMP_AFTER:
        return None
    return "Control+PageDown" if ahead > 0 else "Control+PageUp"


def calendar_weights(weights: dict[str, float], date: str,
                     shown: list[tuple[int, int]]) -> dict[str, float]:
    """``weights`` for picking ``date`` (YYYY-MM-DD) from a calendar that shows ``shown``: the
    moves toward the month lead (``LEAD`` above every other word) and the day, the other
    direction and the month's name are dropped while another month is shown; once it is shown
    the day leads and the moves and the name are dropped; a month a year's jump away
    (``year_jump``) has the date field lead, the moves next. Unchanged without a calendar
    on screen or a valid date."""
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
        if year_jump(date, shown):
            out[_DATE_FIELD] = top + LEAD
    return out
