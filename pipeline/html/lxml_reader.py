"""Read an ordinary HTML document into a node table with lxml (libxml2's HTML parser).

The parser repairs the markup the way browsers roughly do. Comments and processing instructions
are dropped, ``<template>`` content is ignored (it is inert in a browser), ``<script>`` and
``<style>`` stay as nodes with their text (the noise pass removes them later), and
whitespace-only text between tags is dropped (it carries no content). There is no layout.
Form controls get their value from the markup: ``value`` of text-like inputs, the text of a
``<textarea>``.

libxml2 reads documents nested up to 2048 elements deep (its huge-tree option; 256 without it).
Past that it stops and drops the rest of the document, so a deeper document is read again by
``pipeline.html.deep_reader`` (no depth limit) and the returned warning says so.
"""

from __future__ import annotations

from lxml import etree

from pipeline.html.builder import TreeBuilder, over_limit
from pipeline.html.deep_reader import read_deep_html
from pipeline.page_state import MAX_NODES

LIBXML2_MAX_DEPTH = 2048

_NO_VALUE_TYPES = frozenset(
    {"checkbox", "radio", "submit", "reset", "button", "image", "file", "hidden"}
)


def read_html(text: str, max_nodes: int = MAX_NODES) -> tuple[TreeBuilder, list[str]]:
    """Parse ``text`` (an HTML document or fragment) under a ``#document`` root; returns the
    node table and the warnings a reader of the page should see (empty when all went well).
    More than ``max_nodes`` elements are refused right after libxml2's parse, before any node
    is built (NodeLimitError)."""
    parser = etree.HTMLParser(huge_tree=True)  # plain elements: no Python class lookup per node
    try:
        root = etree.fromstring(text, parser)
    except (etree.ParserError, ValueError) as exc:
        raise ValueError(f"lxml could not parse the document: {exc}") from None
    if root is None:
        raise ValueError("lxml could not parse the document: Document is empty")
    if any("Excessive depth" in entry.message for entry in parser.error_log):
        builder = read_deep_html(text, _set_value, max_nodes)
        warning = (f"the document nests deeper than {LIBXML2_MAX_DEPTH} elements (libxml2's "
                   f"limit); read with the iterative reader ({len(builder.nodes):,} nodes, "
                   "simpler repair of malformed markup)")
        return builder, [warning]
    if root.xpath("count(//*)") > max_nodes:
        raise over_limit(max_nodes)
    return _build(root, max_nodes), []


def _build(root: etree._Element, max_nodes: int) -> TreeBuilder:
    builder = TreeBuilder(max_nodes)
    document = builder.element(None, "#document", {})
    # Work items: an element to open under a parent, or a text to append to a parent.
    stack: list[tuple[etree._Element | str, int]] = [(root, document)]
    while stack:
        item, parent = stack.pop()
        if isinstance(item, str):
            if not item.isspace():
                builder.text(parent, item)
            continue
        node_id = builder.element(parent, item.tag.lower(), dict(item.attrib))
        _set_value(builder, node_id, item.xpath("string()") if item.tag == "textarea" else None)
        if item.tag == "template":
            continue
        pending: list[tuple[etree._Element | str, int]] = []
        if item.text:
            pending.append((item.text, node_id))
        for child in item:
            if isinstance(child.tag, str):
                pending.append((child, node_id))
            if child.tail:
                pending.append((child.tail, node_id))
        stack.extend(reversed(pending))
    return builder


def _set_value(builder: TreeBuilder, node_id: int, text: str | None) -> None:
    """A form control's value from its markup (``text``: a textarea's content)."""
    node = builder.nodes[node_id]
    if node.tag == "input":
        kind = node.attributes.get("type", "text").lower()
        if kind not in _NO_VALUE_TYPES:
            node.value = node.attributes.get("value", "")
    elif node.tag == "textarea":
        node.value = text or ""
