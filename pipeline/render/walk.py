"""Walks a distilled tree into the items both renderers print, and formats one item.

An item is an element with a ref (its text absorbed up to the next own-line descendant), a text
line (a text node, or a block whose content is all inline, merged into one line), a scroll
container, a fragment boundary (shadow root, iframe document) or, for the outline, a heading.
``depth`` counts the printing ancestors (refs, scroll containers, fragments): pure wrappers do not
indent. The walk is iterative, so deep pages do not hit Python's recursion limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.distill.model import DNode
from pipeline.page_state import PageState
from pipeline.render.elements import (
    INLINE_TAGS,
    collapse,
    element_text,
    format_element,
    fragment_marker,
    is_own_line,
    join_texts,
    scroll_label,
    scroll_note,
    shown_text,
    trim_text,
)

ItemKind = Literal["element", "text", "scroll", "fragment", "heading"]


@dataclass(slots=True)
class Item:
    kind: ItemKind
    depth: int
    node: DNode
    text: str = ""
    level: int = 0  # heading level
    parts: list[Item] = field(default_factory=list)  # a heading's inline elements and texts


def walk(root: DNode, headings: dict[int, int] | None = None, rows: bool = False) -> list[Item]:
    """Items in document order. ``headings`` maps node id -> level: such nodes become one
    heading item holding their elements inline (the outline); without it they print as text.
    With ``rows`` a table row without refs is one text line, its cells joined by `` | ``
    (``Religion | Sikhism``: a label beside its value, as the page shows them, for reading)."""
    items: list[Item] = []
    inline: dict[int, bool] = {}
    stack: list[tuple[DNode, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if node.is_text:
            text = collapse(node.text)
            if text:
                items.append(Item("text", depth, node, text))
            continue
        if node is root and node.tag == "#document":
            stack.extend((child, depth) for child in reversed(node.children))
            continue
        if headings and node.node_id in headings:
            items.append(_heading(node, depth, headings[node.node_id]))
            continue
        row = _row_text(node) if rows else None
        if row is not None:
            if row:
                items.append(Item("text", depth, node, row))
            continue
        if is_own_line(node):
            items.append(_own_line(node, depth))
            below = element_text(node)[1] if node.ref is not None else node.children
            stack.extend((child, depth + 1) for child in reversed(below))
        elif _flows_inline(node, inline):
            text = element_text(node)[0]
            if text:
                items.append(Item("text", depth, node, text))
        else:
            stack.extend((child, depth) for child in reversed(node.children))
    return items


def format_item(
    item: Item, state: PageState, new: set[int], element_limit: int, text_limit: int | None
) -> str:
    """One item as text, without indentation. ``new`` holds the refs to mark ``*[N]``."""
    node = item.node
    if item.kind == "text":
        return trim_text(item.text, text_limit) if text_limit else item.text
    if item.kind == "element":
        return format_element(node, shown_text(node, item.text, element_limit), new=node.ref in new)
    if item.kind == "scroll":
        text = trim_text(item.text, element_limit)
        line = format_element(node, text, new=node.ref in new, label=scroll_label(node))
        return line + scroll_note(state, node)
    if item.kind == "fragment":
        return fragment_marker(state, node)
    parts = [format_item(p, state, new, element_limit, text_limit) for p in item.parts]
    return "#" * item.level + " " + " ".join(parts)


def _own_line(node: DNode, depth: int) -> Item:
    if node.tag.startswith("#"):
        return Item("fragment", depth, node)
    text = element_text(node)[0] if node.ref is not None else ""
    return Item("scroll" if node.scrollable else "element", depth, node, text)


def _heading(node: DNode, depth: int, level: int) -> Item:
    """A heading with its text and refs inline: ``## [5]<a href=/p>Title</a>``."""
    parts: list[Item] = []
    texts: list[str] = []

    def flush() -> None:
        text = join_texts(texts) if texts else ""
        if text:
            parts.append(Item("text", depth, node, text))
        texts.clear()

    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_text:
            texts.append(current.text)
        elif current.ref is not None:
            flush()
            text, frontier = element_text(current)
            parts.append(Item("element", depth, current, text))
            stack.extend(reversed(frontier))
        else:
            stack.extend(reversed(current.children))
    flush()
    return Item("heading", depth, node, level=level, parts=parts)


def _row_text(node: DNode) -> str | None:
    """A table row's cells as one line (`` | `` between cells), or None for anything else and
    for a row holding an element with a ref (its cells print as usual, refs on their lines)."""
    if node.tag != "tr" or is_own_line(node):
        return None
    cells = [element_text(child) for child in node.children if not child.is_text]
    if any(frontier for _, frontier in cells):
        return None
    return " | ".join(text for text, _ in cells if text)


def _flows_inline(node: DNode, memo: dict[int, bool]) -> bool:
    """True when every descendant is text or an inline element without a line of its own."""
    key = id(node)
    if key not in memo:
        memo[key] = all(
            child.is_text
            or (child.tag in INLINE_TAGS and not is_own_line(child) and _flows_inline(child, memo))
            for child in node.children
        )
    return memo[key]
