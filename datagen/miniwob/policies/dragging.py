"""Oracle policies for the free-drag tasks: move a shape in a direction, put a small box inside a
large one, resize a text area by its handle (distances from the boxes the page lays out), and
drop shapes onto the outline boxes they go into. A restarted run (DAgger's label from a later
state) drags a shape or resizes the area only while the page does not show it done."""

from __future__ import annotations

from datagen.miniwob.policies.base import after, click, css, drag

STEP_PX = 30  # how far "drag it up" moves a shape
RESIZE_PX = 25
_DIRECTIONS = {"up": (0, -STEP_PX), "down": (0, STEP_PX), "left": (-STEP_PX, 0),
               "right": (STEP_PX, 0)}


# How far the shape was dragged: where the page draws it (its drag transform) against where it
# was drawn, the test the task itself runs when Submit is pressed.
_DRAGGED_JS = """(selector) => {
  const shape = document.querySelector(selector);
  const now = shapes.gridCoords(shape), drawn = shape.getBBox();
  return [now.x - drawn.x, now.y - drawn.y];
}"""
_SHAPE = "#area svg circle, #area svg rect, #area svg polygon"


async def drag_shape(page, episode):
    """drag-circle ("Drag the circle up") and drag-single-shape ("Drag the item left"); a shape
    already further that way than drawn (a restarted run) is not dragged again."""
    direction = after(episode.utterance, r"^Drag the (?:circle|item) (up|down|left|right)").group(1)
    dx, dy = _DIRECTIONS[direction]
    moved = await page.evaluate(_DRAGGED_JS, _SHAPE)
    if dx * moved[0] <= 0 and dy * moved[1] <= 0:
        yield drag(css(_SHAPE), by=(dx, dy))
    yield click(css("#subbtn"))


async def drag_box(page, episode):
    """Drag the small box so that its centre sits on the large box's centre."""
    dx, dy = await page.evaluate(
        "() => { const c = (id) => { const r = document.getElementById(id)"
        ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };"
        " const s = c('draggableSmall'), l = c('draggableLarge');"
        " return [Math.round(l[0] - s[0]), Math.round(l[1] - s[1])]; }")
    yield drag(css("#draggableSmall"), by=(dx, dy))
    yield click(css("#subbtn"))


# The text area's size now and the size the oracle first saw (noted on the page then: the task
# keeps the initial size in a closure, and a restarted run must not resize it twice).
_SIZES_JS = """() => {
  const area = $('#tt'), now = {width: area.width(), height: area.height()};
  window.pagescoutFirstSize = window.pagescoutFirstSize || now;
  return [window.pagescoutFirstSize, now];
}"""


async def resize_textarea(page, episode):
    """Pull the east handle (width) or the south one (height) out or in, unless the size is
    already past the first one that way."""
    match = after(episode.utterance, r"the (width|height) is (larger|smaller) than")
    dimension, sign = match.group(1), 1 if match.group(2) == "larger" else -1
    first, now = await page.evaluate(_SIZES_JS)
    edge, by = (("e", (sign * RESIZE_PX, 0)) if dimension == "width"
                else ("s", (0, sign * RESIZE_PX)))
    if sign * (now[dimension] - first[dimension]) <= 0:
        yield drag(css(f"#area .ui-resizable-{edge}"), by=by)
    yield click(css("#submit"))


_BOX = "#shape-container"
_SHAPE_TAGS = {"rectangles": f"rect:not({_BOX})", "circles": "circle", "triangles": "polygon"}
_SHAPES = f"#area svg rect:not({_BOX}), #area svg circle, #area svg polygon"
# Which shapes match the task's selector, the box each one's centre sits in (-1: none), and the
# boxes' places in page order from left to right.
_LAYOUT_JS = """([shapes, wanted, box]) => {
  const boxes = Array.from(document.querySelectorAll(box), (b) => b.getBoundingClientRect());
  const inside = (s) => {
    const r = s.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    return boxes.findIndex((b) => b.left <= x && x <= b.right && b.top <= y && y <= b.bottom);
  };
  const found = Array.from(document.querySelectorAll(shapes));
  return {matches: found.map((s) => s.matches(wanted)), inside: found.map(inside),
          boxes: boxes.map((b, i) => [b.left, i]).sort((a, b) => a[0] - b[0]).map((b) => b[1])};
}"""


async def drag_shapes(page, episode):
    """``Drag all circles into the black box`` (drag-shapes), ``... into the left box, and
    everything else into the right box`` by kind or by colour (drag-shapes-2): each shape is
    dragged onto its box (released inside it), the named ones first, in page order; one
    already inside its box (a restarted run) is left there. drag-shapes' other shapes stay
    where they are."""
    kind = after(episode.utterance, r"^Drag all (\w+)").group(1)
    wanted = _SHAPE_TAGS.get(kind, f"[fill={kind}]")
    layout = await page.evaluate(_LAYOUT_JS, [_SHAPES, wanted, _BOX])
    order = sorted(range(len(layout["matches"])), key=lambda i: not layout["matches"][i])
    for index in order:
        box = 0 if layout["matches"][index] else 1
        if box < len(layout["boxes"]) and layout["inside"][index] != layout["boxes"][box]:
            yield drag(css(_SHAPES, nth=index), onto=css(_BOX, nth=layout["boxes"][box]))
    yield click(css("#subbtn"))


POLICIES = {
    "drag-circle": drag_shape,
    "drag-single-shape": drag_shape,
    "drag-box": drag_box,
    "resize-textarea": resize_textarea,
    "drag-shapes": drag_shapes,
    "drag-shapes-2": drag_shapes,
}
