"""The noise and visibility passes: decisions over the flat node table, returning the ids to hide.

noise       script, style, noscript, meta, link, base, template, head, title, comments, the inside
            of every <svg> (the svg itself stays only if it is interactive or a drawing
            ``drawings`` describes in words -- the shapes it drops; the parts the capture
            saw listening for clicks stay with their subtrees -- ascending-numbers' <text>
            numbers --, and without runtime evidence the parts and drawings ``svg_markup``
            reads as clickable stay), whitespace-only text.
visibility  display:none (self or ancestor), visibility hidden/collapse (a visible child of a
            hidden parent stays: the parent is kept as a bare container), *inherited* opacity 0,
            aria-hidden="true" subtrees — it hides from screen readers, not from eyes, so a dialog
            inside one stays, and an interactive element stays when the source has paint order
            (occlusion decides then) or, without paint order, when it carries aria-hidden itself
            (the spinner arrows a sighted user clicks; an ancestor's aria-hidden, the pattern
            that hides a page behind a modal, hides its controls), and, when the source has
            layout, boxes of zero size or (with computed styles, which tell scroll containers
            apart) entirely outside the document, unless a descendant has a
            visible box (zero-size wrappers of overflowing children stay), and boxes wholly
            clipped away by an overflow:hidden ancestor. Options are exempt from layout checks:
            Chromium gives a closed <select>'s options no box.
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.distill.drawings import drawing_of
from pipeline.distill.facts import Facts, has_handler
from pipeline.distill.interactivity import tier_of
from pipeline.distill.markup import lacks_runtime_evidence
from pipeline.distill.svg_markup import (
    drawing_surface,
    drop_boxes,
    place_hints,
    svg_part_reading,
)
from pipeline.distill.work import Work
from pipeline.page_state import Node, PageState

NOISE_TAGS = frozenset(
    {"script", "style", "noscript", "meta", "link", "base", "template", "head", "title", "#comment"}
)
_NO_LAYOUT_TAGS = frozenset({"option", "optgroup", "area", "map"})


def noise(work: Work) -> list[int]:
    nodes = work.state.nodes
    last = work.facts.last_desc
    hidden: list[int] = []
    bare_markup: bool | None = None  # no runtime evidence: marked SVG shapes stay (markup.py)
    i, n = 0, len(nodes)
    while i < n:
        node = nodes[i]
        if node.kind == "text":
            if not node.text.strip():
                hidden.append(i)
        elif node.tag in NOISE_TAGS:
            hidden.extend(range(i, last[i] + 1))
            i = last[i] + 1
            continue
        elif node.tag == "svg":
            if bare_markup is None:
                bare_markup = lacks_runtime_evidence(work.state)
            parts = nodes[i + 1:last[i] + 1]
            cleaned = work.state.source == "mind2web_cleaned"
            keep = svg_parts(nodes, last, i,
                             svg_part_reading(parts, cleaned) if bare_markup else _listens)
            boxes = drop_boxes(parts, keep)
            keep.update(box.id for box in boxes)
            drawing, hints = drawing_of(node, parts, keep, work.state, work.facts)
            placed = place_hints([part for part in parts if part.id in keep], boxes)
            for part, hint in [*hints.items(), *placed.items()]:
                work.hints.setdefault(part, {}).update(hint)
            if drawing is not None:
                work.drawings[i] = drawing
            elif tier_of(node, work) is None and not (
                    bare_markup and drawing_surface(node, parts)):
                hidden.append(i)
            hidden.extend(j for j in range(i + 1, last[i] + 1) if j not in keep)
            i = last[i] + 1
            continue
        i += 1
    return hidden


def svg_parts(nodes: list[Node], last: list[int], svg: int,
              wanted: Callable[[Node], bool]) -> set[int]:
    """Inside the ``<svg>`` at ``svg``: the ``wanted`` elements with their subtrees (``last``:
    each node's last descendant)."""
    keep: set[int] = set()
    i = svg + 1
    while i <= last[svg]:
        if nodes[i].kind == "element" and wanted(nodes[i]):
            keep.update(range(i, last[i] + 1))
            i = last[i] + 1
        else:
            i += 1
    return keep


def _listens(node: Node) -> bool:
    """The capture saw a click listener on it, or it carries a click handler attribute."""
    return bool(node.states.get("clickable")) or has_handler(node)


def visibility(work: Work) -> list[int]:
    state, facts = work.state, work.facts
    display_none, invisible = facts.display_none, facts.invisible
    opacity, aria_hidden = facts.opacity, facts.aria_hidden
    no_box = _layout_hidden(state, facts) if state.has_layout else None
    hidden: list[int] = []
    for node in state.nodes:
        if node.kind != "element" or node.is_fragment:
            continue
        i = node.id
        if (
            display_none[i]
            or invisible[i]
            or opacity[i] <= 0.0
            or (aria_hidden[i] and not _seen_despite_aria_hidden(node, work))
            or (no_box is not None and no_box[i])
            or facts.clipped[i]
        ):
            hidden.append(i)
    return hidden


def _seen_despite_aria_hidden(node: Node, work: Work) -> bool:
    """aria-hidden hides from screen readers, not from eyes. An interactive element under it
    stays when the capture knows what is painted (occlusion then decides what a page behind a
    modal hides), or, without paint order, when it carries aria-hidden itself (an ancestor's
    aria-hidden is then the only sign of a page hidden behind a modal)."""
    if tier_of(node, work) is None:
        return False
    if work.state.has_paint_order:
        return True
    parent = node.parent
    return node.attributes.get("aria-hidden") == "true" and (
        parent is None or not work.facts.aria_hidden[parent]
    )


def _box_visible(node: Node, doc_w: float | None, doc_h: float | None, scrolled: bool) -> bool:
    """A box with area inside the document; in a scroll container (``scrolled``) only its size
    counts, since scrolled content may lie past the document's edges."""
    if node.bounds is None:
        return False
    x, y, w, h = node.bounds
    if w <= 0 or h <= 0:
        return False
    if scrolled:
        return True
    if x + w <= 0 or y + h <= 0:
        return False
    return not ((doc_w is not None and x >= doc_w) or (doc_h is not None and y >= doc_h))


def _layout_hidden(state: PageState, facts: Facts) -> list[bool]:
    """Per node: no box of its own and none in its subtree (options and fragments excepted)."""
    nodes = state.nodes
    # Only with computed styles is it known which content sits in scroll containers (and may lie
    # past the document's end); without them (Mind2Web, HTML files) only the size counts.
    styled = state.source == "live"
    doc_w, doc_h = (state.document_size or (None, None)) if styled else (None, None)
    subtree_box = [False] * len(nodes)
    for node in reversed(nodes):
        if subtree_box[node.id] or _box_visible(node, doc_w, doc_h, facts.in_scroller[node.id]):
            subtree_box[node.id] = True
            if node.parent is not None:
                subtree_box[node.parent] = True
    out = [not has for has in subtree_box]
    for node in nodes:
        if node.tag in _NO_LAYOUT_TAGS or node.is_fragment:
            out[node.id] = False
    return out
