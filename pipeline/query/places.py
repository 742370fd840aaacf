"""Where a dragged list item can go: the other items of its list, so a drop names an element.

A sortable list (jQuery UI's sortable, SortableJS) moves an item by a drag onto the item whose
slot it should take. "Drag Drucy up by one" names the item dragged but not the one it lands
on; the planner finds Drucy, and the step lists the rest of Drucy's list after it, in page
order, so ``drag(index, to_index)`` can name the destination by an index the step showed.

    drop_places(index, "Drag Drucy up by one", drucy_ref) -> [2, 3, 4, ...]  # the other items
"""

from __future__ import annotations

import re

from pipeline.query.index import PageIndex
from pipeline.query.instruction import DRAG_VERB

MAX_PLACES = 12  # items listed at most (a longer list is paged through with the query tools)
_DRAGGING = re.compile(DRAG_VERB, re.IGNORECASE)
_ITEM_TAG = "li"


def drop_places(index: PageIndex, task: str, ref: int) -> list[int]:
    """The refs of the other items of the list whose item ``ref`` is, in page order, when
    ``task`` drags or moves something; [] otherwise (no drag, or ``ref`` is no list item)."""
    if not _DRAGGING.match(task) or ref not in index.entries:
        return []
    item = index.entries[ref].dnode
    parent = index.parents.get(id(item))
    if item.tag != _ITEM_TAG or parent is None:
        return []
    return [child.ref for child in parent.children
            if child.ref is not None and child is not item and child.tag == item.tag
            ][:MAX_PLACES]
