"""What the markup of an ``<svg>`` says one clicks, for sources without runtime evidence.

A live capture knows which shapes listen for clicks; a DOM dump or saved HTML shows only how
the drawing is marked:

- a shape, text or group (``<g>``) with an id, a class, a mouse-handler attribute (``onclick``)
  or its own ``cursor: pointer`` is a part one clicks (the parts of a chart, the slices of a pie
  menu, shapes one drags) -- but where some parts of an ``<svg>`` carry a handler or their own
  pointer cursor, the author marked what one clicks that way, and the other parts are drawing
  (an axis, a frame, named by an id); in cleaned_html, which drops what has no text unless it
  is a control or a candidate, a shape kept is one;
- an ``<svg>`` the size of a drawing (``SURFACE_MIN`` a side or more, by its box or its width
  and height) none of whose parts is marked is a surface clicked at a point (a point to find
  between two dots, an angle to bisect): the drawing itself is the one thing to click, where an
  icon-sized ``<svg>`` is part of the control around it.

Either way, an ``<svg>`` whose kept parts include shapes also keeps its outline boxes
(``outline_box``: a ``rect`` drawn with no fill, "the black box" shapes are dragged into): no
listener marks a place one drops on, yet a drag names it by its ref (``drop_boxes``).

The noise pass keeps the parts ``svg_part_reading`` names (and a drawing surface itself); the
interactivity pass gives them tiers (``svg_clickable``). ``shape_name`` says what a shape is
drawn as ("circle", "square rectangle", "triangle", "box"), the word a task uses for an element
with no text; ``placed_shapes`` which shapes lie inside an outline box (dragged there), and
``place_hints`` shows in which one ("left", "right": ``box_names``).
"""

from __future__ import annotations

from collections.abc import Callable

from pipeline.distill.facts import has_handler, pixels, style_of, unfilled
from pipeline.page_state import Node, PageState

SVG_SHAPES = frozenset({"circle", "rect", "ellipse", "polygon", "polyline", "path", "line",
                        "text", "tspan", "use", "image", "g"})  # a marked <g>: a clickable group
EMPTY_SHAPES = SVG_SHAPES - {"g", "text", "tspan"}  # drawn, saying nothing
SURFACE_MIN = 40  # px: an <svg> this size a side or more is a drawing, not an icon
_POLYGONS = {3: "triangle", 4: "quadrilateral", 5: "pentagon", 6: "hexagon"}


def marked_svg_part(node: Node) -> bool:
    """An SVG shape, text or group with an id, a class, a mouse handler or its own pointer cursor
    in its style."""
    attrs = node.attributes
    return node.tag in SVG_SHAPES and ("id" in attrs or "class" in attrs or _clicked_mark(node))


def outline_box(node: Node) -> bool:
    """An SVG ``rect`` drawn as an outline only (no fill): a box drawn around a place. (Asked
    of every kept element: the tag is read before any style.)"""
    return node.tag == "rect" and unfilled(node)


def drop_boxes(parts: list[Node], kept: set[int]) -> list[Node]:
    """The outline boxes among the ``parts`` of one ``<svg>`` (its descendants) when the parts
    ``kept`` (node ids) include a shape: the places those shapes are dragged to."""
    if not any(part.id in kept and part.tag in EMPTY_SHAPES and not outline_box(part)
               for part in parts):
        return []
    return [part for part in parts if outline_box(part)]


def shape_name(node: Node) -> str:
    """What an SVG shape is drawn as, from its markup alone: a ``circle``; a ``rect`` a "box"
    when drawn as an outline, a "square rectangle" when its width and height are equal (a task
    says either: "Drag all rectangles" means MiniWoB++'s squares), else a "rectangle"; an
    ``ellipse`` an "ellipse" (a "circle" with equal radii); a ``polygon`` named by its corners
    ("triangle" for three points); "" for anything else or a shape whose markup does not say."""
    attrs = node.attributes
    if node.tag == "circle":
        return "circle"
    if outline_box(node):
        return "box"
    if node.tag == "rect":
        sides = {pixels(attrs.get(key, ""), unitless=True) for key in ("width", "height")}
        return "" if None in sides else "square rectangle" if len(sides) == 1 else "rectangle"
    if node.tag == "ellipse":
        return "circle" if attrs.get("rx") and attrs.get("rx") == attrs.get("ry") else "ellipse"
    if node.tag == "polygon":
        numbers = attrs.get("points", "").replace(",", " ").split()
        corners = list(zip(numbers[::2], numbers[1::2]))
        if len(corners) > 1 and corners[0] == corners[-1]:  # closed by repeating the first
            corners.pop()
        return _POLYGONS.get(len(corners), "") if len(numbers) % 2 == 0 else ""
    return ""


def placed_shapes(state: PageState) -> frozenset[int]:
    """The ids of the shapes drawn inside an outline box -- a ``rect`` with no fill, larger
    than they -- where a drag puts them ("all circles into the left box"): done, for a task."""
    boxes = [node.bounds for node in state.nodes if node.bounds and outline_box(node)]
    if not boxes:
        return frozenset()
    return frozenset(node.id for node in state.nodes if node.tag in EMPTY_SHAPES and node.bounds
                     and any(_inside(node.bounds, box) for box in boxes))


