"""Compaction metrics and their table."""

from render_helpers import build_page, el, tx

from pipeline.distill.model import PassReport
from pipeline.model.token_count import get_counter
from pipeline.render import render_flat, render_outline
from pipeline.render.metrics import compaction_metrics, format_table


def test_metrics_row_and_table():
    page = build_page(el("nav", el("a", tx("Home"), attrs={"href": "/"}, ref=True)),
                      el("p", tx("Hello there")))
    page.report.extend([PassReport("visibility", 3, 0.5), PassReport("noise", 2, 0.25)])
    raw = "<nav><a href='/'>Home</a></nav><p>Hello there</p>"
    renderings = {"flat": render_flat(page), "outline": render_outline(page)}
    row = compaction_metrics(page.state, page, renderings, raw_html=raw,
                             timings={"render": 0.4}, label="tiny")
    counter = get_counter()
    assert (row.nodes, row.kept, row.refs) == (6, 6, 1)
    assert row.chars == {"raw": len(raw), "flat": len(renderings["flat"]),
                         "outline": len(renderings["outline"])}
    assert row.tokens["flat"] == counter.count(renderings["flat"])
    assert row.tokenizer == counter.name and row.tokens_exact == counter.exact
    assert row.distill_ms == 0.75 and row.passes[0]["name"] == "visibility"
    assert row.to_dict()["chars"]["raw"] == len(raw)

    table = format_table([row, row]).splitlines()
    assert table[0].split() == ["page", "nodes", "kept", "refs", "raw", "chars", "flat", "chars",
                                "outline", "chars", "raw", "tok", "flat", "tok", "outline", "tok",
                                "distill", "ms", "render", "ms"]
    assert table[2].split()[:4] == ["tiny", "6", "6", "1"]
    assert table[2].split()[-2:] == ["0.8", "0.4"]
    assert table[-1].startswith("tokens counted by " + counter.name)
    assert format_table([]) == "(no pages)"
