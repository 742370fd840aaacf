"""MiniWoB++ tasks no text-only agent can solve with pagescout's actions, and why.

A task belongs here when its answer is pixel geometry: a point to click or a path to draw on an
SVG or canvas that no element, attribute or text names, or a picture the agent cannot read. The
oracle benchmark (``benchmarks/oracle_benchmark.py``) plays them as failures, so they count
against coverage instead of dropping out of it.
"""

from __future__ import annotations

IMPOSSIBLE: dict[str, str] = {
    "bisect-angle": "click the point on the canvas that bisects a drawn angle: pixel geometry",
    "circle-center": "click the centre of a drawn circle on the canvas: pixel geometry",
    "draw-circle": "draw a circle with the mouse on the canvas: a free-hand path",
    "draw-line": "draw a line through a dot on the canvas: a free-hand path",
    "find-midpoint": "click the midpoint between two dots on the canvas: pixel geometry",
    "right-angle": "click the point that makes a right angle on the canvas: pixel geometry",
    "grid-coordinate": "click a coordinate on a drawn Cartesian grid: the grid is lines on a "
                       "canvas, its points are no elements",
    "use-colorwheel": "click a colour on a wheel drawn as a gradient: the colour is a pixel",
    "use-colorwheel-2": "click a colour on a wheel drawn as a gradient: the colour is a pixel",
    "hot-cold": "find the hot spot by moving the mouse over one element: the spot is a pixel "
                "position inside it, shown only by a colour under the pointer",
    "count-sides": "count the sides of a polygon drawn on a canvas: the canvas holds no "
                   "element or text to read",
    "number-checkboxes": "draw a digit in a checkbox grid after an example that is an image: the "
                         "pattern to copy is pixels, not text",
    "drag-cube": "rotate a 3D cube by mouse drags until a face shows: the faces' orientation is "
                 "a CSS 3D transform, not text",
}
