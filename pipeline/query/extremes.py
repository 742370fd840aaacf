"""Which of several alike elements a superlative names: "the cheapest flight", "the longest one".

    superlative("Buy the ticket with the cheapest cost")   -> "money:min"
    extreme_target(index, matched_refs, "money:min")         -> the Book button of the lowest price

The instruction planner reads the superlative (``extreme``, an argument only it gives
``query_elements``); the engine, which sees the page, reads the quantity each of the matched
elements alike shows -- in its own text, else in its card (the largest ancestor holding no other
of them: a flight's "Duration: 9h 38m" beside its "Book for $665") -- and puts the one with the
extreme value first, as ``ordinals`` does for a position. Kinds: money ("$1,234.50", "12 USD"),
duration ("2h 15m", "45 min") and a number the task calls a number, value, score, rating or
count. A page where fewer than two of them show the quantity (the search form before the
results) is left as the words rank it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pipeline.distill.model import DNode
from pipeline.query.index import PageIndex
from pipeline.query.ordinals import largest_alike
from pipeline.query.spinners import NUMBER

_AMOUNT = r"(\d[\d,]*(?:\.\d+)?)"
_MONEY = re.compile(rf"[$€£]\s?{_AMOUNT}|{_AMOUNT}\s?(?:USD|EUR|GBP|dollars?|euros?)\b",
                    re.IGNORECASE)
_HOURS = re.compile(r"(\d+(?:\.\d+)?)\s*(?:h|hrs?|hours?)\b", re.IGNORECASE)
_MINUTES = re.compile(r"(\d+)\s*(?:m|mins?|minutes?)\b", re.IGNORECASE)
_QUANTITY = r"(?:number|value|amount|score|rating|count)"
# (pattern, kind), the first that matches wins: "highest price" is money, not a number
_SUPERLATIVES = (
    (r"\bcheapest\b|\bleast expensive\b|\blowest[- ](?:price|cost|fare)", "money:min"),
    (r"\bmost expensive\b|\bpriciest\b|\bcostliest\b|\bhighest[- ](?:price|cost|fare)",
     "money:max"),
    (r"\bshortest\b|\bquickest\b|\bfastest\b", "duration:min"),
    (r"\blongest\b|\bslowest\b", "duration:max"),
    (rf"\b(?:greatest|largest|biggest|highest)\b(?:\s+\w+)?\s+{_QUANTITY}", "number:max"),
    (rf"\b(?:smallest|lowest|least)\b(?:\s+\w+)?\s+{_QUANTITY}", "number:min"),
)


def superlative(instruction: str) -> str | None:
    """``kind:min`` or ``kind:max`` for the superlative of ``instruction``, or None."""
    for pattern, kind in _SUPERLATIVES:
        if re.search(pattern, instruction, flags=re.IGNORECASE):
            return kind
    return None


def extreme_target(index: PageIndex, matched: Iterable[int], extreme: str) -> int | None:
    """The ref of the matched elements alike whose quantity is the extreme one, or None when
    fewer than two of them show a quantity of that kind."""
    kind, _, end = extreme.partition(":")
    read = _READERS.get(kind)
    if read is None:
        return None
    group = largest_alike(index, matched)
    members = {id(index.entries[ref].dnode) for ref in group}
    valued: list[tuple[float, int]] = []
    for ref in group:
        entry = index.entries[ref]
        value = read(entry.text)
        if value is None:
            value = read(_card_text(index, entry.dnode, members))
        if value is not None:
            valued.append((value, ref))
    if len(valued) < 2:
        return None
    pick = min if end == "min" else max
    return pick(valued, key=lambda pair: pair[0])[1]


def _card_text(index: PageIndex, dnode: DNode, members: set[int]) -> str:
    """The text of the largest ancestor of ``dnode`` that holds no other of ``members``."""
    card, parent = dnode, index.parents.get(id(dnode))
    while parent is not None and not parent.tag.startswith("#") and not any(
            id(node) in members for node in parent.walk() if node is not dnode):
        card, parent = parent, index.parents.get(id(parent))
    return " ".join(node.text for node in card.walk() if node.is_text)


def _money(text: str) -> float | None:
    found = _MONEY.search(text)
    return float((found.group(1) or found.group(2)).replace(",", "")) if found else None


def _duration(text: str) -> float | None:
    """Minutes: "9h 38m" -> 578, "45 min" -> 45."""
    hours, minutes = _HOURS.search(text), _MINUTES.search(text)
    if hours is None and minutes is None:
        return None
    return (float(hours.group(1)) * 60 if hours else 0.0) + (
        float(minutes.group(1)) if minutes else 0.0)


def _number(text: str) -> float | None:
    found = NUMBER.search(text)
    return float(found.group(0)) if found else None


_READERS: dict[str, Callable[[str], float | None]] = {
    "money": _money, "duration": _duration, "number": _number}
