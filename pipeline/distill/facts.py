"""Per-node facts the passes share, computed once in a single top-down sweep over the node table.

Inherited facts (display:none anywhere above, effective visibility, the product of opacities,
aria-hidden, the parent's cursor) are filled parent-first, which the table's pre-order guarantees,
so no pass walks ancestors. Where the source has no computed styles (Mind2Web, HTML files) the
inline ``style`` attribute and the ``hidden`` attribute stand in for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.page_state import Node, PageState

HANDLERS = ("onclick", "onmousedown", "onmouseup", "onpointerdown", "ontouchstart")


def has_handler(node: Node) -> bool:
    """The element carries a mouse-handler attribute (``onclick``, ``onmousedown``, ...)."""
    return any(h in node.attributes for h in HANDLERS)

_DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(slots=True)
class Facts:
    display_none: list[bool]  # the node or an ancestor is display:none (or `hidden`)
    invisible: list[bool]  # effective visibility is hidden/collapse
    opacity: list[float]  # product of the opacities from the root down
    aria_hidden: list[bool]  # inside aria-hidden="true" and not inside a dialog below it
    parent_pointer: list[bool]  # the parent element's cursor is pointer
    pointer: list[bool]  # the node's own (inherited) cursor is pointer
    last_desc: list[int]  # id of the last node of the subtree (pre-order interval end)
    paint_key: list[tuple[int, ...] | None]  # paint order from the outermost iframe down
    clipped: list[bool]  # the box lies wholly outside what overflow-clipping ancestors show
    in_scroller: list[bool]  # inside an overflow:auto/scroll container (may lie past the page)
    scroll_view: list[Rect | None]  # the visible box of the scroll containers around the node


def inline_style(node: Node) -> dict[str, str]:
    """The node's inline ``style`` attribute as a dict (lower-case property names)."""
    raw = node.attributes.get("style")
    if not raw:
        return {}
    out: dict[str, str] = {}
    for decl in raw.split(";"):
        name, sep, value = decl.partition(":")
        if sep:
            out[name.strip().lower()] = value.replace("!important", "").strip().lower()
    return out


def style_of(node: Node) -> dict[str, str]:
    """Computed styles when captured, else the inline style (plus `hidden` as display:none)."""
    if node.styles:
        return node.styles
    styles = inline_style(node)
    if "hidden" in node.attributes and "display" not in styles:
        styles["display"] = "none"
    if node.tag == "input" and node.attributes.get("type", "").lower() == "hidden":
        styles["display"] = "none"
    return styles


def svg_paint(node: Node, prop: str) -> str:
    """An SVG presentation property (``fill``, ``stroke``): its style's, else its attribute's."""
    return style_of(node).get(prop) or node.attributes.get(prop, "")


def unfilled(node: Node) -> bool:
    """An SVG shape drawn with ``fill: none`` (an outline: only its stroke is painted)."""
    return svg_paint(node, "fill").strip().lower() == "none"


def pixels(value: str, unitless: bool = False) -> float | None:
    """A CSS length in px (or a bare 0) as a number; None for any other (auto, %, em, "").
    ``unitless``: a bare number counts as pixels too (SVG's width and height attributes)."""
    value = value.strip()
    if value == "0":
        return 0.0
    if not (unitless or value.endswith("px")):
        return None
    try:
        return float(value.removesuffix("px"))
    except ValueError:
        return None


def _opacity(value: str | None) -> float:
    if not value:
        return 1.0
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 1.0


def compute_facts(state: PageState) -> Facts:
    nodes = state.nodes
    n = len(nodes)
    display_none = [False] * n
    invisible = [False] * n
    opacity = [1.0] * n
    aria_hidden = [False] * n
    parent_pointer = [False] * n
    pointer = [False] * n
    scrolls = [False] * n  # the node itself is a scroll container
    in_scroller = [False] * n
    for node in nodes:
        i, p = node.id, node.parent
        if p is not None:
            display_none[i] = display_none[p]
            invisible[i] = invisible[p]
            opacity[i] = opacity[p]
            aria_hidden[i] = aria_hidden[p]
            parent_pointer[i] = pointer[p]
            pointer[i] = pointer[p]
            in_scroller[i] = in_scroller[p] or scrolls[p]
        if node.kind != "element":
            continue
        styles = style_of(node) if (node.styles or node.attributes) else {}
        if styles:
            if styles.get("display") == "none":
                display_none[i] = True
            vis = styles.get("visibility")
            if vis:
                invisible[i] = vis in ("hidden", "collapse")
            if "opacity" in styles:
                opacity[i] *= _opacity(styles["opacity"])
            cursor = styles.get("cursor")
            if cursor:
                pointer[i] = cursor == "pointer"
            overflow = styles.get("overflow")
            if overflow and node.tag not in ("html", "body"):
                scrolls[i] = "auto" in overflow or "scroll" in overflow
        attrs = node.attributes
        if node.role in _DIALOG_ROLES or attrs.get("aria-modal") == "true":
            aria_hidden[i] = False
        elif attrs.get("aria-hidden") == "true":
            aria_hidden[i] = True
    return Facts(
        display_none,
        invisible,
        opacity,
        aria_hidden,
        parent_pointer,
        pointer,
        _last_descendants(nodes),
        _paint_keys(state),
        _clipped(nodes) if state.has_layout else [False] * n,
        in_scroller,
        _scroll_views(nodes, scrolls) if state.has_layout else [None] * n,
    )


