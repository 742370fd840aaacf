"""The Mind2Web writer: raw_html/cleaned_html conventions and round trips through the reader."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from pipeline.html import mind2web_format as m2w
from pipeline.html.mind2web_writer import DOCTYPE, to_mind2web_cleaned_html, to_mind2web_raw_html
from pipeline.html.source import page_from_file, page_from_html
from pipeline.page_state import Node, PageState

DATA = Path(__file__).resolve().parents[1] / "data" / "mind2web"
START_TAG = re.compile(r"<([A-Za-z][^\s/>]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")


def _facts(node: Node) -> tuple:
    return (node.parent, node.kind, node.tag, node.attributes, node.text, node.backend_id,
            node.bounds, node.value, node.states, node.frame, node.in_shadow)  # fmt: skip


@pytest.fixture(scope="module")
def raw() -> PageState:
    return page_from_file(DATA / "raw_sample.html")


def test_raw_round_trip_of_the_sample(raw):
    again = page_from_html(to_mind2web_raw_html(raw))
    assert [_facts(n) for n in again.nodes] == [_facts(n) for n in raw.nodes]
    assert [(n.role, n.name) for n in again.nodes] == [(n.role, n.name) for n in raw.nodes]
    assert again.frames == raw.frames and again.title == raw.title


def test_raw_html_conventions(raw):
    text = to_mind2web_raw_html(raw)
    assert text.startswith(DOCTYPE + "\n<html ")
    tags = START_TAG.findall(text.split("\n", 1)[1])
    assert tags and all(
        'backend_node_id="' in attrs and 'bounding_box_rect="' in attrs for _, attrs in tags
    )
    assert 'aria_label="Primary"' in text and "_3d_effect=" in text and "data_test_id=" in text
    assert 'input_value="Brooklyn"' in text and 'text_value="No smoking"' in text
    assert 'input_checked="true"' in text and 'option_selected="true"' in text
    assert 'is_clickable="true"' in text and "<pseudo-before " in text
    assert 'pseudo_type="before"' in text and 'bounding_box_rect="-1,-1,-1,-1"' in text
    assert "buckeye" not in text and "ROOT_DCOUMENT" not in text


def _live_like_state() -> PageState:
    """A page as a live capture records it: ids on fragments, a shadow root, an iframe document
    without <html>, attribute names that need sanitising, text without backend ids."""
    n = [
        Node(0, None, "element", "#document", backend_id=1),
        Node(1, 0, "element", "html", {"lang": "en"}, backend_id=2, bounds=(0, 0, 800, 600)),
        Node(2, 1, "element", "body", backend_id=3, bounds=(0, 0, 800, 600)),
        Node(3, 2, "element", "input", {"type": "checkbox", "aria-label": "Agree", "3d": "x"},
             backend_id=4, bounds=(10, 10, 16, 16), states={"checked": True}),
        Node(4, 2, "element", "select", {"name": "size"}, backend_id=5, bounds=(10, 40, 80, 20)),
        Node(5, 4, "element", "option", {"value": "s"}, backend_id=6, states={"selected": False}),
        Node(6, 5, "text", text="Small", backend_id=7),
        Node(7, 4, "element", "option", {"value": "m"}, backend_id=8, states={"selected": True}),
        Node(8, 7, "text", text="Medium <M> & more"),
        Node(9, 2, "element", "my-card", {"data-sku": "A1"}, backend_id=10,
             bounds=(0, 100, 300, 50.5)),
        Node(10, 9, "element", "#shadow-root", {"mode": "open"}, backend_id=11),
        Node(11, 10, "element", "button", {"class": "buy"}, backend_id=12,
             bounds=(1.25, 101, 80, 30), states={"clickable": True}, in_shadow=True),
        Node(12, 11, "text", text="Buy", backend_id=13, bounds=(5, 105, 30, 20), in_shadow=True),
        Node(13, 2, "element", "iframe", {"src": "about:blank"}, backend_id=14,
             bounds=(0, 200, 100, 100)),
        Node(14, 13, "element", "#document", backend_id=15, frame=1),
        Node(15, 14, "element", "input", {"type": "text"}, backend_id=16, frame=1,
             bounds=(0, 200, 50, 20), value="typed"),
    ]  # fmt: skip
    return PageState(url="https://shop.test/", title="", nodes=n, has_layout=True)


def test_raw_round_trip_of_a_live_like_state():
    state = _live_like_state()
    text = to_mind2web_raw_html(state)
    assert "<ROOT_DCOUMENT " in text  # the iframe document has no <html>: written as a document
    assert "<hash-document-fragment " in text and "_3d=" in text
    again = page_from_html(text)
    assert again.source == "mind2web_raw" and len(again.nodes) == len(state.nodes)
    for before, after in zip(state.nodes, again.nodes, strict=True):
        assert (after.parent, after.kind, after.tag) == (before.parent, before.kind, before.tag)
        assert (after.attributes, after.text, after.bounds) == (
            before.attributes,
            before.text,
            before.bounds,
        )
        assert after.value == before.value and after.in_shadow == before.in_shadow
        if before.backend_id is not None and before.id != 0:  # the top #document is not written
            assert after.backend_id == before.backend_id
        for key in ("checked", "selected", "clickable"):
            assert after.states.get(key) == before.states.get(key)
    assert again.nodes[8].backend_id not in {n.backend_id for n in state.nodes}
    assert again.frames[1].owner == 13


def test_an_element_that_scrolls_reads_as_scrolling_from_its_dump():
    from pipeline.distill import distill

    nodes = [Node(0, None, "element", "#document", children=[1]),
             Node(1, 0, "element", "textarea", {"id": "text-area"}, bounds=(0, 0, 100, 50),
                  styles={"overflow": "auto"}, scroll=(0, 0, 100, 400), backend_id=5),
             Node(2, 0, "element", "div", {"id": "box"}, bounds=(0, 60, 100, 50),
                  styles={"overflow": "visible"}, scroll=(0, 0, 100, 400), backend_id=6)]
    nodes[0].children = [1, 2]
    state = PageState(url="https://example.test/", title="t", nodes=nodes, source="live")
    text = to_mind2web_raw_html(state)
    assert text.count(f'{m2w.SCROLL_ATTR}="0,0,100,400"') == 1  # the textarea's; the div clips
    again = page_from_html(text)
    assert [node.scrolls for node in again.nodes if node.tag in ("textarea", "div")] == [
        True, False]
    scrolling = [d.attrs.get("id") for d in distill(again).refs.values() if d.scrollable]
    assert scrolling == ["text-area"]
    assert m2w.SCROLL_ATTR not in to_mind2web_cleaned_html(state)


def test_raw_round_trip_of_ordinary_html():
    page = page_from_html(
        "<html><head><title>T</title></head><body><nav aria-label=Top><a href=/a>A</a></nav>"
        "<p>x &lt; y</p><input type=text value=v></body></html>"
    )
    text = to_mind2web_raw_html(page)
    again = page_from_html(text)
    assert [(n.tag, n.attributes, n.text) for n in again.nodes] == [
        (n.tag, n.attributes, n.text) for n in page.nodes
    ]
    ids = [n.backend_id for n in again.nodes[1:]]
    assert None not in ids and len(set(ids)) == len(ids)
    assert again.title == "T" and all(n.bounds is None for n in again.nodes)


def test_cleaned_html_of_the_sample(raw):
    text = to_mind2web_cleaned_html(raw)
    assert text.startswith('<html backend_node_id="2">')
    for dropped in ("<head", "<script", "<style", "<title", "bounding_box_rect", "class=",
                    "href=", "Hidden legal text", "buckeye", "is_clickable", "for="):  # fmt: skip
        assert dropped not in text, dropped
    for kept in ('aria_label="Primary"', 'input_value="Brooklyn"', 'option_selected="true"',
                 'input_checked="true"', 'placeholder="City or airport"', ">21-24<"):  # fmt: skip
        assert kept in text, kept
    cleaned = page_from_html(text)
    assert cleaned.source == "mind2web_cleaned" and not cleaned.has_layout
    raw_texts = {n.backend_id: n.text for n in raw.nodes if n.kind == "text"}
    kept_texts = {n.backend_id: n.text for n in cleaned.nodes if n.kind == "text"}
    assert kept_texts and all(raw_texts[i].strip() == t for i, t in kept_texts.items())
    assert set(cleaned.by_backend_id()) <= set(raw.by_backend_id())
    attrs = {name for n in cleaned.nodes for name in n.attributes}
    assert attrs <= {"aria-label", "aria-hidden", "aria-describedby", "type", "placeholder",
                     "name", "value", "title"}  # fmt: skip


def test_cleaned_html_unwraps_bare_wrappers_unless_kept(raw):
    text = to_mind2web_cleaned_html(raw)
    assert 'backend_node_id="13"' not in text  # <header> with one child and nothing else
    assert 'backend_node_id="13"' in to_mind2web_cleaned_html(raw, keep_backend_ids={13})


def synthetic_raw_html(target_bytes: int) -> str:
    """A Mind2Web-style product listing of about ``target_bytes`` (cards of links, images,
    svg ratings, prices and buttons, with whitespace text nodes as real DOMs have)."""
    ids = itertools.count(10)

    def el(tag: str, rect: str, attrs: str = "", inner: str = "") -> str:
        return f'<{tag} backend_node_id="{next(ids)}" bounding_box_rect="{rect}"{attrs}>{inner}</{tag}>'

    def tx(text: str, rect: str) -> str:
        return el("text", rect, "", text)

    cards, size, k = [], 0, 0
    while size < target_bytes:
        x, y = 40 + (k % 4) * 300, 400 + (k // 4) * 420

        def at(dx: int, dy: int, w: int, h: int) -> str:
            return f"{x + dx},{y + dy},{w},{h}"  # noqa: B023 -- used within this iteration

        gap = tx("\n      ", "-1,-1,-1,-1")
        img = (f'<img backend_node_id="{next(ids)}" bounding_box_rect="{at(0, 0, 280, 200)}" '
               f'class="product-card__image lazyloaded" alt="Product {k} running shoe" '
               f'src="https://cdn.example.com/img/{k:05d}/main-800x800.jpg?v=1687">')  # fmt: skip
        title = el("h3", at(10, 210, 260, 40), ' class="product-card__title h5"',
                   tx(f"Trail Runner {k} – Men's Running Shoe", at(10, 210, 260, 40)))  # fmt: skip
        stars = el("svg", at(10, 250, 80, 16), ' viewBox="0 0 80 16" aria_hidden="true"',
                   el("path", at(10, 250, 16, 16), ' d="M8 0l2.4 4.9 5.4.8-3.9 3.8.9 5.4z"'))  # fmt: skip
        price = el("span", at(10, 280, 60, 24), ' class="price price--sale"',
                   tx(f"${49 + k % 50}.99", at(10, 280, 60, 24)))  # fmt: skip
        button = el("button", at(10, 320, 260, 44),
                    f' type="button" class="btn btn-primary js-add-to-cart" '
                    f'aria_label="Add Trail Runner {k} to cart" is_clickable="true"',
                    el("span", at(20, 330, 200, 24), ' class="btn__text"',
                       tx("Add to cart", at(20, 330, 200, 24))))  # fmt: skip
        link = el("a", at(0, 0, 280, 260), f' href="/p/{k}" is_clickable="true"',
                  gap + img + gap + title)  # fmt: skip
        card = el("div", at(0, 0, 280, 400),
                  f' class="product-grid__item col-lg-3" data_pw_testid_buckeye_candidate="{k}"',
                  gap + link + gap + stars + gap + price + gap + button + gap)  # fmt: skip
        cards.append(card)
        size += len(card)
        k += 1
    body = el("body", "0,0,1280,9000", "", el("main", "0,80,1280,9000", "", "".join(cards)))
    head = el("head", "-1,-1,-1,-1", "", el("title", "-1,-1,-1,-1", "", tx("Shoes", "-1,-1,-1,-1")))
    return DOCTYPE + "\n" + el("html", "0,0,1280,9000", ' lang="en"', head + body)


def test_a_500_kb_raw_html_parses_and_round_trips():
    text = synthetic_raw_html(500_000)
    assert 480_000 < len(text.encode()) < 560_000
    state = page_from_html(text)
    assert state.has_layout and len(state.nodes) > 4000
    assert sum(n.role == "button" for n in state.nodes) > 100
    again = page_from_html(to_mind2web_raw_html(state))
    assert [_facts(n) for n in again.nodes] == [_facts(n) for n in state.nodes]


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("aria-label", "aria_label"),
        ("data-test-id", "data_test_id"),
        ("3d", "_3d"),
        ("xlink:href", "xlink_href"),
        ("stroke-width", "stroke_width"),
        ("accept-charset", "accept_charset"),
        ("class", "class"),
        ("viewBox", "viewBox"),
    ],
)
def test_attribute_names_sanitised_and_restored(name, written):
    assert m2w.sanitize_attribute_name(name) == written
    assert m2w.restore_attribute_name(written) == name


def test_names_that_cannot_be_told_apart_stay_as_written():
    assert m2w.restore_attribute_name("my_attr") == "my_attr"
    assert m2w.restore_attribute_name("ng_model") == "ng_model"


@pytest.mark.parametrize(
    ("tag", "written"),
    [("::before", "pseudo-before"), ("#comment", "hash-comment"), ("svg:rect", "svg-rect"),
     ("#shadow-root", "hash-document-fragment"), ("my-card", "my-card")],
)  # fmt: skip
def test_tags_sanitised_like_mind2web(tag, written):
    assert m2w.sanitize_tag(tag) == written


def test_rects():
    assert m2w.parse_rect("-1,-1,-1,-1") is None
    assert m2w.parse_rect("0,12.5,1280,40") == (0.0, 12.5, 1280.0, 40.0)
    assert m2w.format_rect((0.0, 12.5, 1280.0, 40.0)) == "0,12.5,1280,40"
    assert m2w.format_rect(None) == "-1,-1,-1,-1"


def test_cleaned_html_of_a_page_without_layout():
    page = page_from_html(
        "<html><head><title>T</title><script>x()</script></head><body>"
        "<div><div><a href=/a class=big>Deals</a></div></div><div hidden>secret</div>"
        "<span></span><input type=hidden name=csrf value=1><img alt=Logo src=l.png>"
        "</body></html>"
    )
    text = to_mind2web_cleaned_html(page)
    again = page_from_html(text)
    assert again.source == "mind2web_cleaned"
    assert [n.tag for n in again.nodes if n.kind == "element"] == [
        "#document", "html", "body", "a", "img",
    ]  # fmt: skip
    assert [n.text for n in again.nodes if n.kind == "text"] == ["Deals"]
    assert next(n for n in again.nodes if n.tag == "img").attributes == {"alt": "Logo"}
