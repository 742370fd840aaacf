"""Where a dragged element can go, so a drop names an element: the other items of a dragged
list item's list, or the boxes drawn around the places a dragged shape goes.

A sortable list (jQuery UI's sortable, SortableJS) moves an item by a drag onto the item whose
slot it should take. "Drag Drucy up by one" names the item dragged but not the one it lands
on; the planner finds Drucy, and the step lists the rest of Drucy's list after it, in page
order -- the item whose slot the task names first ("to the 3rd position": the item now 3rd;
"up by one", "to the top") --, so ``drag(index, to_index)`` can name the destination by an
index the step showed. A
drawing's shapes go into its outline boxes ("Drag all circles into the black box",
``svg_markup.drop_boxes``): the step lists the boxes of the dragged shape's ``<svg>``.

    drop_places(index, "Drag Drucy up by one", drucy_ref) -> [2, 3, 4, ...]  # the other items
    drop_places(index, "Drag all circles into the black box", circle_ref) -> [5]  # the box
"""

from __future__ import annotations

import re

from pipeline.distill.svg_markup import EMPTY_SHAPES, outline_box
from pipeline.query.index import PageIndex
from pipeline.query.instruction import DRAG_VERB

MAX_PLACES = 12  # items listed at most (a longer list is paged through with the query tools)
_DRAGGING = re.compile(DRAG_VERB, re.IGNORECASE)
_ITEM_TAG = "li"
# where an item goes in its list: "to the 3rd position", "to position 3", "to the top", "up by one"
_SLOT = re.compile(r"\b(?:to\s+(?:the\s+)?(?:(\d+)(?:st|nd|rd|th)\s+position|position\s+(\d+)"
                   r"|(top|bottom|first|last)\b)|(up|down)\s+by\s+one\b)", re.IGNORECASE)


def drop_places(index: PageIndex, task: str, ref: int) -> list[int]:
    """The refs of the places element ``ref`` can be dragged to, in page order (a list's item
    whose slot the task names first), when ``task`` drags or moves something: the other items
    of its list, or the outline boxes of its drawing; [] otherwise (no drag, or ``ref`` is neither a list item nor a drawn shape still
    to place)."""
    if not _DRAGGING.match(task) or ref not in index.entries:
        return []
    dragged = index.entries[ref].dnode
    if dragged.tag in EMPTY_SHAPES:  # one already in a box (``Entry.placed``) is done
        return [] if index.entries[ref].placed else _boxes_around(index, ref)
    parent = index.parents.get(id(dragged))
    if dragged.tag != _ITEM_TAG or parent is None:
        return []
    items = [child for child in parent.children if child.ref is not None
             and child.tag == dragged.tag]
    slot = _slot(task, items.index(dragged), len(items)) if dragged in items else None
    places = [child.ref for child in items if child is not dragged]
    if slot is not None and items[slot] is not dragged:  # the item whose slot it takes leads
        places.remove(items[slot].ref)
        places.insert(0, items[slot].ref)
    return places[:MAX_PLACES]


def _slot(task: str, start: int, count: int) -> int | None:
    """The 0-based position in its list the task moves an item to ("to the 3rd position", "to
    the top", "down by one"), or None when it names none or one outside the list."""
    found = _SLOT.search(task)
    if found is None:
        return None
    number, position, end, step = found.groups()
    if number or position:
        slot = int(number or position) - 1
    elif end:
        slot = 0 if end.lower() in ("top", "first") else count - 1
    else:
        slot = start + 1 if step.lower() == "down" else start - 1
    return slot if 0 <= slot < count else None


def _boxes_around(index: PageIndex, ref: int) -> list[int]:
    """The refs of the outline boxes in the ``<svg>`` that draws shape ``ref`` (not itself)."""
    state = index.state
    node_id = index.entries[ref].dnode.node_id
    svg = next((a for a in state.ancestors(node_id) if state.nodes[a].tag == "svg"), None)
    if svg is None:
        return []
    inside = state.descendants(svg)
    return [other for other in index.refs_between(inside[0], inside[-1])
            if other != ref and outline_box(state.nodes[index.entries[other].dnode.node_id])
            ][:MAX_PLACES]
