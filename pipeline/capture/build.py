"""Build a PageState node table from ``DOM.getDocument`` (structure) and a DOMSnapshot (layout).

``DOM.getDocument(depth=-1, pierce=true)`` gives the real DOM tree: shadow roots, unslotted light
children and same-process iframe documents included (the snapshot alone walks the flat tree and
drops them). Each DOM node is joined by backend id to its snapshot facts. The walk is pre-order:
an element, then its shadow roots (``#shadow-root``, ``mode`` attribute), then an iframe's
``#document``, then its light children. Whitespace-only text, comments, doctypes, pseudo elements,
``<template>`` content and the source text of script/style elements are left out.

Bounds are page coordinates: the snapshot gives each document's rects in that document's own
coordinates, so an iframe document's nodes are shifted by the iframe's content-box origin (border
box + border + padding) minus the iframe document's scroll offset. Sensitive field values
(passwords, credit-card and one-time-code autocomplete) are replaced by ``REDACTED``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pipeline.capture.snapshot import Facts, Rect, SnapshotIndex
from pipeline.errors import CaptureError
from pipeline.page_state import Frame, Node, descendants

REDACTED = "•••"
SENSITIVE_AUTOCOMPLETE = frozenset({"one-time-code", "new-password", "current-password"})
_SOURCE_TEXT_TAGS = frozenset({"script", "style", "noscript", "template"})
_NO_VALUE_INPUTS = frozenset(
    {"checkbox", "radio", "button", "submit", "reset", "image", "hidden", "file"}
)
_ELEMENT, _TEXT, _DOCUMENT, _FRAGMENT = 1, 3, 9, 11


@dataclass(frozen=True, slots=True)
class _Item:
    """A DOM node waiting to be emitted, with the context it inherits."""

    dom: dict[str, Any]
    parent: int | None
    frame: int
    in_shadow: bool
    offset: tuple[float, float]
    tag: str = ""  # parent element's tag (to drop script/style source text)


def build_nodes(
    root: dict[str, Any], index: SnapshotIndex, max_nodes: int
) -> tuple[list[Node], list[Frame]]:
    """Node table and frames for the DOM tree ``root`` (a ``#document`` node)."""
    nodes: list[Node] = []
    frames: list[Frame] = []
    stack = [_Item(root, None, 0, False, (0.0, 0.0))]
    while stack:
        item = stack.pop()
        dom = item.dom
        kind = dom.get("nodeType")
        if kind == _TEXT:
            if item.tag not in _SOURCE_TEXT_TAGS and dom.get("nodeValue", "").strip():
                nodes.append(_text_node(len(nodes), item, index))
            continue
        if kind == _DOCUMENT:
            frames.append(Frame(id=len(frames), url=dom.get("documentURL", ""), owner=item.parent))
            frame = len(frames) - 1
            item = _Item(dom, item.parent, frame, item.in_shadow, item.offset)
            node = _document_node(len(nodes), item, index)
        elif kind == _FRAGMENT and dom.get("shadowRootType") in ("open", "closed"):
            node = Node(id=len(nodes), parent=item.parent, kind="element", tag="#shadow-root",
                        attributes={"mode": dom["shadowRootType"]}, backend_id=dom.get("backendNodeId"),
                        frame=item.frame, in_shadow=item.in_shadow)  # fmt: skip
        elif kind == _ELEMENT:
            node = _element_node(len(nodes), item, index)
        else:
            continue
        nodes.append(node)
        if len(nodes) > max_nodes:
            raise CaptureError(
                f"the page has more than max_nodes={max_nodes} nodes; raise browser.max_nodes "
                "to capture it anyway"
            )
        stack.extend(reversed(_children(node, item, index, frames)))
    return nodes, frames


def _children(node: Node, item: _Item, index: SnapshotIndex, frames: list[Frame]) -> list[_Item]:
    """The node's children in document order: shadow roots, iframe document, light children."""
    dom, frame, offset = item.dom, item.frame, item.offset
    out = [_Item(s, node.id, frame, True, offset, node.tag) for s in dom.get("shadowRoots", ())
           if s.get("shadowRootType") in ("open", "closed")]  # fmt: skip
    content = dom.get("contentDocument")
    if content is not None:
        out.append(_Item(content, node.id, frame, False, _frame_offset(node, content, index)))
    elif node.tag in ("iframe", "frame"):
        frames.append(_unreached_frame(node, frames))
    shadow = item.in_shadow or node.tag == "#shadow-root"
    out.extend(_Item(c, node.id, frame, shadow, offset, node.tag) for c in dom.get("children", ()))
    return out


def _unreached_frame(iframe: Node, frames: list[Frame]) -> Frame:
    """A frame whose document the capture cannot see (out of process, or not loaded)."""
    src = iframe.attributes.get("src", "")
    owner_url = frames[iframe.frame].url
    cross = bool(src) and _origin(src, owner_url) != _origin(owner_url, owner_url)
    return Frame(id=len(frames), url=src, owner=iframe.id, cross_origin=cross)


def _origin(url: str, base: str) -> tuple[str, str]:
    parts = urlsplit(url)
    if not parts.scheme:  # relative src: same origin as its document
        parts = urlsplit(base)
    return parts.scheme, parts.netloc


def _frame_offset(
    iframe: Node, content: dict[str, Any], index: SnapshotIndex
) -> tuple[float, float]:
    """Page coordinates of the iframe document's (0, 0): content-box origin minus its scroll."""
    facts = index.facts(iframe.backend_id)
    if iframe.bounds is None or facts is None or facts.client is None:
        return (0.0, 0.0)
    pad_left, pad_top = facts.padding()
    x = iframe.bounds[0] + facts.client[0] + pad_left
    y = iframe.bounds[1] + facts.client[1] + pad_top
    doc_facts = index.facts(content.get("backendNodeId"))
    scroll_x, scroll_y = index.doc_scroll(doc_facts.doc) if doc_facts else (0.0, 0.0)
    return (x - scroll_x, y - scroll_y)


def _shift(rect: Rect | None, offset: tuple[float, float]) -> Rect | None:
    if rect is None:
        return None
    return (rect[0] + offset[0], rect[1] + offset[1], rect[2], rect[3])


def _document_node(node_id: int, item: _Item, index: SnapshotIndex) -> Node:
    facts = index.facts(item.dom.get("backendNodeId"))
    bounds = None
    if facts is not None and facts.bounds is not None:
        scroll = index.doc_scroll(facts.doc) if item.frame else (0.0, 0.0)
        bounds = _shift(facts.bounds, (item.offset[0] + scroll[0], item.offset[1] + scroll[1]))
    return Node(id=node_id, parent=item.parent, kind="element", tag="#document", bounds=bounds,
                paint_order=facts.paint_order if facts else None,
                backend_id=item.dom.get("backendNodeId"), frame=item.frame)  # fmt: skip


def _text_node(node_id: int, item: _Item, index: SnapshotIndex) -> Node:
    facts = index.facts(item.dom.get("backendNodeId"))
    return Node(id=node_id, parent=item.parent, kind="text", text=item.dom["nodeValue"],
                bounds=_shift(facts.bounds, item.offset) if facts else None,
                paint_order=facts.paint_order if facts else None,
                backend_id=item.dom.get("backendNodeId"), frame=item.frame,
                in_shadow=item.in_shadow)  # fmt: skip


def _element_node(node_id: int, item: _Item, index: SnapshotIndex) -> Node:
    dom = item.dom
    flat = dom.get("attributes", [])
    attributes = dict(zip(flat[::2], flat[1::2], strict=False))
    tag = (dom.get("localName") or dom.get("nodeName", "")).lower()
    node = Node(id=node_id, parent=item.parent, kind="element", tag=tag, attributes=attributes,
                backend_id=dom.get("backendNodeId"), frame=item.frame, in_shadow=item.in_shadow)  # fmt: skip
    facts = index.facts(node.backend_id)
    if facts is not None:
        _apply_facts(node, facts, item.offset)
    if is_sensitive(tag, attributes):
        redact(node)
    return node


def _apply_facts(node: Node, facts: Facts, offset: tuple[float, float]) -> None:
    """Layout, styles, scroll and live form state from the snapshot."""
    node.bounds = _shift(facts.bounds, offset)
    node.paint_order = facts.paint_order
    node.styles = facts.style_dict()
    if facts.scroll and facts.client:
        overflows_x = facts.scroll[2] > facts.client[2] + 1
        overflows_y = facts.scroll[3] > facts.client[3] + 1
        if overflows_x or overflows_y:
            node.scroll = facts.scroll
    tag, attrs = node.tag, node.attributes
    if tag == "input":
        kind = attrs.get("type", "text").lower()
        if kind in ("checkbox", "radio"):
            node.states["checked"] = facts.checked
        elif kind not in _NO_VALUE_INPUTS and facts.input_value is not None:
            node.value = facts.input_value
    elif tag == "textarea" and facts.text_value is not None:
        node.value = facts.text_value
    elif tag == "option":
        node.states["selected"] = facts.selected
    if facts.clickable:
        node.states["clickable"] = True


def is_sensitive(tag: str, attributes: dict[str, str]) -> bool:
    """A password field or one whose autocomplete names a credential or card detail."""
    if tag not in ("input", "textarea"):
        return False
    if tag == "input" and attributes.get("type", "").lower() == "password":
        return True
    tokens = attributes.get("autocomplete", "").lower().split()
    return any(t.startswith("cc-") or t in SENSITIVE_AUTOCOMPLETE for t in tokens)


def redact(node: Node) -> None:
    """Replace a sensitive node's live value and ``value`` attribute, and flag it."""
    secret = bool(node.value) or bool(node.attributes.get("value"))
    if node.value:
        node.value = REDACTED
    if node.attributes.get("value"):
        node.attributes["value"] = REDACTED
    if secret:
        node.states["redacted"] = True


def fill_select_values(nodes: list[Node]) -> None:
    """A ``<select>``'s value is the text of its selected option(s), as a user sees it."""
    for node in nodes:
        if node.tag != "select" or node.value is not None:
            continue
        chosen = [_text_of(nodes, c) for c in descendants(nodes, node.id)
                  if nodes[c].tag == "option" and nodes[c].states.get("selected")]  # fmt: skip
        if chosen:
            node.value = ", ".join(chosen)


def _text_of(nodes: list[Node], node_id: int) -> str:
    parts = [nodes[c].text for c in descendants(nodes, node_id) if nodes[c].kind == "text"]
    return " ".join(" ".join(parts).split())
