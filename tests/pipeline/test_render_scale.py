"""A generated 10k-node page: every ref printed once, and render time per 1,000 nodes (printed;
the bound here only catches a quadratic slip, the benchmark holds the real target)."""

import re

from render_helpers import listing_page

from pipeline.render import RenderOptions, render_flat, render_outline
from tests.timing import best_ms


def test_ten_thousand_nodes_render_linearly():
    page, previous = listing_page(615), listing_page(615)
    nodes = len(page.state.nodes)
    assert nodes >= 10_000
    timings = {}
    for name, render, kwargs in [
        ("flat", render_flat, {}),
        ("outline", render_outline, {}),
        ("outline+previous", render_outline, {"previous": previous}),
        ("flat chunk 3", render_flat, {"options": RenderOptions(viewport="chunk", chunk=3)}),
    ]:
        ms, text = best_ms(lambda: render(page, **kwargs))  # noqa: B023
        timings[name] = ms / (nodes / 1000)
        if name == "flat":
            assert re.findall(r"^\t*\[(\d+)\]", text, re.MULTILINE) == [str(r) for r in page.refs]
    print(" ".join(f"{name}: {ms:.2f} ms/1k nodes" for name, ms in timings.items()))
    assert max(timings.values()) < 30
