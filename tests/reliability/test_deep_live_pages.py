"""Live pages nested deeper than one ``DOM.getDocument`` answer can carry (CBOR stack limit):
captured in slices, nothing lost, the degradation reported."""

from __future__ import annotations

import html as html_lib
import urllib.parse

import pytest
from adversarial import nested_html

from pipeline.capture import deep_dom
from pipeline.capture.deep_dom import graft, unexpanded
from pipeline.cli.main import main


def shadow_page(depth: int) -> str:
    """``depth`` open shadow roots, each holding the next host; the deep button in the last."""
    script = (f"<script>let host = document.getElementById('h');"
              f"for (let i = 0; i < {depth}; i++) {{ const d = document.createElement('div');"
              "host.attachShadow({mode: 'open'}).appendChild(d); host = d; }"
              "const b = document.createElement('button'); b.textContent = 'deep';"
              "host.appendChild(b);</script>")
    return f"<html><body><button>top</button><div id=h></div>{script}<button>after</button></body></html>"


def iframe_page(depth: int) -> str:
    """A same-origin iframe, 30 levels down, whose document nests ``depth`` levels."""
    inner = html_lib.escape(nested_html(depth), quote=True)
    return ("<html><body>" + "<div>" * 30 + f"<iframe srcdoc='{inner}'></iframe>" + "</div>" * 30
            + "<button>outside</button></body></html>")


def data_url(html: str) -> str:
    return "data:text/html," + urllib.parse.quote(html)


def buttons(state) -> list[str]:
    return [state.text_content(n.id) for n in state.nodes if n.tag == "button"]


@pytest.mark.browser
@pytest.mark.parametrize("html", [nested_html(300), nested_html(2000), shadow_page(200)],
                         ids=["nested-300", "nested-2000", "shadow-200"])
def test_a_deep_page_is_captured_whole_and_the_slicing_reported(capture_session, html):
    state = capture_session.capture(data_url(html))
    assert buttons(state) == ["top", "deep", "after"]
    deep = next(n for n in state.nodes if n.tag == "button" and state.text_content(n.id) == "deep")
    assert deep.bounds is not None and deep.backend_id is not None
    assert any("CBOR stack limit" in w for w in state.meta["warnings"])


@pytest.mark.browser
def test_a_deep_iframe_document_is_captured_whole(capture_session):
    state = capture_session.capture(data_url(iframe_page(300)))
    assert buttons(state) == ["top", "deep", "after", "outside"]
    assert len(state.frames) == 2 and any("CBOR" in w for w in state.meta["warnings"])


@pytest.mark.browser
def test_a_shallow_page_is_one_answer_without_warning(capture_session):
    state = capture_session.capture(data_url(nested_html(20)))
    assert buttons(state) == ["top", "deep", "after"]
    assert not any("CBOR" in w for w in state.meta["warnings"])


@pytest.mark.browser
def test_over_the_slice_budget_the_missing_part_is_reported(capture_session, monkeypatch):
    monkeypatch.setattr(deep_dom, "MAX_SLICES", 2)
    state = capture_session.capture(data_url(nested_html(300)))
    assert buttons(state) == ["top", "after"]
    assert any("subtrees deeper than" in w and "missing" in w for w in state.meta["warnings"])


@pytest.mark.browser
def test_the_cli_says_so_on_stderr(capsys):
    assert main(["snapshot", data_url(nested_html(300))]) == 0
    out, err = capsys.readouterr()
    assert "<button>deep</button>" in out and "<button>after</button>" in out
    assert "warning:" in err and "CBOR stack limit" in err


def test_unexpanded_and_graft_on_a_hand_built_answer():
    leaf = {"nodeType": 1, "backendNodeId": 9, "childNodeCount": 1}
    fragment = {"nodeType": 11, "backendNodeId": 8}
    root = {"nodeType": 9, "backendNodeId": 1, "children": [
        {"nodeType": 1, "backendNodeId": 2, "children": [leaf, {"nodeType": 3}],
         "shadowRoots": [fragment]},
        {"nodeType": 1, "backendNodeId": 3, "children": [],
         "contentDocument": {"nodeType": 9, "backendNodeId": 4}},
    ]}
    assert {n["backendNodeId"] for n in unexpanded(root)} == {9, 8, 4}
    graft(leaf, {"nodeType": 1, "backendNodeId": 9, "children": [{"nodeType": 3}]})
    graft(fragment, {"nodeType": 11, "backendNodeId": 8})
    assert {n["backendNodeId"] for n in unexpanded(root)} == {4}
    assert fragment["children"] == []
