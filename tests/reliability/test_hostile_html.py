"""Hostile HTML: deep nesting, many siblings, bad bytes -- nothing lost silently, bounded time."""

from __future__ import annotations

import pytest
from adversarial import nested_html

from pipeline.cli.main import main
from pipeline.errors import FormatError
from pipeline.html.lxml_reader import LIBXML2_MAX_DEPTH
from pipeline.html.source import page_from_html
from tests.timing import best_ms


def buttons(state) -> list[str]:
    return [state.text_content(n.id) for n in state.nodes if n.tag == "button"]


@pytest.mark.parametrize("depth", [255, 300, 2000])
def test_nesting_within_libxml2s_huge_limit_is_read_whole(depth):
    state = page_from_html(nested_html(depth))
    assert buttons(state) == ["top", "deep", "after"]
    assert "warnings" not in state.meta


@pytest.mark.parametrize("depth", [LIBXML2_MAX_DEPTH + 1, 20_000])
def test_deeper_nesting_is_read_by_the_iterative_reader_and_said(depth):
    state = page_from_html(nested_html(depth))
    assert buttons(state) == ["top", "deep", "after"]
    assert len(state.nodes) > depth
    assert any("deeper than 2048" in w for w in state.meta["warnings"])


def test_the_cli_says_so_on_stderr_and_renders_everything(capsys, tmp_path):
    page = tmp_path / "deep.html"
    page.write_text(nested_html(5000))
    assert main(["snapshot", str(page)]) == 0
    out, err = capsys.readouterr()
    assert all(f"<button>{b}</button>" in out for b in ("top", "deep", "after"))
    assert "warning: deep.html: the document nests deeper than 2048" in err
    assert main(["query", str(page), "--text", "after"]) == 0
    out, err = capsys.readouterr()
    assert "after" in out and "warning: the document nests deeper" in err


def test_the_iterative_reader_repairs_like_a_browser_where_it_matters():
    html = ("<div><ul><li>a<li>b</ul><p>one<p>two<table><tr><td>1<td>2<tr><td>3</table>"
            "<select><option>x<option selected>y</select><textarea>typed</textarea>"
            "<input value=v><br><img src=i.png></span><template><button>inert</button></template>"
            "<button>live</button></div>")
    state = page_from_html(nested_html(LIBXML2_MAX_DEPTH + 10).replace("<button>after", html + "<button>after"))
    nodes = state.nodes
    items = [n for n in nodes if n.tag == "li"]
    assert [state.text_content(n.id) for n in items] == ["a", "b"]
    assert all(nodes[n.parent].tag == "ul" for n in items)
    cells = [state.text_content(n.id) for n in nodes if n.tag == "td"]
    assert cells == ["1", "2", "3"]
    assert [n.value for n in nodes if n.tag == "textarea"] == ["typed"]
    assert [n.value for n in nodes if n.tag == "input"] == ["v"]
    assert not any(n.children for n in nodes if n.tag in ("br", "img", "input"))
    assert "inert" not in [state.text_content(n.id) for n in nodes if n.tag == "button"]
    assert buttons(state)[-2:] == ["live", "after"]


def test_stray_end_tags_and_deep_implied_ends_stay_linear():
    """End tags of elements that are not open and ``<li>`` under deep inline nesting: each one
    is O(1), so 20k of them are fast."""
    html = ("<ul><li><div>" + "<span>" * 20_000 + "<li>x</li>" * 20_000 + "</b>" * 20_000
            + "</div></ul>" + "<div>" * (LIBXML2_MAX_DEPTH + 1))
    ms, state = best_ms(lambda: page_from_html(html), repeats=1)
    assert ms < 20_000 and sum(1 for n in state.nodes if n.tag == "li") == 20_001


def test_two_hundred_thousand_siblings_are_refused_by_name_or_read_in_bounded_time():
    html = "<html><body>" + "<span>x</span>" * 200_000 + "</body></html>"  # 400k nodes
    with pytest.raises(FormatError, match="more than max_nodes=200,000 nodes"):
        page_from_html(html)
    ms, state = best_ms(lambda: page_from_html(html, max_nodes=500_000), repeats=1)
    assert len(state.nodes) > 400_000
    assert ms < 60_000


@pytest.mark.parametrize("data", [b"<p>\x00\x00 nul</p>", b"<p>caf\xe9 \xff\xfe</p>",
                                  b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4])
def test_bad_bytes_are_a_format_error(data):
    with pytest.raises(FormatError, match="page.html"):
        page_from_html(data, origin="page.html")
