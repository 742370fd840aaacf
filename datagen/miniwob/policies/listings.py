"""Oracle policies for tasks that list records to look through: a paginated contact book and a
menu to order from."""

from __future__ import annotations

import json
import re

from datagen.miniwob.policies.base import PolicyError, after, click, css, field

MAX_PAGES = 20
_PROPERTY = {"phone number": "phone", "email": "email", "address": "address"}


async def phone_book(page, episode):
    """Turn the contact pages until the named person shows, then click the asked property."""
    name = field(episode, "name")
    prop = _PROPERTY[after(episode.utterance, r"click on their (.+?)\.?$").group(1)]
    for _ in range(MAX_PAGES):
        shown = await page.eval_on_selector_all(
            "#contact h2.name", "(hs) => hs.map((h) => h.textContent.trim())")
        if name in shown:
            break
        yield click(css("#pagination li.next a"))
    else:
        raise PolicyError(f"{episode.task}: {name!r} is on none of {MAX_PAGES} pages")
    yield click(f"() => Array.from(document.querySelectorAll('#contact h2.name')).find((h) =>"
                f" h.textContent.trim() === {json.dumps(name)}).parentElement"
                f".querySelector('a.{prop}')")


async def order_food(page, episode):
    """``Order one of each item: A, B``: one of each; ``Order 3 items that are vegan``: three
    of the first item marked with that type. Then submit the order."""
    by_type = re.match(r"^Order (\d+) items that are (.+)$", episode.utterance)
    if by_type:
        count, kind = int(by_type.group(1)), by_type.group(2)
        item = await page.evaluate(
            "(kind) => { const f = Array.from(document.querySelectorAll('#area .food-item'))"
            ".find((f) => f.querySelector(`img[alt=\"${kind}\"]`));"
            " return f ? f.dataset.item.trim() : null; }", kind)
        if item is None:
            raise PolicyError(f"{episode.task}: no item is {kind!r}")
        names = [item] * count
    else:
        names = after(episode.utterance, r"^Order one of each item: (.+)$").group(1)
        names = _split_items(names, await page.eval_on_selector_all(
            "#area .food-item", "(fs) => fs.map((f) => f.dataset.item.trim())"))
    for name in names:
        yield click("() => Array.from(document.querySelectorAll('#area .food-item')).find((f) =>"
                    f" f.dataset.item.trim() === {json.dumps(name)}).querySelector('.add')")
    yield click(css("#submit-order button"))


def _split_items(text: str, items: list[str]) -> list[str]:
    """The ", "-joined menu items of ``text`` (an item's name may hold a comma)."""
    found = [i for i in sorted(items, key=len, reverse=True) if i in text]
    chosen: list[str] = []
    rest = text
    for item in found:
        if item in rest:
            chosen.append(item)
            rest = rest.replace(item, "", 1)
    if rest.replace(",", "").strip():
        raise PolicyError(f"order-food: {text!r} names items not on the menu ({items})")
    return chosen


POLICIES = {
    "phone-book": phone_book,
    "order-food": order_food,
}
