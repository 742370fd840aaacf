"""Write a PageState as Mind2Web HTML: the inverse of ``pipeline.html.source`` for Mind2Web kinds.

    to_mind2web_raw_html(state) -> str       # what Mind2Web stores as ``raw_html``
    to_mind2web_cleaned_html(state) -> str   # what it stores as ``cleaned_html``

``raw_html`` is built the way Mind2Web builds it from a CDP snapshot (an lxml tree serialised by
libxml2's HTML writer): every node is an element with ``backend_node_id`` and
``bounding_box_rect``, text nodes are ``<text>`` elements, attribute names are sanitised, and the
snapshot facts become ``text_value``/``input_value``/``input_checked``/``option_selected``/
``pseudo_type``/``is_clickable`` attributes (and, this project's addition, ``scroll_rect`` on an
element that scrolls). A document is written as its ``<html>`` element (as
Mind2Web does), or as ``ROOT_DCOUMENT`` when it has none. Nodes without a backend id get fresh
ids above the page's largest. What libxml2's writer changes is lost on a round trip: non-ASCII
characters in ``href``/``src`` are %-escaped, a boolean attribute whose value equals its name is
written bare, and void elements (``<input>``, ``<img>``) lose any children.

``cleaned_html`` follows Mind2Web's cleaner: no head, script, style or other noise; invisible
nodes dropped (no layout box, ``display:none``, ``visibility:hidden``, ``hidden``); nodes with
neither text nor an interactive element below them dropped; only ``backend_node_id`` and the
salient attributes kept (role presentation/none/link and type=hidden dropped, as Mind2Web does);
wrappers with nothing but an id and at most one child unwrapped; pretty-printed, no layout.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import lxml.html
from lxml import etree

from pipeline.aria import INTERACTIVE_ROLES
from pipeline.html import mind2web_format as m2w
from pipeline.page_state import Node, PageState

DOCTYPE = (
    '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN" '
    '"http://www.w3.org/TR/REC-html40/loose.dtd">'
)
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_NOISE_TAGS = frozenset(
    {"head", "script", "style", "noscript", "template", "meta", "link", "base", "title"}
)
_INTERACTIVE_TAGS = frozenset({"a", "button", "input", "select", "textarea", "option", "summary"})
_DROPPED_ROLES = frozenset({"presentation", "none", "link"})


def to_mind2web_raw_html(state: PageState) -> str:
    """``raw_html`` for the page, as Mind2Web writes it (doctype line + ``<html>`` tree)."""
    ids = _backend_ids(state)
    elements: list[etree._Element | None] = [None] * len(state.nodes)
    documents: list[etree._Element] = []
    for node in state.nodes:
        element = _raw_element(node, ids[node.id])
        if node.tag == "#document":
            documents.append(element)
        elements[node.id] = element
        if node.parent is not None:
            elements[node.parent].append(element)
    root = elements[0]
    for document in documents:
        root = _unwrap_document(document, root)
    return DOCTYPE + "\n" + lxml.html.tostring(root, encoding="unicode") + "\n"


def to_mind2web_cleaned_html(state: PageState, keep_backend_ids: Collection[int] = ()) -> str:
    """``cleaned_html`` for the page; elements whose backend id is in ``keep_backend_ids``
    (e.g. the action's candidates) are never dropped or unwrapped."""
    ids = _backend_ids(state)
    keep = _cleaned_keep(state, ids, frozenset(keep_backend_ids))
    elements: dict[int, etree._Element] = {}
    root: etree._Element | None = None
    for node in state.nodes:
        if not keep[node.id]:
            continue
        parent = node.parent
        while parent is not None and parent not in elements:
            parent = state.nodes[parent].parent  # attach below the nearest written ancestor
        element = _cleaned_element(node, ids[node.id])
        if element is None:
            continue
        elements[node.id] = element
        if parent is not None:
            elements[parent].append(element)
        elif root is None:
            root = element
        else:
            root.append(element)
    if root is None:
        return ""
    _unwrap_wrappers(root, {str(i) for i in keep_backend_ids})
    return lxml.html.tostring(root, encoding="unicode", pretty_print=True)


# --- raw_html ---------------------------------------------------------------------------------
def _backend_ids(state: PageState) -> list[int]:
    """Each node's backend id; nodes without one get ``max + 1 + node id`` (unique, stable)."""
    top = max((n.backend_id for n in state.nodes if n.backend_id is not None), default=0)
    return [n.backend_id if n.backend_id is not None else top + 1 + n.id for n in state.nodes]


def _raw_element(node: Node, backend_id: int) -> etree._Element:
    attrs = {m2w.ID_ATTR: str(backend_id), m2w.RECT_ATTR: m2w.format_rect(node.bounds)}
    if node.kind == "text":
        element = etree.Element(m2w.TEXT_TAG, attrs)
        element.text = _clean(node.text)
        return element
    tag = "ROOT_DCOUMENT" if node.tag == "#document" else m2w.sanitize_tag(node.tag)
    if not node.is_fragment:
        for name, value in node.attributes.items():
            safe = m2w.sanitize_attribute_name(name)
            if safe and not m2w.is_leak_marker(safe):
                attrs[safe] = _clean(value)
        attrs.update(_fact_attributes(node))
    element = etree.Element(tag, attrs)
    element.text = ""
    return element


def _fact_attributes(node: Node) -> dict[str, str]:
    """The snapshot facts Mind2Web writes as attributes, in its order, then the scroll box."""
    out: dict[str, str] = {}
    states = node.states
    if node.value is not None:
        if node.tag == "textarea":
            out["text_value"] = _clean(node.value)
        elif node.tag == "input":
            out["input_value"] = _clean(node.value)
    if node.tag == "input" and states.get("checked") is True:
        out["input_checked"] = "true"
    if node.tag == "option" and states.get("selected") is True:
        out["option_selected"] = "true"
    if states.get("pseudo_type"):
        out["pseudo_type"] = str(states["pseudo_type"])
    if states.get("clickable") is True:
        out["is_clickable"] = "true"
    if node.scrolls:
        out[m2w.SCROLL_ATTR] = m2w.format_rect(node.scroll)
    return out


def _unwrap_document(document: etree._Element, root: etree._Element) -> etree._Element:
    """Mind2Web writes a document as its non-empty ``<html>`` child; returns the new root."""
    html = next((c for c in document if c.tag == "html" and len(c)), None)
    if html is None:
        return root
    parent = document.getparent()
    if parent is None:
        return html
    parent.replace(document, html)
    return root


def _clean(value: str) -> str:
    return _XML_INVALID.sub("", value)


# --- cleaned_html -----------------------------------------------------------------------------
def _cleaned_keep(state: PageState, ids: list[int], keep_ids: frozenset[int]) -> list[bool]:
    """Which nodes ``cleaned_html`` writes: visible, not noise, with content or interaction."""
    nodes = state.nodes
    hidden = [False] * len(nodes)
    unboxed = [False] * len(nodes)  # inside a <select>: options have no layout boxes of their own
    for node in nodes:
        parent = node.parent
        if parent is not None:
            hidden[node.id] = hidden[parent]
            unboxed[node.id] = unboxed[parent] or nodes[parent].tag == "select"
        layout = state.has_layout and not unboxed[node.id]
        hidden[node.id] = hidden[node.id] or _invisible(node, layout)
    keep = [False] * len(nodes)
    for node in reversed(nodes):
        i = node.id
        if ids[i] in keep_ids and node.kind == "element":
            keep[i] = True
        elif hidden[i]:
            continue
        elif node.kind == "text":
            keep[i] = bool(node.text.strip())
        else:
            keep[i] = _meaningful(node) or any(keep[c] for c in node.children)
    for node in nodes:  # an ancestor of anything written is written (for the tree's shape)
        if keep[node.id] and node.parent is not None:
            keep[node.parent] = True
    return keep


def _invisible(node: Node, has_layout: bool) -> bool:
    if node.kind == "text":
        return has_layout and node.bounds is None
    attrs = node.attributes
    if node.tag in _NOISE_TAGS or (node.tag == "input" and attrs.get("type") == "hidden"):
        return True
    if node.styles.get("display") == "none" or node.styles.get("visibility") == "hidden":
        return True
    if "hidden" in attrs or _inline_display_none(attrs.get("style", "")):
        return True
    if has_layout and node.is_element:
        return node.bounds is None and node.tag not in ("html", "body")
    return False


def _inline_display_none(style: str) -> bool:
    compact = style.replace(" ", "").lower()
    return "display:none" in compact or "visibility:hidden" in compact


def _meaningful(node: Node) -> bool:
    """An element worth keeping by itself: interactive, or labelled without text."""
    if not node.is_element:
        return False
    if node.tag in _INTERACTIVE_TAGS or node.role in INTERACTIVE_ROLES:
        return True
    if node.states.get("clickable") is True:
        return True
    attrs = node.attributes
    return any(attrs.get(key, "").strip() for key in ("alt", "aria-label", "title"))


def _unwrap_wrappers(root: etree._Element, keep: set[str]) -> None:
    """Lift the child of elements that carry nothing but their id and no text (Mind2Web)."""
    for element in reversed(list(root.iter())):
        parent = element.getparent()
        if parent is None or element.tag == m2w.TEXT_TAG or len(element.attrib) != 1:
            continue
        if len(element) > 1 or element.get(m2w.ID_ATTR) in keep:
            continue
        if any(child.tag == m2w.TEXT_TAG for child in element):
            continue
        for child in element:
            element.addprevious(child)
        parent.remove(element)


def _cleaned_element(node: Node, backend_id: int) -> etree._Element | None:
    attrs = {m2w.ID_ATTR: str(backend_id)}
    if node.kind == "text":
        element = etree.Element(m2w.TEXT_TAG, attrs)
        element.text = _clean(" ".join(node.text.split()))
        return element
    if node.tag == "#document":
        return None  # Mind2Web writes the <html> element itself
    for name, value in list(node.attributes.items()) + list(_fact_attributes(node).items()):
        safe = m2w.sanitize_attribute_name(name)
        value = " ".join(_clean(value).split())
        if not value or not (safe in m2w.CLEANED_ATTRS or safe.startswith("aria_")):
            continue
        if (safe == "role" and value in _DROPPED_ROLES) or (safe == "type" and value == "hidden"):
            continue
        attrs[safe] = value
    return etree.Element(m2w.sanitize_tag(node.tag), attrs)
