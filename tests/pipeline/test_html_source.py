"""PageState from Mind2Web raw_html / cleaned_html and ordinary HTML, and every bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import FormatError
from pipeline.html.source import detect_kind, page_from_file, page_from_html
from pipeline.page_state import Node, PageState

DATA = Path(__file__).resolve().parents[1] / "data" / "mind2web"
HELPER_ATTRS = {"backend_node_id", "bounding_box_rect", "input_value", "text_value",
                "input_checked", "option_selected", "is_clickable", "pseudo_type"}  # fmt: skip


@pytest.fixture(scope="module")
def raw() -> PageState:
    return page_from_file(DATA / "raw_sample.html")


def _by_backend(state: PageState, backend_id: int) -> Node:
    return state.nodes[state.by_backend_id()[backend_id]]


def test_raw_page_facts(raw):
    assert raw.source == "mind2web_raw" and raw.has_layout and not raw.has_ax
    assert raw.title == "Rent a Car & Save | Budget"
    assert raw.document_size == (1280.0, 1600.0)
    assert raw.root.tag == "#document" and raw.root.backend_id is None
    assert all(n.backend_id is not None for n in raw.nodes if n.tag != "#document")
    assert _by_backend(raw, 2).bounds == (0.0, 0.0, 1280.0, 1600.0)
    assert _by_backend(raw, 3).bounds is None  # -1,-1,-1,-1: no layout
    assert _by_backend(raw, 16).kind == "text" and _by_backend(raw, 16).bounds is not None


def test_raw_attribute_names_restored_and_helpers_removed(raw):
    assert _by_backend(raw, 14).attributes == {"aria-label": "Primary"}
    assert _by_backend(raw, 15).attributes == {"href": "/deals", "data-track-id": "nav-deals"}
    assert _by_backend(raw, 34).attributes == {"3d_effect": "on", "data-test-id": "promo"}
    assert _by_backend(raw, 41).attributes["viewBox"] == "0 0 100 30"
    assert _by_backend(raw, 42).attributes["font-size"] == "12"
    for node in raw.nodes:
        names = set(node.attributes)
        assert not names & HELPER_ATTRS
        assert not any("buckeye" in name for name in names), node


def test_raw_snapshot_facts(raw):
    pickup = _by_backend(raw, 24)
    assert pickup.value == "Brooklyn" and pickup.states == {"clickable": True}
    assert (pickup.role, pickup.name) == ("textbox", "Pick-up location")
    assert _by_backend(raw, 31).states == {"checked": True}
    assert _by_backend(raw, 31).name == "AARP member"
    assert [_by_backend(raw, i).states["selected"] for i in (26, 28)] == [False, True]
    assert _by_backend(raw, 39).value == "No smoking"
    pseudo = _by_backend(raw, 18)
    assert pseudo.tag == "::before" and pseudo.states == {"pseudo_type": "before"}
    assert (_by_backend(raw, 17).role, _by_backend(raw, 17).name) == ("link", "Help")


def test_raw_tree_is_kept_as_written(raw):
    script_text = raw.nodes[_by_backend(raw, 7).children[0]]
    assert script_text.text == 'if (a < b && c) { window.x = "</div>"; }'
    assert script_text.backend_id == 8
    assert _by_backend(raw, 34).parent == _by_backend(raw, 33).id  # <div> stays inside <p>
    svg_text = _by_backend(raw, 42)
    assert svg_text.kind == "element" and svg_text.tag == "text"
    assert raw.text_content(svg_text.id) == "Budget"
    assert all("googleoff" not in n.text for n in raw.nodes)  # comments dropped
    assert raw.text_content(raw.root.id).startswith("Rent a Car & Save")


def test_raw_inlined_iframe_becomes_a_document_fragment(raw):
    iframe = _by_backend(raw, 44)
    document = raw.nodes[iframe.children[0]]
    assert document.tag == "#document" and document.frame == 1
    assert raw.frames[1].owner == iframe.id
    assert raw.frames[1].url == "https://ads.example/frame.html"
    assert _by_backend(raw, 48).frame == 1 and _by_backend(raw, 48).name == "Fly for less"
    assert iframe.frame == 0


def test_root_dcoument_and_shadow_fragments():
    html = (
        '<ROOT_DCOUMENT backend_node_id="1" bounding_box_rect="-1,-1,-1,-1">'
        '<html backend_node_id="2" bounding_box_rect="0,0,800,600"><body backend_node_id="3" '
        'bounding_box_rect="0,0,800,600"><my-card backend_node_id="4" bounding_box_rect="0,0,10,10">'
        '<hash-document-fragment backend_node_id="5" bounding_box_rect="-1,-1,-1,-1">'
        '<button backend_node_id="6" bounding_box_rect="0,0,10,10"><text backend_node_id="7" '
        'bounding_box_rect="0,0,10,10">Buy</text></button></hash-document-fragment></my-card>'
        '<iframe backend_node_id="8" bounding_box_rect="0,20,100,100"><ROOT_DCOUMENT '
        'backend_node_id="9" bounding_box_rect="-1,-1,-1,-1"><p backend_node_id="10" '
        'bounding_box_rect="0,0,5,5"></p></ROOT_DCOUMENT></iframe></body></html></ROOT_DCOUMENT>'
    )
    state = page_from_html(html)
    assert (state.root.tag, state.root.backend_id) == ("#document", 1)
    shadow = _by_backend(state, 5)
    assert shadow.tag == "#shadow-root" and shadow.attributes == {"mode": "open"}
    button = _by_backend(state, 6)
    assert button.in_shadow and (button.role, button.name) == ("button", "Buy")
    inner = _by_backend(state, 9)
    assert inner.tag == "#document" and inner.frame == 1 and _by_backend(state, 10).frame == 1
    assert len(state.frames) == 2 and state.frames[1].owner == _by_backend(state, 8).id


def test_cleaned_html():
    state = page_from_file(DATA / "cleaned_sample.html")
    assert state.source == "mind2web_cleaned" and not state.has_layout
    assert all(n.bounds is None for n in state.nodes)
    assert state.nodes[1].tag == "html" and state.nodes[1].backend_id == 208
    assert _by_backend(state, 1060).name == "Main menu"
    origin = _by_backend(state, 1120)
    assert origin.value == "New York" and origin.name == "From"
    assert origin.attributes == {"type": "text", "aria-label": "From", "name": "origin",
                                 "placeholder": "Origin"}  # fmt: skip
    assert _by_backend(state, 1131).states["selected"] is True
    assert _by_backend(state, 1140).states == {"checked": True}
    assert not _by_backend(state, 1140).attributes.keys() & {"data-pw-testid-buckeye-candidate"}
    assert _by_backend(state, 1160).attributes == {"type": "submit"}
    tab = _by_backend(state, 1250)
    assert (tab.role, tab.name) == ("tab", "Car & hotel")  # loose text outside <text> is kept
    assert all(n.text.strip() for n in state.nodes if n.kind == "text")  # indentation dropped


def test_ordinary_html():
    html = b"""<!doctype html><html><head><title> Plain  page </title>
    <script>if (a < b) go();</script><style>p { color: red }</style></head>
    <body><!-- comment --><template><button>inert</button></template>
    <p>Hello <b>world</b></p><input type=text value="typed"><textarea>notes</textarea></body></html>"""
    state = page_from_html(html, url="https://example.test/")
    assert state.source == "html" and not state.has_layout and state.url == "https://example.test/"
    assert state.title == "Plain page"
    tags = [n.tag for n in state.nodes if n.kind == "element"]
    assert "script" in tags and "style" in tags
    assert all(n.backend_id is None and n.bounds is None for n in state.nodes)
    texts = [n.text for n in state.nodes if n.kind == "text"]
    assert "if (a < b) go();" in texts and "world" in texts
    assert not any("comment" in t or "inert" in t for t in texts)
    template = next(n for n in state.nodes if n.tag == "template")
    assert template.children == []
    assert next(n for n in state.nodes if n.tag == "input").value == "typed"
    assert next(n for n in state.nodes if n.tag == "textarea").value == "notes"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('<div backend_node_id="1" bounding_box_rect="0,0,1,1"></div>', "mind2web_raw"),
        ('<div backend_node_id="1"></div>', "mind2web_cleaned"),
        ("<div id=x></div>", "html"),
        ("<p>Mind2Web nodes carry a backend_node_id attribute.</p>", "html"),
    ],
)
def test_detect_kind(text, kind):
    assert detect_kind(text) == kind
    assert page_from_html(text).source == ("html" if kind == "html" else kind)


def test_raw_read_as_cleaned_drops_layout(raw):
    text = (DATA / "raw_sample.html").read_text()
    state = page_from_html(text, kind="mind2web_cleaned")
    assert state.source == "mind2web_cleaned" and not state.has_layout
    assert len(state.nodes) == len(raw.nodes) and all(n.bounds is None for n in state.nodes)


BAD = [
    ("", "empty"),
    ("  \n\t ", "empty"),
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "binary"),
    ("<p>" + "\x01\x02\x03\x04" * 50 + "</p>", "binary"),
    (b"<p>caf\xe9 cr\xe8me</p>", "not UTF-8"),
    (b'<meta charset="no-such-codec"><p>caf\xe9</p>', "cannot decode"),
    ("just some words, no markup", "no HTML tag"),
    ("<!-- only a comment -->", "no HTML tag"),
    ('<text backend_node_id="1" bounding_box_rect="0,0,1,1">t</text>', "no elements"),
    ('<div backend_node_id="abc" bounding_box_rect="0,0,1,1"></div>', "not an integer"),
    ('<div backend_node_id="1" bounding_box_rect="0,0,1"></div>', "x,y,w,h"),
    ('<div backend_node_id="1" bounding_box_rect="a,b,c,d"></div>', "near offset"),
]


@pytest.mark.parametrize(("data", "problem"), BAD)
def test_bad_input_names_source_and_problem(data, problem):
    with pytest.raises(FormatError) as info:
        page_from_html(data, url="https://shop.test/p")
    assert "https://shop.test/p" in str(info.value) and problem in str(info.value)


def test_latin1_with_declared_charset_decodes():
    state = page_from_html(b'<meta charset="iso-8859-1"><p>caf\xe9</p>')
    assert any(n.text == "caf\xe9" for n in state.nodes)


@pytest.mark.parametrize(
    ("text", "kind", "hint"),
    [
        ("<div>plain</div>", "mind2web_raw", "no backend_node_id"),
        ("<div>plain</div>", "mind2web_cleaned", "no backend_node_id"),
        ('<div backend_node_id="1"></div>', "mind2web_raw", "cleaned_html"),
        ('<div backend_node_id="1" bounding_box_rect="0,0,1,1"></div>', "html", "Mind2Web"),
        ("<div>plain</div>", "markdown", "unknown kind"),
    ],
)
def test_kind_mismatch(text, kind, hint):
    with pytest.raises(FormatError, match=hint):
        page_from_html(text, kind=kind, origin="task-17/step-2")


def test_page_from_file_errors_carry_the_path(tmp_path):
    missing = tmp_path / "missing.html"
    with pytest.raises(FormatError, match="missing.html: cannot read"):
        page_from_file(missing)
    notes = tmp_path / "notes.txt"
    notes.write_text("<p>x</p>")
    with pytest.raises(FormatError, match="notes.txt: unsupported file type"):
        page_from_file(notes)
    empty = tmp_path / "empty.htm"
    empty.write_text("   ")
    with pytest.raises(FormatError, match="empty.htm: the HTML is empty"):
        page_from_file(empty)


def test_page_from_file_reads_saved_page_state(tmp_path, raw):
    path = raw.save(tmp_path / "page.json.gz")
    loaded = page_from_file(path)
    assert loaded.to_dict() == raw.to_dict()
    assert page_from_file(DATA / "raw_sample.html").url.startswith("file://")
