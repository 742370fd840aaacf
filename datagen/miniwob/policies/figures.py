"""Oracle policies for the SVG shape tasks: click a described shape, count the shapes a
description fits, name the one shape shown, click numbers in order from memory. A description is ``[large|small] [colour] kind``
where kind is a shape (circle, rectangle, triangle), a type (shape, letter, digit), a letter or
digit itself, or "item" (anything); each part may be left out. What the page draws tells every
part: the element (``text``, ``rect``, ``circle``, ``polygon``), its fill and its size."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import PolicyError, after, click, css

COLORS = ("red", "green", "blue", "aqua", "black", "magenta", "yellow")
LARGE_PX = 15  # a small shape is drawn 10 px across, a large one 20
_SHAPES_JS = """() => Array.from(document.querySelectorAll('#area_svg > *'), (e, i) => {
  const tag = e.tagName.toLowerCase(), box = e.getBBox();
  const kind = {rect: 'rectangle', circle: 'circle', polygon: 'triangle'}[tag];
  const text = kind || e.textContent.trim();
  const type = kind ? 'shape' : (/^[0-9]$/.test(text) ? 'digit' : 'letter');
  const size = tag === 'text' ? parseFloat(e.getAttribute('font-size')) : box.width;
  return {index: i, text, type, color: e.getAttribute('fill'), size};
})"""


def parse_description(words: list[str]) -> tuple[str, str, str]:
    """(size, colour, kind) of a description's words; "" for a part left out."""
    size = words.pop(0) if words and words[0] in ("large", "small") else ""
    color = words.pop(0) if words and words[0] in COLORS else ""
    if len(words) != 1:
        raise PolicyError(f"cannot read the shape description {words!r}")
    return size, color, words[0]


def fits(shape: dict, size: str, color: str, kind: str) -> bool:
    """The page's own rule: each part given must match (kind: the text or the type)."""
    large = shape["size"] > LARGE_PX
    return ((not size or (size == "large") == large) and (not color or shape["color"] == color)
            and (kind == "item" or kind in (shape["text"], shape["type"])))


async def click_shape(page, episode):
    size, color, kind = parse_description(
        after(episode.utterance, r"^Click on an? (.+)$").group(1).split())
    found = [s for s in await page.evaluate(_SHAPES_JS) if fits(s, size, color, kind)]
    if not found:
        raise PolicyError(f"{episode.task}: no shape fits {episode.utterance!r}")
    yield click(css("#area_svg > *", nth=found[0]["index"]))


async def count_shape(page, episode):
    words = after(episode.utterance, r"^How many (.+) are there\?").group(1).split()
    words[-1] = words[-1].removesuffix("s")  # "circles", "9s"
    size, color, kind = parse_description(words)
    count = sum(fits(s, size, color, kind) for s in await page.evaluate(_SHAPES_JS))
    yield click(css("#count-buttons button", str(count)))


async def identify_shape(page, episode):
    shown = await page.evaluate(_SHAPES_JS)
    if len(shown) != 1:
        raise PolicyError(f"{episode.task}: expected one figure, found {len(shown)}")
    kind = shown[0]["type"] if shown[0]["type"] != "shape" else shown[0]["text"]
    yield click(css(f"#area-buttons button[data-type={json.dumps(kind)}]"))


async def ascending_numbers(page, episode):
    """Click 1; the numbers then turn into blank squares, in the page's order of the numbers
    (the page accepts only its first square left): click the first square until none is left.

    Restartable from any state (DAgger asks it after the student's clicks): 1 only while the
    numbers still show, then as many clicks on the first square as squares are left."""
    if await page.evaluate("() => !!document.querySelector('#area_svg text')"):
        yield click(css("#area_svg text", "1"))
    left = await page.evaluate("() => document.querySelectorAll('#area_svg rect').length")
    for _ in range(left):
        yield click(css("#area_svg rect"))


POLICIES = {
    "click-shape": click_shape,
    "count-shape": count_shape,
    "identify-shape": identify_shape,
    "ascending-numbers": ascending_numbers,
}
