"""The value a typed ``<input>`` takes, from the way a person writes it.

A date, time, month or datetime-local input holds its value in one wire format (``2018-04-15``,
``15:03``, ``2018-04``, ``2018-04-15T15:03``) and the browser drops anything else, silently: a
field set to "04/15/2018" is left empty. Tasks, users and models write dates and times the way
people do ("04/15/2018", "April 15, 2018", "3:03 PM"), so the executor translates before it sets
the value::

    wire_value("date", "04/15/2018")               # "2018-04-15"
    wire_value("time", "3:03 PM")                  # "15:03"
    wire_value("datetime-local", "04/15/2018 3:03 PM")   # "2018-04-15T15:03"
    wire_value("month", "April 2018")              # "2018-04"

Numeric dates read month first (``04/05/2018`` is April 5th, as in the US pages of MiniWoB++ and
Mind2Web) unless the first number cannot be a month (``15/04/2018``). A text no rule reads comes
back unchanged, so a value already in the wire format, or one only the browser can judge (a
colour name, a week), is passed through. ``FORMATS`` says how to write each kind, for the message
when the browser refuses a value all the same.
"""

from __future__ import annotations

import re
from datetime import date

FORMATS = {
    "date": "2018-04-15 or 04/15/2018",
    "time": "15:03 or 3:03 PM",
    "datetime-local": "2018-04-15T15:03 or 04/15/2018 3:03 PM",
    "month": "2018-04 or April 2018",
    "week": "2018-W15",
    "color": "#ff0000 or red",
    "range": "a number within the slider's range",
}
_MONTHS = {name: number for number, names in enumerate(
    ("jan january", "feb february", "mar march", "apr april", "may", "jun june", "jul july",
     "aug august", "sep sept september", "oct october", "nov november", "dec december"), start=1)
    for name in names.split()}
_MONTH = r"([A-Za-z]{3,9})\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_NUMERIC_DATE = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})")
_YEAR_FIRST = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_MONTH_DAY_YEAR = re.compile(_MONTH + r"\s+" + _DAY + r",?\s+(\d{4})")
_DAY_MONTH_YEAR = re.compile(_DAY + r"\s+(?:of\s+)?" + _MONTH + r",?\s+(\d{4})")
_CLOCK = re.compile(r"(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([AaPp])\.?\s*[Mm]\.?")
_CLOCK_24 = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?")
_MONTH_YEAR = re.compile(_MONTH + r",?\s+(\d{4})")
_NUMERIC_MONTH = re.compile(r"(\d{1,2})[/.-](\d{4})")
_DATE_TIME_SPLIT = re.compile(r"\s*(?:T|,|\s+at\s+|\s)\s*")


def wire_value(kind: str, text: str) -> str:
    """``text`` in the wire format of an ``<input type=kind>``; unchanged when no rule reads it."""
    stripped = text.strip()
    reader = _READERS.get(kind)
    found = reader(stripped) if reader else None
    return found if found is not None else stripped


def read_date(text: str) -> str | None:
    """``YYYY-MM-DD`` for a date written with numbers or an English month name."""
    if match := _YEAR_FIRST.fullmatch(text):
        year, month, day = (int(g) for g in match.groups())
    elif match := _NUMERIC_DATE.fullmatch(text):
        first, second, year = (int(g) for g in match.groups())
        month, day = (first, second) if first <= 12 else (second, first)
        year = _full_year(year, match.group(3))
    elif match := _MONTH_DAY_YEAR.fullmatch(text):
        month, day, year = _month_number(match.group(1)), int(match.group(2)), int(match.group(3))
    elif match := _DAY_MONTH_YEAR.fullmatch(text):
        day, month, year = int(match.group(1)), _month_number(match.group(2)), int(match.group(3))
    else:
        return None
    try:
        return date(year, month or 0, day).isoformat()
    except ValueError:
        return None


def read_time(text: str) -> str | None:
    """``HH:MM`` (``HH:MM:SS`` when seconds are given) for a 12- or 24-hour clock time."""
    if match := _CLOCK.fullmatch(text):
        hour, minute, second, half = match.groups()
        hour = int(hour)
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half.lower() == "p" else 0)
    elif match := _CLOCK_24.fullmatch(text):
        hour, minute, second = int(match.group(1)), match.group(2), match.group(3)
    else:
        return None
    minute = int(minute or 0)
    if hour > 23 or minute > 59 or (second is not None and int(second) > 59):
        return None
    clock = f"{hour:02d}:{minute:02d}"
    return clock if second is None else f"{clock}:{int(second):02d}"


def read_datetime(text: str) -> str | None:
    """``YYYY-MM-DDTHH:MM`` for a date and a time, in that order, split by a space, a comma, "at"
    or ``T``."""
    for split in _DATE_TIME_SPLIT.finditer(text):
        day = read_date(text[:split.start()])
        clock = read_time(text[split.end():])
        if day and clock:
            return f"{day}T{clock}"
    return None


def read_month(text: str) -> str | None:
    """``YYYY-MM`` for a month written as ``04/2018`` or "April 2018"."""
    if match := _NUMERIC_MONTH.fullmatch(text):
        month, year = int(match.group(1)), int(match.group(2))
    elif match := _MONTH_YEAR.fullmatch(text):
        month, year = _month_number(match.group(1)), int(match.group(2))
    else:
        return None
    return f"{year:04d}-{month:02d}" if month and 1 <= month <= 12 else None


def _month_number(name: str) -> int | None:
    return _MONTHS.get(name.lower())


def _full_year(year: int, written: str) -> int:
    """A two-digit year as ``strptime``'s ``%y`` reads it (69-99: 1900s, 00-68: 2000s)."""
    if len(written) == 4:
        return year
    return year + (1900 if year >= 69 else 2000)


_READERS = {"date": read_date, "time": read_time, "datetime-local": read_datetime,
            "month": read_month}
