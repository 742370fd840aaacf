"""A list of values the task gives its controls in order: "Set the sliders to the combination
[2,3,11]" -- the first slider 2, the second 3, the third 11.

    listed_value(index, ref, "Set the sliders to the combination [2,3,11] and submit.")
        -> ("1st", "2") for the first of the page's three sliders

A small model reads "[2,3,11]" and still sets the first slider to 3. Where the task lists as
many numbers (in brackets) as the page has sliders, the ``planned`` step shows each slider's
own beside it (``pipeline.agent.observe.step_candidates``). A slider is an ARIA ``slider``, a
range input or a jQuery UI slider (``ui-slider``; its handle, ``ui-slider-handle``, is part
of it). Any other count of values or sliders pairs nothing.
"""

from __future__ import annotations

import re

from pipeline.query.index import Entry, PageIndex

_LIST = re.compile(r"\[\s*(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+)\s*\]")
_SUFFIXES = {1: "st", 2: "nd", 3: "rd"}


def listed_value(index: PageIndex, ref: int, task: str) -> tuple[str, str] | None:
    """(the slider's place among the page's sliders, "1st", and the task's value for it), or
    None when ``ref`` is no slider or the task's list does not have one value per slider."""
    found = _LIST.search(task)
    if found is None or ref not in index.entries or not _is_slider(index.entries[ref]):
        return None
    values = [value.strip() for value in found.group(1).split(",")]
    sliders = [other for other, entry in index.entries.items() if _is_slider(entry)]
    if len(sliders) != len(values):
        return None
    place = sliders.index(ref) + 1
    suffix = "th" if 10 <= place % 100 <= 20 else _SUFFIXES.get(place % 10, "th")
    return f"{place}{suffix}", values[place - 1]


def _is_slider(entry: Entry) -> bool:
    node = entry.node
    classes = node.attributes.get("class", "").split()
    return (node.role == "slider" or "ui-slider" in classes
            or (node.tag == "input" and node.attributes.get("type", "").lower() == "range"))
