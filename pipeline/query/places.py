"""Where a dragged element can go, so a drop names an element: the other items of a dragged
list item's list, or the boxes drawn around the places a dragged shape goes.

A sortable list (jQuery UI's sortable, SortableJS) moves an item by a drag onto the item whose
slot it should take. "Drag Drucy up by one" names the item dragged but not the one it lands
on; the planner finds Drucy, and the step lists the rest of Drucy's list after it, in page
order -- the item whose slot the task names first ("to the 3rd position": the item now 3rd;
"to the top right" of a grid, read off the items' rows and columns; "up by one") --, so
``drag(index, to_index)`` can name the destination by an index the step showed. A drawing's
shapes go into its outline boxes ("Drag all circles into the black box",
``svg_markup.drop_boxes``): the step lists the boxes of the dragged shape's ``<svg>``, the one
the shape's description sends it to first ("all triangles into the left box, and everything
else into the right box").

    drop_places(index, "Drag Drucy up by one", drucy_ref) -> [2, 3, 4, ...]  # the other items
    drop_places(index, "Drag all circles into the black box", circle_ref) -> [5]  # the box
"""

from __future__ import annotations

import re

from pipeline.distill.colours import painted_colour
from pipeline.distill.model import DNode
from pipeline.distill.svg_markup import EMPTY_SHAPES, outline_box, shape_name
from pipeline.query.index import PageIndex
from pipeline.query.instruction import DRAG_VERB
from pipeline.query.text import stem, words

MAX_PLACES = 12  # items listed at most (a longer list is paged through with the query tools)
_DRAGGING = re.compile(DRAG_VERB, re.IGNORECASE)
_ITEM_TAG = "li"
# where an item goes among the items of its list or grid: "to the 3rd position", "to position 3",
# "to the top", "to the bottom right", "to the center", "up by one", "left by one"
_POSITION = re.compile(
    r"\bto\s+(?:the\s+)?(?:(\d+)(?:st|nd|rd|th)\s+position|position\s+(\d+))\b", re.IGNORECASE)
_AREA = re.compile(r"\bto\s+the\s+(top|bottom|center|middle|first|last|left|right)"
                   r"(?:\s+(left|center|middle|right))?\b", re.IGNORECASE)
_STEP = re.compile(r"\b(up|down|left|right)\s+by\s+one\b", re.IGNORECASE)
_STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
# "Drag all triangles into the left box, and everything else into the right box"
_INTO_BOX = re.compile(r"\b(all\s+[\w\s]+?|everything\s+else|the\s+rest|the\s+others?)\s+"
                       r"(?:into|in|onto|to)\s+the\s+(\w+)\s+box\b", re.IGNORECASE)
_THE_REST = frozenset({"everything else", "the rest", "the other", "the others"})
_ANY_SHAPE = frozenset({stem(word) for word in ("all", "shapes", "shape", "items", "objects")})


def drop_places(index: PageIndex, task: str, ref: int) -> list[int]:
    """The refs of the places element ``ref`` can be dragged to, in page order (a list's item
    whose slot the task names first), when ``task`` drags or moves something: the other items
    of its list, or the outline boxes of its drawing; [] otherwise (no drag, or ``ref`` is
    neither a list item nor a drawn shape still to place)."""
    if not _DRAGGING.match(task) or ref not in index.entries:
        return []
    dragged = index.entries[ref].dnode
    if dragged.tag in EMPTY_SHAPES:  # one already in a box (``Entry.placed``) is done
        return [] if index.entries[ref].placed else _named_box_first(
            index, task, ref, _boxes_around(index, ref))
    parent = index.parents.get(id(dragged))
    if dragged.tag != _ITEM_TAG or parent is None:
        return []
    items = [child for child in parent.children if child.ref is not None
             and child.tag == dragged.tag]
    places = [child.ref for child in items if child is not dragged]
    slot = _slot_item(index, task, items, dragged) if dragged in items else None
    if slot is not None:  # the item whose slot it takes leads
        places.remove(slot.ref)
        places.insert(0, slot.ref)
    return places[:MAX_PLACES]


