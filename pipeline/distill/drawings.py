"""What an SVG drawing shows, in words: the shapes, glyphs and labels a figure is drawn with.

A figure drawn in SVG -- the shape a task asks to name, the shapes it asks to count, a chart's
marks and labels -- has no text of its own, and its parts are no controls, so the noise pass
drops them: without this, no mode would let the model see what the page shows. An ``<svg>`` the
size of a drawing (``svg_markup.drawing_sized``: 40 px a side or more, by its box or its width
and height; an icon is smaller) is described by its visible parts that the page state does not
keep as elements (a part that listens for clicks keeps its own ref):

- a shape ``shape_name`` names (circle, rectangle, square rectangle, triangle, ellipse ...; an
  outline box is a place, not a mark, and an unnamed path says nothing),
- a one-character ``<text>`` as a glyph (a letter, a number or a symbol) and a longer one as the
  label it is, quoted,

each shape and glyph with its colour (the name the page paints it with, else its colour family:
``colours``) and, where the drawing has parts of two sizes, "large" or "small" (the sizes split
at the widest ratio between neighbours, 1.5 or more). Equal descriptions are counted:

    Drawing: 2 large red triangles, 1 small blue circle, 1 small green letter "U".

``drawing_of`` reads one ``<svg>`` (the noise pass asks, keeps a described one and gives the
parts it keeps their size, and a glyph its colour, as hints: ``<circle size=small color=aqua
/>``); the tree puts ``Drawing.text`` on a line of its own just before the ``<svg>`` (as a
ref's text it would be cut short), and the query tools read ``Drawing.items`` (how many of a
kind, which kind a single figure is: ``pipeline.query.figures``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.distill.colours import svg_colour
from pipeline.distill.facts import Facts, pixels
from pipeline.distill.svg_markup import attribute_sides, drawing_sized, shape_name
from pipeline.page_state import Node, PageState

SIZE_RATIO = 1.5  # least ratio of the smallest "large" part to the largest "small" one
MAX_GROUPS = 24  # descriptions listed; the rest are counted as "N more parts"
MAX_LABEL = 40  # characters of a label quoted
BACKDROP = 0.9  # share of the drawing's area a part's box covers to be its background
_GLYPH_KINDS = (("letter", str.isalpha), ("number", str.isdigit))


@dataclass(frozen=True, slots=True)
class DrawnItem:
    """One part of a drawing: its ``kind`` ("circle", "triangle", "letter", "number", "symbol",
    "label" ...), the ``glyph`` or label it shows ("" for a shape), its ``colour`` ("" when not
    painted or not understood) and its ``size`` class ("large", "small" or "")."""

    kind: str
    glyph: str = ""
    colour: str = ""
    size: str = ""

    def phrase(self, count: int = 1) -> str:
        """"large red triangle", "small green letter "U"", "label "Sales"" (plural for
        ``count`` above one)."""
        noun = self.kind + ("s" if count > 1 else "")
        words = [self.size, self.colour, noun, f'"{self.glyph}"' if self.glyph else ""]
        return " ".join(word for word in words if word)


@dataclass(frozen=True, slots=True)
class Drawing:
    """The described parts of the ``<svg>`` at ``node_id``, in document order."""

    node_id: int
    items: tuple[DrawnItem, ...]

    @property
    def text(self) -> str:
        groups = Counter(self.items)  # insertion order: the first of each in document order
        shown = [f"{count} {item.phrase(count)}" for item, count in groups.items()]
        rest = sum(list(groups.values())[MAX_GROUPS:])
        listed = ", ".join(shown[:MAX_GROUPS]) + (f", {rest} more parts" if rest else "")
        return f"Drawing: {listed}."


def drawing_of(svg: Node, parts: list[Node], kept: set[int], state: PageState,
               facts: Facts) -> tuple[Drawing | None, dict[int, dict[str, str]]]:
    """The drawing an ``<svg>`` of a drawing's size shows (``parts``: its descendants), without
    the parts ``kept`` as elements (node ids) and the ones its facts hide -- None for an icon,
    an ``<svg>`` whose size is unknown, or one with nothing else to describe -- and the hints of
    each kept part: its size class ("Click on a small aqua circle") and a glyph's colour."""
    if svg.tag != "svg" or not drawing_sized(svg):
        return None, {}
    found: list[tuple[Node, str, str]] = []  # (part, kind, glyph)
    for part in parts:
        if part.kind != "element" or not _shown(part, state, facts) or _backdrop(part, svg):
            continue
        if part.tag == "text":
            text = " ".join(state.text_content(part.id).split())
            if text:
                found.append((part, *_text_kind(text)))
        elif (name := shape_name(part)) and name != "box":
            found.append((part, name, ""))
    sizes = _size_classes([part for part, kind, _ in found if kind != "label"])
    items = tuple(
        DrawnItem(kind, glyph) if kind == "label" else
        DrawnItem(kind, glyph, _colour(part, state), sizes.get(part.id, ""))
        for part, kind, glyph in found if part.id not in kept)
    hints: dict[int, dict[str, str]] = {}
    for part, kind, _ in found:
        if part.id in kept and kind != "label":
            hint = {"size": sizes.get(part.id, ""),  # a glyph's paint (a shape's: attributes)
                    "color": _colour(part, state, "") if part.tag == "text" else ""}
            hints[part.id] = {key: value for key, value in hint.items() if value}
    return (Drawing(svg.id, items) if items else None), hints