_CLIPPING = frozenset({"hidden", "clip"})
_POSITIONED = frozenset({"relative", "absolute", "fixed", "sticky"})


def _clipped(nodes: list[Node]) -> list[bool]:
    """Per node: its box has no area inside the clip of its ancestors.

    With computed styles captured, an element with ``overflow: hidden|clip`` (per axis) or an
    ``<iframe>`` clips its subtree to its box. Absolutely positioned boxes take the clip of their containing block (the nearest
    positioned ancestor), fixed boxes escape every clip. Scroll containers (auto/scroll) do not
    clip here: what they hide is reachable by scrolling; neither do ``<html>``/``<body>``, whose
    overflow applies to the viewport.
    """
    n = len(nodes)
    inner: list[Rect | None] = [None] * n  # clip that applies to the node's children
    for_abs: list[Rect | None] = [None] * n  # clip that applies to absolute descendants
    out = [False] * n
    for node in nodes:
        i, p = node.id, node.parent
        position = node.styles.get("position", "static")
        if p is None or position == "fixed":
            clip = None
        else:
            clip = for_abs[p] if position == "absolute" else inner[p]
        box = _rect(node.bounds)
        if clip is not None and box is not None and node.kind == "element":
            out[i] = not _overlaps(box, clip)
        elif node.kind == "text" and p is not None:
            out[i] = out[p]
        inner[i] = _clip_of(node, box, clip)
        for_abs[i] = inner[i] if position in _POSITIONED or p is None else for_abs[p]
    return out


def _scroll_views(nodes: list[Node], scrolls: list[bool]) -> list[Rect | None]:
    """Per node: the part of the page its scroll container ancestors show (their boxes
    intersected), or None outside any. Content scrolled out of that view is not painted where
    its box says: occlusion must not judge it there."""
    views: list[Rect | None] = [None] * len(nodes)
    inner: list[Rect | None] = [None] * len(nodes)  # the view for the node's children
    for node in nodes:
        i, p = node.id, node.parent
        views[i] = inner[p] if p is not None else None
        box = _rect(node.bounds)
        if scrolls[i] and box is not None:
            view = views[i]
            inner[i] = box if view is None else (
                max(box[0], view[0]), max(box[1], view[1]),
                min(box[2], view[2]), min(box[3], view[3]))
        else:
            inner[i] = views[i]
    return views


def _rect(bounds) -> Rect | None:
    if bounds is None:
        return None
    x, y, w, h = bounds
    return (x, y, x + w, y + h)


def _clip_of(node: Node, box: Rect | None, clip: Rect | None) -> Rect | None:
    """The clip for the node's children: its own box on the clipping axes, within ``clip``."""
    if box is None or node.kind != "element" or node.tag in ("html", "body"):
        return clip
    if not node.styles:  # no computed styles (Mind2Web, HTML files): nothing is known to clip
        return clip
    frame = node.tag == "iframe"
    axes = node.styles.get("overflow", "visible").split()
    clip_x = frame or axes[0] in _CLIPPING
    clip_y = frame or axes[-1] in _CLIPPING
    if not (clip_x or clip_y):
        return clip
    inf = float("inf")
    own = (box[0] if clip_x else -inf, box[1] if clip_y else -inf,
           box[2] if clip_x else inf, box[3] if clip_y else inf)
    if clip is None:
        return own
    return (max(own[0], clip[0]), max(own[1], clip[1]), min(own[2], clip[2]), min(own[3], clip[3]))


def _overlaps(box: Rect, clip: Rect) -> bool:
    return min(box[2], clip[2]) > max(box[0], clip[0]) and min(box[3], clip[3]) > max(box[1], clip[1])


def _last_descendants(nodes: list[Node]) -> list[int]:
    last = list(range(len(nodes)))
    for node in reversed(nodes):
        if node.children:
            last[node.id] = last[node.children[-1]]
    return last


def _paint_keys(state: PageState) -> list[tuple[int, ...] | None]:
    """Paint order is per document; prefix it with the paint orders of the iframe elements that
    hold the document (outermost first) so one ordering compares nodes across frames."""
    nodes = state.nodes
    prefixes: dict[int, tuple[int, ...] | None] = {0: ()}

    def prefix(frame_id: int) -> tuple[int, ...] | None:
        if frame_id not in prefixes:
            owner = state.frames[frame_id].owner if frame_id < len(state.frames) else None
            if owner is None or nodes[owner].paint_order is None:
                prefixes[frame_id] = None
            else:
                outer = prefix(nodes[owner].frame)
                prefixes[frame_id] = None if outer is None else outer + (nodes[owner].paint_order,)
        return prefixes[frame_id]

    keys: list[tuple[int, ...] | None] = [None] * len(nodes)
    for node in nodes:
        if node.paint_order is not None:
            pre = prefix(node.frame)
            if pre is not None:
                keys[node.id] = pre + (node.paint_order,)
    return keys
