"""Implicit roles (HTML-AAM), explicit roles, accessible names and states, without a browser."""

from __future__ import annotations

import pytest

from pipeline.aria import (
    INTERACTIVE_ROLES,
    LANDMARK_ROLES,
    NAME_FROM_CONTENT_ROLES,
    element_role,
    explicit_role,
    fill_accessibility,
    implicit_role,
)
from pipeline.html.source import page_from_html
from pipeline.page_state import Node, PageState

IMPLICIT = [
    ("a", {"href": "/x"}, (), "link"),
    ("a", {}, (), None),
    ("area", {"href": "#"}, (), "link"),
    ("button", {}, (), "button"),
    ("input", {}, (), "textbox"),
    ("input", {"type": "text"}, (), "textbox"),
    ("input", {"type": "email"}, (), "textbox"),
    ("input", {"type": "tel"}, (), "textbox"),
    ("input", {"type": "url"}, (), "textbox"),
    ("input", {"type": "password"}, (), "textbox"),
    ("input", {"type": "text", "list": "cities"}, (), "combobox"),
    ("input", {"type": "search"}, (), "searchbox"),
    ("input", {"type": "search", "list": "q"}, (), "combobox"),
    ("input", {"type": "number"}, (), "spinbutton"),
    ("input", {"type": "range"}, (), "slider"),
    ("input", {"type": "checkbox"}, (), "checkbox"),
    ("input", {"type": "radio"}, (), "radio"),
    ("input", {"type": "submit"}, (), "button"),
    ("input", {"type": "reset"}, (), "button"),
    ("input", {"type": "button"}, (), "button"),
    ("input", {"type": "image"}, (), "button"),
    ("input", {"type": "HIDDEN"}, (), None),
    ("select", {}, (), "combobox"),
    ("select", {"multiple": ""}, (), "listbox"),
    ("select", {"size": "4"}, (), "listbox"),
    ("select", {"size": "1"}, (), "combobox"),
    ("textarea", {}, (), "textbox"),
    ("option", {}, (), "option"),
    ("header", {}, (), "banner"),
    ("footer", {}, (), "contentinfo"),
    ("header", {}, ("article",), None),
    ("footer", {}, ("section",), None),
    ("header", {}, ("main",), None),
    ("header", {}, ("nav",), None),
    ("footer", {}, ("aside",), None),
    ("nav", {}, (), "navigation"),
    ("main", {}, (), "main"),
    ("aside", {}, (), "complementary"),
    ("form", {}, (), "form"),
    ("section", {"aria-label": "Reviews"}, (), "region"),
    ("section", {}, (), None),
    ("search", {}, (), "search"),
    ("h1", {}, (), "heading"),
    ("h6", {}, (), "heading"),
    ("img", {"alt": ""}, (), "presentation"),
    ("img", {"alt": "Logo"}, (), "img"),
    ("img", {}, (), "img"),
    ("ul", {}, (), "list"),
    ("ol", {}, (), "list"),
    ("li", {}, (), "listitem"),
    ("table", {}, (), "table"),
    ("tr", {}, (), "row"),
    ("td", {}, (), "cell"),
    ("th", {}, (), "columnheader"),
    ("th", {"scope": "row"}, (), "rowheader"),
    ("dialog", {}, (), "dialog"),
    ("details", {}, (), "group"),
    ("summary", {}, (), "button"),
    ("hr", {}, (), "separator"),
    ("fieldset", {}, (), "group"),
    ("progress", {}, (), "progressbar"),
    ("meter", {}, (), "meter"),
    ("output", {}, (), "status"),
    ("div", {}, (), None),
    ("span", {}, (), None),
]


@pytest.mark.parametrize(("tag", "attrs", "ancestors", "role"), IMPLICIT)
def test_implicit_role(tag, attrs, ancestors, role):
    assert implicit_role(tag, attrs, ancestors) == role


def test_explicit_role_first_valid_token_wins():
    assert explicit_role({"role": "fancy Button tab"}) == "button"
    assert explicit_role({"role": "image"}) == "img"
    assert explicit_role({"role": "widget"}) is None  # abstract roles are not valid
    assert element_role("div", {"role": "navigation"}) == "navigation"
    assert element_role("a", {"href": "/", "role": "tab"}) == "tab"
    assert element_role("div", {"role": "generic"}) is None


def test_presentation_ignored_on_focusable_elements():
    assert element_role("button", {"role": "presentation"}) == "button"
    assert element_role("div", {"role": "none", "tabindex": "0"}) is None
    assert element_role("table", {"role": "presentation"}) == "presentation"


