"""The colour an element is drawn in, named in words a task would use.

A colour swatch, a palette's cell or an SVG shape says nothing in text: "make the text purple"
or "drag all black shapes" can only find it by its paint. ``painted_colour`` reads the paint of
an element without text of its own -- an SVG shape's ``fill`` (attribute or style), an HTML
element's own background (computed where captured, else the inline style, only where it
differs from the one around it) -- and ``colour_words`` names it: the CSS name when the source
wrote one ("aqua cyan"), then the basic colour family from the hue, lightness and saturation,
whatever the shade ("#facccc" -> "pink", "rgb(181, 181, 227)" -> "blue", "rgb(153, 51, 255)"
-> "purple").

    colour_words("#9933ff")          # "purple"
    colour_words("aqua")             # "aqua cyan"
    painted_colour(node, state)      # fill="#00f" -> "blue", "" for an element with text
"""

from __future__ import annotations

import colorsys
import re

from pipeline.distill.facts import style_of, svg_paint, unfilled
from pipeline.page_state import Node, PageState

# CSS names a page writes most, as RGB; any other name is kept as written, without a family
NAMED = {
    "black": (0, 0, 0), "white": (255, 255, 255), "gray": (128, 128, 128),
    "grey": (128, 128, 128), "silver": (192, 192, 192), "red": (255, 0, 0),
    "maroon": (128, 0, 0), "orange": (255, 165, 0), "yellow": (255, 255, 0),
    "olive": (128, 128, 0), "lime": (0, 255, 0), "green": (0, 128, 0), "teal": (0, 128, 128),
    "aqua": (0, 255, 255), "cyan": (0, 255, 255), "blue": (0, 0, 255), "navy": (0, 0, 128),
    "purple": (128, 0, 128), "fuchsia": (255, 0, 255), "magenta": (255, 0, 255),
    "pink": (255, 192, 203), "brown": (165, 42, 42), "violet": (238, 130, 238),
    "indigo": (75, 0, 130), "gold": (255, 215, 0), "coral": (255, 127, 80),
    "salmon": (250, 128, 114), "turquoise": (64, 224, 208), "beige": (245, 245, 220),
    "tan": (210, 180, 140), "khaki": (240, 230, 140), "crimson": (220, 20, 60),
}  # fmt: skip
# hue bands (degrees, upper bound exclusive) and the family each names
_HUES = ((15, "red"), (45, "orange"), (70, "yellow"), (165, "green"), (195, "cyan"),
         (255, "blue"), (290, "purple"), (345, "magenta"), (361, "red"))
_SHAPES = frozenset({"circle", "rect", "ellipse", "polygon", "path", "polyline", "line", "text",
                     "tspan"})
# paint values that paint nothing of their own (compared without spaces, in lower case)
UNPAINTED = frozenset({"", "none", "transparent", "inherit", "initial", "unset", "currentcolor",
                       "rgba(0,0,0,0)"})
_HEX = re.compile(r"#([0-9a-f]{3}|[0-9a-f]{6})(?:[0-9a-f]{2})?")
_RGB = re.compile(r"rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)")


def colour_words(value: str) -> str:
    """Words naming a CSS colour ("" for none, a transparent one, or one not understood)."""
    value = value.strip().lower()
    if value.replace(" ", "") in UNPAINTED:
        return ""
    if value.isalpha():
        rgb = NAMED.get(value)
        family = _family(rgb) if rgb else ""
        return " ".join(dict.fromkeys(f"{value} {family}".split()))
    rgb = _parse(value)
    return _family(rgb) if rgb else ""


def painted_colour(node: Node, state: PageState) -> str:
    """The words of the paint of an element with no text of its own, or "": an SVG shape's
    (``svg_colour``: its fill or an outline's stroke, its own or its group's), else its own
    background."""
    if node.kind != "element" or state.text_content(node.id).strip():
        return ""
    if node.tag in _SHAPES:
        return svg_colour(node, state)
    own = _background(style_of(node))
    if not own:
        return ""
    for ancestor in state.ancestors(node.id):
        around = _background(style_of(state.nodes[ancestor]))
        if around:
            return colour_words(own) if around != own else ""
    return colour_words(own)


def svg_colour(node: Node, state: PageState, default: str = "") -> str:
    """The words of an SVG part's paint: its fill, or its stroke when drawn with no fill (an
    outline box); its own, else the nearest group's around it (SVG inherits paint), else
    ``default`` (SVG paints an unset fill black)."""
    prop = "stroke" if unfilled(node) else "fill"
    for node_id in (node.id, *state.ancestors(node.id)):
        around = state.nodes[node_id]
        paint = svg_paint(around, prop).strip().lower()
        if paint and paint not in ("inherit", "currentcolor"):
            return colour_words(paint)
        if around.tag == "svg":
            break
    return default


def _background(styles: dict[str, str]) -> str:
    value = styles.get("background-color") or styles.get("background", "")
    value = value.replace(" ", "").lower()
    if value in UNPAINTED or not colour_words(value):
        return ""
    return value


def _parse(value: str) -> tuple[int, int, int] | None:
    """RGB of ``#rgb``, ``#rrggbb(aa)``, ``rgb()`` / ``rgba()``; None for anything else or a
    fully transparent colour."""
    if match := _HEX.fullmatch(value):
        digits = match.group(1)
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    if match := _RGB.fullmatch(value):
        alpha = match.group(4)
        if alpha is not None and float(alpha.rstrip("%")) == 0:
            return None
        r, g, b = (min(255, round(float(x))) for x in match.group(1, 2, 3))
        return r, g, b
    return None


def _family(rgb: tuple[int, int, int]) -> str:
    """The basic colour of ``rgb``: black/white/gray by lightness where it has little colour,
    else its hue's family, whatever its shade (every shade of blue is "blue"), but a light red
    is pink and a dark orange brown."""
    hue, lightness, saturation = colorsys.rgb_to_hls(*(c / 255 for c in rgb))
    if lightness < 0.1:
        return "black"
    if lightness > 0.95:
        return "white"
    if saturation < 0.15:
        return "gray" if 0.2 < lightness < 0.85 else ("black" if lightness <= 0.2 else "white")
    degrees = hue * 360
    family = next(name for bound, name in _HUES if degrees < bound)
    if lightness > 0.75 and family in ("red", "magenta"):
        return "pink"
    if lightness < 0.2 and family == "orange":
        return "brown"
    return family
