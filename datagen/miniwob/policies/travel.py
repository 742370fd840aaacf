"""Oracle policies for the travel tasks. book-flight: fill the two airport fields through their
autocomplete menus, pick the date in the datepicker, search, and book the cheapest or the
shortest flight listed (by the price and the duration each result shows). buy-ticket: buy the
listed ticket with the lowest or highest price or duration (each result's ``data-price`` and
``data-duration``, the exact values behind the rounded text)."""

from __future__ import annotations

import json
import re
from datetime import datetime

from datagen.miniwob.policies.base import PolicyError, click, css, field, is_visible, type_
from datagen.miniwob.policies.dates import pick_date

AUTOCOMPLETE_WAIT_MS = 3_000
_SUGGESTIONS = "ul.ui-autocomplete:not([style*='display: none']) li"


async def book_flight(page, episode):
    """Restartable (DAgger asks from any state): once the results are listed only the flight
    is left to pick, and an airport field holding a suggestion that names its place is done."""
    if not await is_visible(page, "() => document.querySelector('#results .flight')"):
        async for act in _search(page, episode):
            yield act
    flights = await page.eval_on_selector_all(
        "#results .flight", "(fs) => fs.map((f) => [f.querySelector('.flight-price')"
        ".textContent, f.querySelector('.time-duration').textContent])")
    if not flights:
        raise PolicyError(f"{episode.task}: the search listed no flights")
    key = _price if field(episode, "criterion") == "cheapest" else _minutes
    best = min(range(len(flights)), key=lambda i: key(flights[i]))
    yield click(f"() => document.querySelectorAll('#results .flight')[{json.dumps(best)}]"
                ".querySelector('.flight-price')")


async def _search(page, episode):
    """Fill the airports (through their autocomplete menus) and the date, then search."""
    for selector, name in (("#flight-from", "from"), ("#flight-to", "to")):
        place = field(episode, name)
        held = await page.input_value(selector)
        if place in held and held != place:  # a suggestion naming the place was picked
            continue
        yield type_(css(selector), place)
        await page.wait_for_selector(_SUGGESTIONS, state="visible", timeout=AUTOCOMPLETE_WAIT_MS)
        shown = await page.eval_on_selector_all(_SUGGESTIONS, "(ls) => ls.map((l) => "
                                                "l.textContent.trim())")
        choice = next((s for s in shown if place in s), None)
        if choice is None:
            raise PolicyError(f"{episode.task}: no suggestion names {place!r} ({shown})")
        yield click(css(f"{_SUGGESTIONS} .ui-menu-item-wrapper", choice))
    when = datetime.strptime(field(episode, "date"), "%m/%d/%Y").date()
    async for act in pick_date(page, when):
        yield act
    yield click(css("#search"))


def _price(flight: list[str]) -> int:
    return int(re.search(r"\$(\d+)", flight[0]).group(1))


def _minutes(flight: list[str]) -> int:
    hours, minutes = re.search(r"(\d+)h (\d+)m", flight[1]).groups()
    return int(hours) * 60 + int(minutes)


_TICKET_RULES = {"cheapest cost": ("price", min), "most expensive cost": ("price", max),
                 "shortest duration": ("duration", min), "longest duration": ("duration", max)}


async def buy_ticket(page, episode):
    rule = re.search(r"^Buy the ticket with the (.+)\.$", episode.utterance)
    if rule is None or rule.group(1) not in _TICKET_RULES:
        raise PolicyError(f"{episode.task}: no known rule in {episode.utterance!r}")
    key, pick = _TICKET_RULES[rule.group(1)]
    values = await page.eval_on_selector_all(
        "#area .flight", f"(fs) => fs.map((f) => parseInt(f.querySelector('[data-{key}]')"
        f".getAttribute('data-{key}'), 10))")
    best = values.index(pick(values))
    yield click(f"() => document.querySelectorAll('#area .flight')[{best}]"
                ".querySelector('.buy-ticket')")


POLICIES = {
    "buy-ticket": buy_ticket,
    "book-flight": book_flight,
    "book-flight-nodelay": book_flight,
}