def _backdrop(part: Node, svg: Node) -> bool:
    """A part that covers nearly all of the drawing (``BACKDROP`` of its area, by the boxes,
    else by a rect's and the svg's width and height): the background it is drawn on."""
    if part.bounds is not None and svg.bounds is not None:
        outer, inner = svg.bounds[2:], part.bounds[2:]
    elif part.tag == "rect":
        outer = attribute_sides(svg.attributes)
        inner = attribute_sides(part.attributes, svg.attributes)
    else:
        return False
    if None in outer or None in inner:
        return False
    area = outer[0] * outer[1]
    return area > 0 and inner[0] * inner[1] >= BACKDROP * area


def _shown(part: Node, state: PageState, facts: Facts) -> bool:
    """Not hidden by its style (display, visibility, opacity) nor, where the source has layout,
    drawn at zero size."""
    i = part.id
    if facts.display_none[i] or facts.invisible[i] or facts.opacity[i] <= 0.0:
        return False
    if state.has_layout and part.bounds is not None:
        return part.bounds[2] > 0 and part.bounds[3] > 0
    return True


def _text_kind(text: str) -> tuple[str, str]:
    """(kind, glyph) of a ``<text>``: one character is a glyph, more a label."""
    if len(text) == 1:
        kind = next((name for name, test in _GLYPH_KINDS if test(text)), "symbol")
        return kind, text
    return "label", text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


def _colour(part: Node, state: PageState, default: str = "black") -> str:
    """The paint's name as the page writes it ("aqua"), else its colour family ("red"); SVG's
    black for a part painted nowhere (``default``)."""
    words = svg_colour(part, state, default)
    return words.split()[0] if words else ""


def _size_classes(parts: Iterable[Node]) -> dict[int, str]:
    """"large" or "small" for each part, where their sizes fall in two groups (the widest ratio
    between neighbours in size order is ``SIZE_RATIO`` or more); empty otherwise."""
    sized = sorted((size, part.id) for part in parts if (size := _size(part)))
    if len(sized) < 2:
        return {}
    ratio, cut = max((sized[k + 1][0] / sized[k][0], k + 1) for k in range(len(sized) - 1))
    if ratio < SIZE_RATIO:
        return {}
    return {part: "small" if k < cut else "large" for k, (_, part) in enumerate(sized)}


def _size(part: Node) -> float | None:
    """The larger side of the part's box, else of what its attributes draw (a circle's radius,
    a rect's sides, a polygon's points, a text's font size)."""
    if part.bounds is not None and (part.bounds[2] > 0 or part.bounds[3] > 0):
        return max(part.bounds[2], part.bounds[3])
    attrs = part.attributes

    def number(key: str) -> float | None:
        return pixels(attrs.get(key, ""), unitless=True)

    if part.tag == "circle" and (r := number("r")) is not None:
        return 2 * r
    if part.tag == "ellipse":
        radii = [r for r in (number("rx"), number("ry")) if r is not None]
        return 2 * max(radii) if radii else None
    if part.tag == "rect":
        sides = [s for s in (number("width"), number("height")) if s is not None]
        return max(sides) if sides else None
    if part.tag == "polygon":
        try:
            values = [float(v) for v in attrs.get("points", "").replace(",", " ").split()]
        except ValueError:
            return None
        xs, ys = values[::2], values[1::2]
        return max(max(xs) - min(xs), max(ys) - min(ys)) if xs and ys else None
    if part.tag == "text":
        return number("font-size")
    return None