def place_hints(shapes: list[Node], boxes: list[Node]) -> dict[int, dict[str, str]]:
    """What shows where a drag put a drawing's ``shapes``: each of several ``boxes`` its name
    (``box=left``, ``box_names``), and a shape inside one that box's (``in_box=left``;
    ``in_box=true`` inside a lone box) -- {node id: hints}."""
    boxes = [box for box in boxes if box.bounds]
    names = box_names(boxes)
    hints = {box.id: {"box": name} for box, name in zip(boxes, names, strict=True)
             if len(boxes) > 1}
    for shape in shapes:
        if shape.tag in EMPTY_SHAPES and shape.bounds and not outline_box(shape):
            inside = [name for box, name in zip(boxes, names, strict=True)
                      if _inside(shape.bounds, box.bounds)]
            if inside:
                hints[shape.id] = {"in_box": inside[0]}
    return hints


def box_names(boxes: list[Node]) -> list[str]:
    """What a task calls each of the outline ``boxes`` (with bounds), in their order: of two,
    "left" and "right" (or "top" and "bottom", stacked); of more, their place in page order
    ("1", "2", ...); a lone box is just the box ("true")."""
    if len(boxes) == 2:
        (x1, y1, _, _), (x2, y2, _, _) = boxes[0].bounds, boxes[1].bounds
        sides = ("left", "right") if abs(x1 - x2) >= abs(y1 - y2) else ("top", "bottom")
        first = x1 <= x2 if sides[0] == "left" else y1 <= y2
        return list(sides if first else sides[::-1])
    return ["true"] if len(boxes) == 1 else [str(place + 1) for place in range(len(boxes))]


def _inside(inner: tuple[float, float, float, float],
            outer: tuple[float, float, float, float]) -> bool:
    x, y, width, height = inner
    left, top, outer_width, outer_height = outer
    return (width * height < outer_width * outer_height and x >= left and y >= top
            and x + width <= left + outer_width and y + height <= top + outer_height)


def svg_part_reading(parts: list[Node], cleaned: bool) -> Callable[[Node], bool]:
    """Which parts of one ``<svg>`` (``parts``: its descendants) are kept: those with a mouse
    handler or their own pointer cursor when any part has one (the author's mark for what one
    clicks), else every ``marked_svg_part`` -- and in ``cleaned`` html, which keeps an element
    without text only as a control or a candidate, every shape as well."""
    if any(node.tag in SVG_SHAPES and _clicked_mark(node) for node in parts):
        return lambda node: node.tag in SVG_SHAPES and _clicked_mark(node)
    if cleaned:
        return lambda node: marked_svg_part(node) or (node.tag in EMPTY_SHAPES
                                                      and not node.children)
    return marked_svg_part


def drawing_surface(svg: Node, parts: list[Node]) -> bool:
    """An ``<svg>`` of at least ``SURFACE_MIN`` a side (a side not known fails) whose parts
    carry no mark."""
    return (svg.tag == "svg" and drawing_sized(svg)
            and not any(marked_svg_part(part) for part in parts))


def drawing_sized(svg: Node) -> bool:
    """An ``<svg>`` ``SURFACE_MIN`` or more a side, by its box, else its width and height
    attributes (a side not known fails): a drawing, not an icon."""
    sides = svg.bounds[2:] if svg.bounds is not None else attribute_sides(svg.attributes)
    return all(side is not None and side >= SURFACE_MIN for side in sides)


def attribute_sides(attrs: dict[str, str],
                    around: dict[str, str] | None = None) -> tuple[float | None, float | None]:
    """Width and height in px from the attributes (a percentage: of ``around``'s), None where
    not known."""
    sides = []
    for key in ("width", "height"):
        value = attrs.get(key, "").strip()
        if around is not None and value.endswith("%"):
            whole = pixels(around.get(key, ""), unitless=True)
            share = value[:-1]
            sides.append(whole * float(share) / 100 if whole is not None
                         and share.replace(".", "", 1).isdigit() else None)
        else:
            sides.append(pixels(value, unitless=True))
    return sides[0], sides[1]


def drawing_surfaces(state: PageState) -> frozenset[int]:
    """The ids of the page's ``<svg>`` drawing surfaces."""
    nodes = state.nodes
    return frozenset(node.id for node in nodes if node.tag == "svg"
                     and drawing_surface(node, [nodes[d] for d in state.descendants(node.id)]))


def svg_clickable(node: Node, state: PageState, surfaces: frozenset[int]) -> bool:
    """A marked part inside an ``<svg>``, or one of the page's drawing ``surfaces``."""
    if node.id in surfaces:
        return True
    return marked_svg_part(node) and any(state.nodes[a].tag == "svg"
                                         for a in state.ancestors(node.id))


def _clicked_mark(node: Node) -> bool:
    """A mouse-handler attribute or the element's own pointer cursor."""
    return has_handler(node) or style_of(node).get("cursor") == "pointer"
