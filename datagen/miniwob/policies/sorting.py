"""Oracle policies for the jQuery UI sortable lists: move an item to a position, sort numbers.
An item moves by a mouse drag from its centre to the centre of the slot it should take, pushed a
little past it in the direction of travel (a sortable swaps two items once the pointer crosses
the middle of the other one)."""

from __future__ import annotations

import re

from datagen.miniwob.policies.base import PolicyError, after, click, css, drag, ordinal

NUDGE = 0.3  # of an item's size, past the target slot's centre
_CENTRES_JS = """() => Array.from(document.querySelectorAll('#sortable li'), (li) => {
  const r = li.getBoundingClientRect();
  return [li.textContent.trim(), r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];
})"""


async def move_item(page, start: int, end: int):
    """The drag that moves the ``start``-th item of ``#sortable`` (0-based) to slot ``end``."""
    items = await page.evaluate(_CENTRES_JS)
    _, x0, y0, _, _ = items[start]
    _, x1, y1, width, height = items[end]
    dx = x1 - x0 + (NUDGE * width if x1 > x0 else -NUDGE * width if x1 < x0 else 0)
    dy = y1 - y0 + (NUDGE * height if y1 > y0 else -NUDGE * height if y1 < y0 else 0)
    yield drag(css("#sortable li", nth=start), by=(round(dx), round(dy)))


async def drag_items(page, episode):
    """``Drag <item> to the top. / to the bottom. / up|down by one position. / to the 3rd
    position.``"""
    match = after(episode.utterance, r"^Drag (.+?) (to the top|to the bottom|down by one "
                                     r"position|up by one position|to the \w+ position)\.$")
    names = [item[0] for item in await page.evaluate(_CENTRES_JS)]
    if match.group(1) not in names:
        raise PolicyError(f"{episode.task}: no item {match.group(1)!r} in {names}")
    start, where = names.index(match.group(1)), match.group(2)
    end = {"to the top": 0, "to the bottom": len(names) - 1, "down by one position": start + 1,
           "up by one position": start - 1}.get(where)
    if end is None:
        end = ordinal(re.search(r"to the (\w+) position", where).group(1))
    async for act in move_item(page, start, end):
        yield act


_GRID_SLOTS = {f"{row} {column}".strip(): 3 * r + c
               for r, row in enumerate(("top", "center", "bottom"))
               for c, column in enumerate(("left", "center", "right"))} | {"center": 4}
_GRID_STEPS = {"up": -3, "down": 3, "left": -1, "right": 1}


async def drag_items_grid(page, episode):
    """``Drag <item> to the top right.`` (slots of the 3x3 grid) or ``... left by one.``"""
    match = after(episode.utterance, r"^Drag (.+?) (?:to the (.+)|(up|down|left|right) by one)\.$")
    names = [item[0] for item in await page.evaluate(_CENTRES_JS)]
    if match.group(1) not in names:
        raise PolicyError(f"{episode.task}: no item {match.group(1)!r} in {names}")
    start = names.index(match.group(1))
    end = (_GRID_SLOTS.get(match.group(2).replace("center center", "center"))
           if match.group(2) else start + _GRID_STEPS[match.group(3)])
    if end is None:
        raise PolicyError(f"{episode.task}: no grid slot {match.group(2)!r}")
    async for act in move_item(page, start, end):
        yield act


async def drag_sort_numbers(page, episode):
    """Selection sort: bring the smallest remaining number to the next slot, then submit."""
    for slot in range(len(await page.evaluate(_CENTRES_JS))):
        numbers = [int(item[0]) for item in await page.evaluate(_CENTRES_JS)]
        smallest = min(range(slot, len(numbers)), key=lambda i: numbers[i])
        if numbers[smallest] != numbers[slot]:
            async for act in move_item(page, smallest, slot):
                yield act
    numbers = [int(item[0]) for item in await page.evaluate(_CENTRES_JS)]
    if numbers != sorted(numbers):
        raise PolicyError(f"{episode.task}: the list is still {numbers}")
    yield click(css("#subbtn"))


POLICIES = {
    "drag-items": drag_items,
    "drag-items-grid": drag_items_grid,
    "drag-sort-numbers": drag_sort_numbers,
}
