"""Oracle policies for the jQuery UI sortable lists: move an item to a position, sort numbers.
An item moves by a drag onto the item whose slot it should take (the executor releases it a
little past that item's centre, where a sortable swaps the two), so the recorded step names the
destination as an element of the page, which a student can read, not as pixels."""

from __future__ import annotations

import re

from datagen.miniwob.policies.base import Act, PolicyError, after, click, css, drag, ordinal

_ITEM = "#sortable li"
_ITEMS_JS = f"() => Array.from(document.querySelectorAll('{_ITEM}'), " \
    "(li) => li.textContent.trim())"


def move_item(start: int, end: int) -> Act:
    """The drag that moves the ``start``-th item of ``#sortable`` (0-based) to slot ``end``."""
    return drag(css(_ITEM, nth=start), onto=css(_ITEM, nth=end))


async def drag_items(page, episode):
    """``Drag <item> to the top. / to the bottom. / up|down by one position. / to the 3rd
    position.``"""
    match = after(episode.utterance, r"^Drag (.+?) (to the top|to the bottom|down by one "
                                     r"position|up by one position|to the \w+ position)\.$")
    names = await page.evaluate(_ITEMS_JS)
    if match.group(1) not in names:
        raise PolicyError(f"{episode.task}: no item {match.group(1)!r} in {names}")
    start, where = names.index(match.group(1)), match.group(2)
    end = {"to the top": 0, "to the bottom": len(names) - 1, "down by one position": start + 1,
           "up by one position": start - 1}.get(where)
    if end is None:
        end = ordinal(re.search(r"to the (\w+) position", where).group(1))
    yield move_item(start, end)


_GRID_SLOTS = {f"{row} {column}".strip(): 3 * r + c
               for r, row in enumerate(("top", "center", "bottom"))
               for c, column in enumerate(("left", "center", "right"))} | {"center": 4}
_GRID_STEPS = {"up": -3, "down": 3, "left": -1, "right": 1}


async def drag_items_grid(page, episode):
    """``Drag <item> to the top right.`` (slots of the 3x3 grid) or ``... left by one.``"""
    match = after(episode.utterance, r"^Drag (.+?) (?:to the (.+)|(up|down|left|right) by one)\.$")
    names = await page.evaluate(_ITEMS_JS)
    if match.group(1) not in names:
        raise PolicyError(f"{episode.task}: no item {match.group(1)!r} in {names}")
    start = names.index(match.group(1))
    end = (_GRID_SLOTS.get(match.group(2).replace("center center", "center"))
           if match.group(2) else start + _GRID_STEPS[match.group(3)])
    if end is None:
        raise PolicyError(f"{episode.task}: no grid slot {match.group(2)!r}")
    yield move_item(start, end)


async def drag_sort_numbers(page, episode):
    """Selection sort: bring the smallest remaining number to the next slot, then submit."""
    for slot in range(len(await page.evaluate(_ITEMS_JS))):
        numbers = [int(item) for item in await page.evaluate(_ITEMS_JS)]
        smallest = min(range(slot, len(numbers)), key=lambda i: numbers[i])
        if numbers[smallest] != numbers[slot]:
            yield move_item(smallest, slot)
    numbers = [int(item) for item in await page.evaluate(_ITEMS_JS)]
    if numbers != sorted(numbers):
        raise PolicyError(f"{episode.task}: the list is still {numbers}")
    yield click(css("#subbtn"))


POLICIES = {
    "drag-items": drag_items,
    "drag-items-grid": drag_items_grid,
    "drag-sort-numbers": drag_sort_numbers,
}
