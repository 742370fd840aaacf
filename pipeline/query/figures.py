"""Questions a task asks about a drawing, answered from what the page draws.

    figure_question("How many large red triangles are there?")   -> "count:large red triangles"
    figure_question("Click the button that best describes the figure below.")   -> "kind"
    figure_target(index, "count:large red triangles")   -> the ref of the button showing "2"

The instruction planner reads the question (``figure``, an argument only it gives
``query_elements``); the engine, which sees the page, answers it from the parts of the page's
SVG drawings (``distill.drawings``: kind, glyph, colour, size class) and puts the element that
shows the answer first, as ``extremes`` does for "the cheapest":

- a count ("How many small blue circles are there?", "How many 9s?", "How many items?"): the
  parts that fit every word the description gives -- a size ("large", "small"), a colour, and a
  kind: a shape ("circle", "rectangle", "square", "triangle" ...), a type ("shape", "letter",
  "number" or "digit", "symbol") or a glyph itself ("9", "A"), or "item"/"thing"/"object" for
  any -- counted; the element whose whole text is that number leads. A word the reading does
  not know leaves the step as the words rank it: a guess would hide the right button.
- what the figure is ("the button that describes the figure/shape/image"): where the drawings
  show one part, the element named by its kind ("Circle", "Letter", "Number") leads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.distill.colours import NAMED
from pipeline.distill.drawings import DrawnItem
from pipeline.query.index import PageIndex
from pipeline.query.text import words

_COUNT = re.compile(r"\bhow many\s+(.+?)\s*(?:(?:are|is)\b.*)?\??\s*$", re.IGNORECASE)
_DESCRIBE = re.compile(r"\b(?:describes?|names?|matches|identify|identifies)\b.*?"
                       r"\b(?:figure|shape|drawing|picture|image)\b", re.IGNORECASE)
_SIZES = {"large": "large", "big": "large", "small": "small", "little": "small", "tiny": "small"}
_ANY = frozenset({"item", "thing", "object", "figure", "element"})
_GLYPHS = frozenset({"letter", "number", "symbol"})
_TYPES = {"digit": "number", "numeral": "number", "character": "glyph", "shape": "shape",
          "letter": "letter", "number": "number", "symbol": "symbol"}
_SHAPES = frozenset({"circle", "rectangle", "square", "triangle", "ellipse", "pentagon",
                     "hexagon", "quadrilateral"})
# what a part's kind is called on a button that names it
_KIND_NAMES = {"square rectangle": ("rectangle", "square"), "number": ("number", "digit")}


def figure_question(instruction: str) -> str | None:
    """``count:<description>`` for a question of how many parts are drawn, ``kind`` for one of
    what the figure is, None for neither."""
    count = _COUNT.search(instruction)
    if count:
        return f"count:{count.group(1)}"
    return "kind" if _DESCRIBE.search(instruction) else None


def figure_target(index: PageIndex, question: str) -> int | None:
    """The ref of the element that shows the answer to ``question`` on this page, or None when
    the page draws nothing, the description is not understood, or no element shows it."""
    items = [item for drawing in index.page.drawings for item in drawing.items
             if item.kind != "label"]
    if not items:
        return None
    if question == "kind":
        if len(items) != 1:
            return None
        names = _KIND_NAMES.get(items[0].kind, (items[0].kind,))
        return _shown(index, lambda words: bool(set(words) & set(names)))
    fits = _reading(question.removeprefix("count:"))
    if fits is None:
        return None
    count = str(sum(map(fits, items)))
    return _shown(index, lambda words: words == [count])


def _reading(description: str) -> Callable[[DrawnItem], bool] | None:
    """A test of a part for a description's words ("large red triangles"), or None when a word
    is neither a size, a colour nor a kind."""
    size = colour = kind = glyph = ""
    for word in description.split():
        lower = word.lower()
        one = lower[:-1] if lower.endswith("s") and len(lower) > 1 else lower  # "circles", "9s"
        if lower in _SIZES:
            size = _SIZES[lower]
        elif lower in NAMED:
            colour = lower
        elif one in _ANY:
            kind = "any"
        elif one in _TYPES:
            kind = _TYPES[one]
        elif one in _SHAPES:
            kind = one
        elif len(one) == 1:
            glyph = word[0]
        else:
            return None

    def fits(item: DrawnItem) -> bool:
        return ((not size or item.size == size) and (not colour or item.colour == colour)
                and (not glyph or item.glyph == glyph) and _kind_fits(item, kind))
    return fits


def _kind_fits(item: DrawnItem, kind: str) -> bool:
    if kind in ("", "any"):
        return True
    if kind in ("shape", "glyph"):
        return (item.kind in _GLYPHS) == (kind == "glyph")
    if kind in _GLYPHS:
        return item.kind == kind
    return kind in item.kind.split()  # "square" and "rectangle" of a "square rectangle"


def _shown(index: PageIndex, names: Callable[[list[str]], bool]) -> int | None:
    """The first element, a drawing itself aside, whose label's words ``names`` accepts."""
    drawn = {drawing.node_id for drawing in index.page.drawings}
    for ref, entry in index.entries.items():
        if entry.node.id not in drawn and names(words(entry.label)):
            return ref
    return None
