"""A list of values the task gives its controls in order: "Set the sliders to the combination
[2,3,11]" -- the first slider 2, the second 3, the third 11.

    listed_value(index, ref, "Set the sliders to the combination [2,3,11] and submit.")
        -> ("1st", "2") for the first of the page's three sliders
    listed_numbers("Set the sliders to the combination [2,3,11] and submit.") -> ("2", "3", "11")
    listed_target(index, ("2", "3", "11"))  -> the first slider that does not show its value yet

A small model reads "[2,3,11]" and still sets the first slider to 3, or sets the first one
again once it shows 2. Where the task lists as many numbers (in brackets) as the page has
sliders, the ``planned`` step shows each slider's own beside it
(``pipeline.agent.observe.step_candidates``), and the instruction planner passes the list
(``listed_values``, an argument only it gives ``query_elements``; a stepped goal, so the clause
that sends the form keeps it) for the engine to lead with the first slider whose shown value is
not its own yet. A slider shows its value as ``aria-valuenow``, a range input's ``value``, or
the number right after it (a jQuery UI slider's output beside it). A slider is an ARIA
``slider``, a range input or a jQuery UI slider (``ui-slider``; its handle,
``ui-slider-handle``, is part of it). Any other count of values or sliders pairs nothing.
"""

from __future__ import annotations

import re

from pipeline.query.index import Entry, PageIndex
from pipeline.query.text import bare_number

_LIST = re.compile(r"\[\s*(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+)\s*\]")
_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def listed_numbers(task: str) -> tuple[str, ...]:
    """The numbers of the task's bracketed list, in order ("[2,3,11]"), or () for none."""
    found = _LIST.search(task)
    return tuple(value.strip() for value in found.group(1).split(",")) if found else ()


def listed_value(index: PageIndex, ref: int, task: str) -> tuple[str, str] | None:
    """(the slider's place among the page's sliders, "1st", and the task's value for it), or
    None when ``ref`` is no slider or the task's list does not have one value per slider."""
    values = listed_numbers(task)
    if not values or ref not in index.entries or not _is_slider(index.entries[ref]):
        return None
    sliders = _sliders(index)
    if len(sliders) != len(values):
        return None
    place = sliders.index(ref) + 1
    suffix = "th" if 10 <= place % 100 <= 20 else _SUFFIXES.get(place % 10, "th")
    return f"{place}{suffix}", values[place - 1]


def listed_target(index: PageIndex, values: tuple[str, ...]) -> int | None:
    """The first slider (in document order) that does not show its value of ``values`` (one
    per slider), or None when each shows its own or the counts differ."""
    sliders = _sliders(index)
    if len(sliders) != len(values):
        return None
    return next((ref for ref, value in zip(sliders, values, strict=True)
                 if shown_number(index, ref) != float(value)), None)


def shown_number(index: PageIndex, ref: int) -> float | None:
    """The number a slider shows: its ``aria-valuenow`` or ``value``, else the text of the
    sibling right after it when that is a bare number and no element (an output beside it)."""
    entry = index.entries[ref]
    for key in ("aria-valuenow", "value"):
        number = bare_number(entry.node.attributes.get(key, ""))
        if number is not None:
            return number
    parent = index.parents.get(id(entry.dnode))
    siblings = parent.children if parent is not None else []
    after = next((i + 1 for i, node in enumerate(siblings) if node is entry.dnode), len(siblings))
    if after >= len(siblings) or any(node.ref is not None for node in siblings[after].walk()):
        return None
    return bare_number(" ".join(node.text for node in siblings[after].walk() if node.is_text))


def _sliders(index: PageIndex) -> list[int]:
    return [ref for ref, entry in index.entries.items() if _is_slider(entry)]


def _is_slider(entry: Entry) -> bool:
    node = entry.node
    classes = node.attributes.get("class", "").split()
    return (node.role == "slider" or "ui-slider" in classes
            or (node.tag == "input" and node.attributes.get("type", "").lower() == "range"))
