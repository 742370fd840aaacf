"""The element a task names by an icon the page shows: "click on the item with the <icon> icon".

    icon_name({"class": "ui-icon ui-icon-disk"})   -> "disk"
    icon_target(index)                            -> the menu item with the same icon, or what
                                                     opens the hidden one that has it

A task may show an icon instead of naming it: MiniWoB++'s menu task prints "find and click on
the item with the [icon] icon", the icon an element of its own in the task's text, so the words
say nothing. The icon-font classes say what it is (jQuery UI's ``ui-icon-disk``, Font Awesome's
``fa-print``, Bootstrap's ``glyphicon-stop`` / ``bi-stop``). The instruction planner passes
``shown_icon`` when a clause names "the icon" and no word of it; the engine reads the icons the
page shows in a sentence rather than on an element (the task's own) and leads with the element
that holds the same icon -- or, when that element sits in a part of the page still hidden (a
submenu), with what opens it (``hidden.hidden_openers``, by the element's label).
"""

from __future__ import annotations

import re

from pipeline.query.filters import holding_ref
from pipeline.query.hidden import hidden_openers
from pipeline.query.index import PageIndex
from pipeline.query.scoring import make_query

_ICON_CLASS = re.compile(r"^(?:ui-icon|fa|glyphicon|bi)-([a-z0-9-]+)$")
# what an icon class may say that is no glyph of its own: a size, a style, a submenu's arrow
_NOT_GLYPHS = frozenset({"lg", "2x", "3x", "fw", "spin", "solid", "regular", "light", "brands"})
_SUBMENU_ARROW = re.compile(r"^(?:caret|triangle|carat)-")


def icon_name(attributes: dict[str, str]) -> str:
    """The glyph an icon-font element shows, from its class ("disk"); "" for none."""
    for token in attributes.get("class", "").split():
        found = _ICON_CLASS.match(token)
        if found and found.group(1) not in _NOT_GLYPHS and not _SUBMENU_ARROW.match(
                found.group(1)):
            return found.group(1)
    return ""


def icon_target(index: PageIndex) -> int | None:
    """The ref the icon the page shows in a sentence names, or None: the element that holds the
    same icon, else what opens the hidden element that does."""
    state, shown = index.state, index.page.shown
    if not shown:  # a page assembled without the distill passes: nothing to tell apart
        return None
    holders: dict[str, list[int]] = {}  # icon -> the nodes that show it
    for node in state.nodes:
        name = icon_name(node.attributes) if node.kind == "element" else ""
        if name:
            holders.setdefault(name, []).append(node.id)
    for nodes in holders.values():
        asked = [node for node in nodes if shown[node] and _in_prose(index, node)]
        if not asked:
            continue  # the page shows this icon on its elements only
        for node in nodes:
            ref = _holder(index, node)
            if ref is not None and shown[node] and node not in asked:
                return ref
        for node in nodes:
            label = state.text_content(state.nodes[node].parent or node)
            if not shown[node] and label:
                openers = hidden_openers(index, [make_query(label, index.vocab)])
                if openers:
                    return min(openers)
    return None


def _holder(index: PageIndex, node_id: int) -> int | None:
    """The ref of the node itself, else of the element that holds it; None for neither."""
    return index.ref_by_node.get(node_id) or holding_ref(index, node_id)


def _in_prose(index: PageIndex, node_id: int) -> bool:
    """Whether the icon stands in a sentence rather than on an element: no element holds it
    but itself (static HTML may give an icon a ref of its own), and its parent has text."""
    holder = _holder(index, node_id)
    if holder is not None and index.page.refs[holder].node_id != node_id:
        return False
    parent = index.state.nodes[node_id].parent
    return parent is not None and len(index.state.text_content(parent).split()) > 1