def test_role_sets_are_consistent():
    assert {"banner", "navigation", "main", "region", "search", "form"} <= LANDMARK_ROLES
    assert {"button", "link", "textbox", "combobox", "gridcell"} <= INTERACTIVE_ROLES
    assert not LANDMARK_ROLES & INTERACTIVE_ROLES
    assert {"button", "link", "heading", "option"} <= NAME_FROM_CONTENT_ROLES
    assert "textbox" not in NAME_FROM_CONTENT_ROLES


def _page(body: str) -> PageState:
    return page_from_html(f"<html><body>{body}</body></html>")


def _first(state: PageState, tag: str, **attrs: str) -> Node:
    for node in state.nodes:
        if node.tag == tag and all(node.attributes.get(k) == v for k, v in attrs.items()):
            return node
    raise AssertionError(f"no <{tag}> with {attrs}")


NAMES = [
    # aria-labelledby beats aria-label and content; referenced aria-label beats its text
    (
        (
            '<span id=a>Billing</span><i id=b aria-label="Address">x</i>'
            '<button aria-labelledby="a b" aria-label="no">Go</button>'
        ),
        "button",
        "Billing Address",
    ),
    ('<button aria-label="Close dialog">×</button>', "button", "Close dialog"),
    ("<label for=q>Search the site</label><input id=q type=text>", "input", "Search the site"),
    ("<label>Quantity <select><option>1</option></select></label>", "select", "Quantity"),
    ('<img src=a.png alt="Company logo">', "img", "Company logo"),
    ('<input type=image src=go.png alt="Go">', "input", "Go"),
    ("<input type=submit>", "input", "Submit"),
    ("<input type=reset>", "input", "Reset"),
    ('<input type=button value="Apply coupon">', "input", "Apply coupon"),
    ('<a href="/cart"><img alt="Cart"> (3 items)</a>', "a", "Cart (3 items)"),
    ('<a href="/x"><span aria-hidden="true">★</span>Favourites</a>', "a", "Favourites"),
    ('<a href="/x" title="Home"></a>', "a", "Home"),
    ('<input type=text placeholder="Where to?">', "input", "Where to?"),
    ('<input type=text title="Destination" placeholder="Where to?">', "input", "Destination"),
    ("<fieldset><legend>Shipping</legend><input></fieldset>", "fieldset", "Shipping"),
    ("<table><caption>Fares</caption><tr><td>1</td></tr></table>", "table", "Fares"),
    ("<h2>  Top   deals </h2>", "h2", "Top deals"),
    ("<textarea>typed</textarea>", "textarea", None),
]


@pytest.mark.parametrize(("html", "tag", "name"), NAMES)
def test_accessible_name(html, tag, name):
    assert _first(_page(html), tag).name == name


def test_states_from_attributes():
    state = _page(
        "<h3>Sub</h3><div role=heading aria-level=5>Deep</div>"
        "<input type=checkbox checked><input type=radio>"
        "<select><option selected>A</option><option>B</option></select>"
        "<button disabled aria-expanded=false aria-pressed=mixed>X</button>"
        "<input required><div role=checkbox aria-checked=mixed></div>"
    )
    assert _first(state, "h3").states == {"level": 3}
    assert _first(state, "div", role="heading").states == {"level": 5}
    assert _first(state, "input", type="checkbox").states == {"checked": True}
    assert _first(state, "input", type="radio").states == {"checked": False}
    options = [n for n in state.nodes if n.tag == "option"]
    assert [o.states["selected"] for o in options] == [True, False]
    button = _first(state, "button")
    assert button.states == {"disabled": True, "expanded": False, "pressed": "mixed"}
    assert _first(state, "input", required="").states == {"required": True}
    assert _first(state, "div", role="checkbox").states == {"checked": "mixed"}


def test_header_scoping_uses_ancestors_within_the_document():
    state = _page("<header>Site</header><article><div><header>Post</header></div></article>")
    headers = [n for n in state.nodes if n.tag == "header"]
    assert [h.role for h in headers] == ["banner", None]


def test_fill_keeps_ax_facts_and_fills_the_rest():
    nodes = [
        Node(0, None, "element", "#document"),
        Node(1, 0, "element", "button", role="menuitem", name="Open", states={"disabled": False},
             attributes={"disabled": ""}),
        Node(2, 1, "text", text="Open file"),
        Node(3, 0, "element", "a", {"href": "/x"}),
        Node(4, 3, "text", text="More"),
    ]  # fmt: skip
    PageState(url="about:blank", title="", nodes=nodes)  # links children
    fill_accessibility(nodes)
    assert (nodes[1].role, nodes[1].name, nodes[1].states) == (
        "menuitem",
        "Open",
        {"disabled": False},
    )
    assert (nodes[3].role, nodes[3].name) == ("link", "More")
    assert nodes[0].role is None and nodes[2].role is None
