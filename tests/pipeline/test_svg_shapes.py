"""What an SVG shape is drawn as, read from its markup (``svg_markup.shape_name``)."""

from __future__ import annotations

import pytest

from pipeline.distill.svg_markup import shape_name
from pipeline.html.source import page_from_html


@pytest.mark.parametrize(
    ("markup", "name"),
    [
        ('<circle cx="5" cy="5" r="4"/>', "circle"),
        ('<rect width="17" height="17"/>', "square rectangle"),  # a task says either
        ('<rect width="30" height="17"/>', "rectangle"),
        ('<rect width="80" height="45" fill="none" stroke="black"/>', "box"),  # an outline
        ('<rect width="50%"/>', ""),  # sides not known
        ('<ellipse rx="4" ry="4"/>', "circle"),
        ('<ellipse rx="8" ry="4"/>', "ellipse"),
        ('<polygon points="7,37 22,7 37,37"/>', "triangle"),
        ('<polygon points="0,0 9,0 9,9 0,9 0,0"/>', "quadrilateral"),  # closed by its first
        ('<polygon points="0,0 9"/>', ""),
        ('<path d="M0 0 L9 9"/>', ""),
    ],
)
def test_a_shape_is_named_by_its_markup(markup, name):
    state = page_from_html(f"<body><svg>{markup}</svg></body>")
    node = next(n for n in state.nodes if n.tag in {"circle", "rect", "ellipse", "polygon",
                                                    "path"})
    assert shape_name(node) == name
