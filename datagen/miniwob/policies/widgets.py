"""Oracle policies for widget tasks: a select list, a spinner, an autocomplete, a datepicker and
a search engine with paginated results. Each reads the widget's state before a click whose effect
shows (a value already picked, the datepicker open, results listed, the right results page)."""

from __future__ import annotations

import json
from datetime import datetime

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    is_visible,
    quoted,
    select,
    text_of,
    type_,
)

AUTOCOMPLETE_WAIT_MS = 3_000  # jQuery UI shows the menu after a 300 ms delay


async def choose_list(page, episode):
    option = after(episode.utterance, r"^Select (.+) from the list and click Submit\.$").group(1)
    yield select(css("#options"), option)
    yield click(css("#area button", "Submit"))


async def use_spinner(page, episode):
    wanted = int(after(episode.utterance, r"Select (-?\d+) with the spinner").group(1))
    current = int(await page.input_value("#spinner") or 0)
    arrow = css(".ui-spinner-up" if wanted > current else ".ui-spinner-down")
    for _ in range(abs(wanted - current)):
        yield click(arrow)
    yield click(css("#subbtn"))


async def use_autocomplete(page, episode):
    """Type the prefix, then pick a suggestion that also has the wanted ending."""
    parts = quoted(episode.utterance)
    prefix, suffix = parts[0], parts[1] if len(parts) > 1 else ""
    value = await page.input_value("#tags")
    if value != prefix and value.startswith(prefix) and value.endswith(suffix):
        yield click(css("#subbtn"))  # a suggestion is already picked
        return
    yield type_(css("#tags"), prefix)
    menu = "ul.ui-autocomplete li"
    await page.wait_for_selector(menu, state="visible", timeout=AUTOCOMPLETE_WAIT_MS)
    items = await page.eval_on_selector_all(menu, "(els) => els.map((e) => e.textContent)")
    choice = next((i for i in items if i.startswith(prefix) and i.endswith(suffix)), None)
    if choice is None:
        raise PolicyError(f"{episode.task}: no suggestion starts with {prefix!r} and ends "
                          f"with {suffix!r} ({items})")
    yield click(css("ul.ui-autocomplete li .ui-menu-item-wrapper", choice))
    yield click(css("#subbtn"))


async def choose_date_easy(page, episode):
    """Open the datepicker (it shows the only allowed month) and click the day."""
    wanted = after(episode.utterance, r"(\d\d/\d\d/\d{4})").group(1)
    day = datetime.strptime(wanted, "%m/%d/%Y")
    if await page.input_value("#datepicker") != wanted:
        if not await is_visible(page, css("#ui-datepicker-div")):
            yield click(css("#datepicker"))
        yield click(css("#ui-datepicker-div td[data-handler=selectDay] a", str(day.day)))
    yield click(css("#subbtn"))


async def search_engine(page, episode):
    """Search, turn to the result's page (three results a page), click the result."""
    term = quoted(episode.utterance)[0]
    index = int(after(episode.utterance, r"click the (\d+)(st|nd|rd|th) search result").group(1))
    yield type_(css("#search-text"), term)
    listed = await page.evaluate(  # results of the right search (a wrong one lists -1s)
        "() => document.querySelector('#page-content a[data-result]:not([data-result=\"-1\"])')"
        " !== null")
    if not listed:
        yield click(css("#search"))
    result_page = str((index - 1) // 3 + 1)
    if await text_of(page, "#pagination li.active a") != result_page:
        yield click(css("#pagination a", result_page))
    yield click(css(f"#page-content a[data-result={json.dumps(str(index - 1))}]"))


POLICIES = {
    "choose-list": choose_list,
    "use-spinner": use_spinner,
    "use-autocomplete": use_autocomplete,
    "choose-date-easy": choose_date_easy,
    "search-engine": search_engine,
}
