"""Cards that show their number one at a time: which to turn next, and which to pick.

    turned_numbers(["[div]  0 -> CLICK", "[div]  10 -> CLICK"])  -> [0.0, 10.0]
    turned_target(index, hits, "number:max", [0.0, 10.0, 5.0])    -> the card that showed 10

"Find and pick the card with the greatest number": the page shows three cards face down and
turns one up per click, hiding the others, so no page ever shows two numbers and the greatest
is not on any one page (``extremes`` then reads nothing). The instruction planner passes the
superlative with the numbers its history's clicks turned up (``turned``, an argument only it
gives ``query_elements``, on every clause, the one that sends the form too); the engine finds
the cards -- the largest set of elements alike (the same tag, a class in common) that show a
bare number or nothing, one of them nothing -- and, as the turns go in page order (it leads
them so), the card after the last turned leads until every card was turned, then the card
whose number was the extreme one, and once that one shows it, the button that sends the form.
"""

from __future__ import annotations

from collections.abc import Iterable

from pipeline.query.context import alike_elements
from pipeline.query.index import PageIndex
from pipeline.query.text import HISTORY_LINE, bare_number, sends_form


def turned_numbers(history: Iterable[str]) -> list[float]:
    """The numbers the elements the history clicked showed, oldest first."""
    lines = [found for line in history if (found := HISTORY_LINE.match(line))]
    numbers = [bare_number(found["name"]) for found in lines
               if found["op"] == "CLICK" and not found["value"]]
    return [number for number in numbers if number is not None]


def turned_target(index: PageIndex, hits: Iterable[int], extreme: str,
                  seen: list[float]) -> int | None:
    """The card to turn or pick next, or the hit that sends the form once the extreme card
    shows its number; None when the page has no cards face down."""
    cards = _cards(index)
    if not cards:
        return None
    if len(seen) < len(cards):
        return cards[len(seen)]
    values = seen[: len(cards)]
    best = values.index(min(values) if extreme.endswith(":min") else max(values))
    if bare_number(index.entries[cards[best]].text) != values[best]:
        return cards[best]
    return next((ref for ref in hits if sends_form(index.entries[ref].text)), None)


def _cards(index: PageIndex) -> list[int]:
    """The largest set (two or more) of elements alike that show a bare number or nothing,
    at least one nothing, in page order; [] when there is none."""
    groups: list[list[int]] = []
    for ref, entry in index.entries.items():
        if entry.text and bare_number(entry.text) is None:
            continue
        group = next((g for g in groups
                      if alike_elements(index.entries[g[0]].node, entry.node)), None)
        if group is None:
            groups.append([ref])
        else:
            group.append(ref)
    return max((g for g in groups if len(g) > 1 and any(
        not index.entries[ref].text for ref in g)), key=len, default=[])
