"""Oracle policies for the free-drag tasks: move a shape in a direction, put a small box inside a
large one, resize a text area by its handle. Distances come from the boxes the page lays out."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import after, click, css, drag

STEP_PX = 30  # how far "drag it up" moves a shape
RESIZE_PX = 25
_DIRECTIONS = {"up": (0, -STEP_PX), "down": (0, STEP_PX), "left": (-STEP_PX, 0),
               "right": (STEP_PX, 0)}


async def drag_shape(page, episode):
    """drag-circle ("Drag the circle up") and drag-single-shape ("Drag the item left")."""
    direction = after(episode.utterance, r"^Drag the (?:circle|item) (up|down|left|right)").group(1)
    yield drag(css("#area svg circle, #area svg rect, #area svg polygon"),
               by=_DIRECTIONS[direction])
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


async def resize_textarea(page, episode):
    """Pull the east handle (width) or the south one (height) out or in."""
    match = after(episode.utterance, r"the (width|height) is (larger|smaller) than")
    sign = 1 if match.group(2) == "larger" else -1
    edge, by = (("e", (sign * RESIZE_PX, 0)) if match.group(1) == "width"
                else ("s", (0, sign * RESIZE_PX)))
    yield drag(css(f"#area .ui-resizable-{edge}"), by=by)
    yield click(css("#submit"))




_SHAPE_TAGS = {"rectangles": "rect:not(#shape-container)", "circles": "circle",
               "triangles": "polygon"}
_SHAPES = "#area svg rect:not(#shape-container), #area svg circle, #area svg polygon"
SLOT_PX = 13  # spacing of the drop points inside a box
# Every shape's box, tag, fill and whether it matches the task's selector, and the boxes.
_LAYOUT_JS = """(wanted) => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top]; };
  const shapes = Array.from(document.querySelectorAll(SHAPES));
  return {shapes: shapes.map((s, i) => [i, box(s), s.getAttribute('fill'), s.matches(wanted)]),
          boxes: Array.from(document.querySelectorAll('#shape-container'), box)
                      .sort((a, b) => a[0] - b[0])};
}"""


async def drag_shapes(page, episode):
    """``Drag all circles into the black box`` (drag-shapes), ``... into the left box, and
    everything else into the right box`` by kind or by colour (drag-shapes-2): each shape is
    dragged so that its corner lands on the next free slot inside its box."""
    kind = after(episode.utterance, r"^Drag all (\w+)").group(1)
    wanted = _SHAPE_TAGS.get(kind, f"[fill={kind}]")
    layout = await page.evaluate(_LAYOUT_JS.replace("SHAPES", json.dumps(_SHAPES)), wanted)
    boxes, used = layout["boxes"], [0] * len(layout["boxes"])
    for index, (x, y), _, matches in layout["shapes"]:
        box = 0 if matches else 1
        if box >= len(boxes):
            continue  # drag-shapes: the others stay where they are
        slot = used[box]
        used[box] += 1
        to = (boxes[box][0] + 4 + (slot % 4) * SLOT_PX, boxes[box][1] + 4 + (slot // 4) * SLOT_PX)
        yield drag(css(_SHAPES, nth=index), by=(round(to[0] - x), round(to[1] - y)))
    yield click(css("#subbtn"))


POLICIES = {
    "drag-circle": drag_shape,
    "drag-single-shape": drag_shape,
    "drag-box": drag_box,
    "resize-textarea": resize_textarea,
    "drag-shapes": drag_shapes,
    "drag-shapes-2": drag_shapes,
}