def _slot_item(index: PageIndex, task: str, items: list[DNode], dragged: DNode
               ) -> DNode | None:
    """The item whose slot the task moves ``dragged`` to, or None when it names none, one off
    the list, or the dragged item's own: a position counts the items in page order; the top,
    bottom, left, right or center and a step "up/down/left/right by one" read the rows and
    columns the items are laid out in (``_cells``: one column without a layout)."""
    found = _POSITION.search(task)
    area = _AREA.search(task)
    if found or (area and area.group(1).lower() in ("first", "last")):
        number = int(found.group(1) or found.group(2)) - 1 if found else (
            0 if area.group(1).lower() == "first" else len(items) - 1)
        slot = items[number] if 0 <= number < len(items) else None
        return slot if slot is not dragged else None
    cells = _cells(index, items)
    row, column = cells[id(dragged)]
    last_row = max(r for r, _ in cells.values())
    last_column = max(c for _, c in cells.values())
    step = _STEP.search(task)
    if step:
        down, right = _STEPS[step.group(1).lower()]
        row, column = row + down, column + right
    elif area:
        first, second = area.group(1).lower(), (area.group(2) or "").lower()
        vertical, horizontal = ("", first) if first in ("left", "right") else (first, second)
        if vertical in ("center", "middle") and not horizontal:
            horizontal = "center"  # "to the center" of a grid: its middle cell
        row = _along(vertical, row, last_row, "top", "bottom")
        column = _along(horizontal, column, last_column, "left", "right")
    else:
        return None
    slot = next((item for item in items if cells[id(item)] == (row, column)), None)
    return slot if slot is not dragged else None


def _along(word: str, now: int, last: int, start: str, end: str) -> int:
    """The row (or column) a word names: ``start`` the first, ``end`` the last, center the
    middle; any other word keeps ``now``."""
    return {start: 0, end: last, "center": last // 2, "middle": last // 2}.get(word, now)


def _cells(index: PageIndex, items: list[DNode]) -> dict[int, tuple[int, int]]:
    """``{id(item): (row, column)}`` from where the items are laid out: a new row where an item
    starts below the middle of the row before, a new column at each distinct left edge in a
    row; without a layout, one item a row (a list)."""
    boxes = [index.state.nodes[item.node_id].bounds for item in items]
    if any(box is None for box in boxes):
        return {id(item): (row, 0) for row, item in enumerate(items)}
    rows: list[list[int]] = []
    for position in sorted(range(len(items)), key=lambda i: (boxes[i][1], boxes[i][0])):
        top = boxes[rows[-1][0]] if rows else None
        if top is not None and boxes[position][1] < top[1] + top[3] / 2:
            rows[-1].append(position)
        else:
            rows.append([position])
    return {id(items[position]): (row, column) for row, members in enumerate(rows)
            for column, position in enumerate(sorted(members, key=lambda i: boxes[i][0]))}


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


def _named_box_first(index: PageIndex, task: str, ref: int, boxes: list[int]) -> list[int]:
    """``boxes`` with the one the task sends shape ``ref`` to first: "Drag all triangles
    (all red shapes) into the left box, and everything else into the right box" -- the box of
    the description whose every word the shape's kind and colour say, else the one of
    "everything else"; page order when the task names no box by its name."""
    node = index.state.nodes[index.entries[ref].dnode.node_id]
    said = {stem(word) for word in words(f"{shape_name(node)} {painted_colour(node, index.state)}")}
    named = None
    for description, box in _INTO_BOX.findall(task):
        wanted = {stem(word) for word in words(description)} - _ANY_SHAPE
        if description.lower() in _THE_REST:
            named = named or box.lower()
        elif wanted and wanted <= said:
            named = box.lower()
            break
    first = [other for other in boxes if index.entries[other].dnode.attrs.get("box") == named]
    return first + [other for other in boxes if other not in first]
