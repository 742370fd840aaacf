"""Read Mind2Web ``raw_html``/``cleaned_html`` into a node table, exactly as written.

Mind2Web's HTML is machine-written from a DOM snapshot: every non-void element has an end tag and
text sits in ``<text>`` elements. An HTML5 parser would "fix" that tree (close a ``<p>`` before a
``<div>``, fold nested ``<html>``/``<body>`` of inlined iframes into the outer ones, treat the
``<text>`` children of ``<title>``/``<script>`` as raw text), so this module uses a small regex
tokenizer that keeps the tree as written: an end tag closes the nearest open element of that
name, stray end tags are ignored, void elements never open.

Facts are mapped as ``pipeline.html.mind2web_format`` describes: ``backend_node_id`` ->
``Node.backend_id``, ``bounding_box_rect`` -> ``bounds`` (raw only), ``input_value``/``text_value``
-> ``value``, ``input_checked``/``option_selected``/``is_clickable``/``pseudo_type`` -> states,
``scroll_rect`` -> ``scroll`` with an ``overflow`` that scrolls (raw only);
these and the label-leak markers are removed from the attributes, the remaining names restored
(their case is kept: CDP reports SVG's ``viewBox`` as written).
Errors are raised as ValueError naming the offset; ``html_source`` adds the source's name.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from pipeline.html import mind2web_format as m2w
from pipeline.html.builder import TreeBuilder
from pipeline.page_state import MAX_NODES

_ATTRS = r"""((?:[^>"']|"[^"]*"|'[^']*')*)"""
_TOKEN = re.compile(
    r"<(?:(?P<open>[A-Za-z][^\s/>]*)" + _ATTRS + r">"
    r"|/(?P<close>[A-Za-z][^\s/>]*)[^>]*>"
    r"|!--.*?-->|![^>]*>|\?[^>]*>)",
    re.DOTALL,
)
_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?""")
_TEXT_IN_RAW = re.compile(r"<text\b" + _ATTRS + r">(.*?)</text\s*>", re.DOTALL | re.IGNORECASE)
_RAW_END = {tag: re.compile(rf"</{tag}\s*>", re.IGNORECASE) for tag in ("script", "style")}
_TEXT_END = re.compile(r"</text\s*>", re.IGNORECASE)
_VOID = frozenset(
    {
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
        "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
    }
)  # fmt: skip
_SYNTHETIC = ""  # stack tag of a #document the reader inserted (no element in the source)


def read_mind2web(text: str, layout: bool, max_nodes: int = MAX_NODES) -> TreeBuilder:
    """Parse Mind2Web HTML; ``layout`` reads ``bounding_box_rect`` (raw_html) into bounds."""
    reader = _Reader(text, layout, max_nodes)
    reader.run()
    return reader.builder


class _Reader:
    def __init__(self, text: str, layout: bool, max_nodes: int) -> None:
        self.src = text
        self.layout = layout
        self.pos = 0
        self.builder = TreeBuilder(max_nodes)
        self.stack: list[tuple[str, int]] = []  # (tag as written, node id) of open elements

    def run(self) -> None:
        src, search = self.src, _TOKEN.search
        while True:
            match = search(src, self.pos)
            end = match.start() if match else len(src)
            if end > self.pos:
                self._loose_text(src[self.pos : end])
            if match is None:
                return
            self.pos = match.end()
            if match.group("open"):
                self._start(match.group("open").lower(), match.group(2))
            elif match.group("close"):
                self._end(match.group("close").lower())

    # --- start tags ---------------------------------------------------------------------
    def _start(self, tag: str, attr_text: str) -> None:
        closed = attr_text.endswith("/")
        if tag == m2w.TEXT_TAG and self._text_node(attr_text, closed):
            return
        if tag.startswith("hash-") and tag != m2w.SHADOW_TAG:
            self._skip_to_end(tag, closed)  # comments, CDATA: not part of the page
            return
        parent = self._parent_for(tag)
        attributes, facts = self._facts(attr_text, tag)
        if tag == m2w.DOCUMENT_TAG:
            tag_out = "#document"
        elif tag == m2w.SHADOW_TAG:
            tag_out, attributes = "#shadow-root", {"mode": "open"}
        elif tag.startswith("pseudo-"):
            tag_out = "::" + tag[7:]
        else:
            tag_out = tag
        node_id = self.builder.element(parent, tag_out, attributes, **facts)
        if tag in _RAW_END and not closed:
            self._raw_text(tag, node_id)
        elif tag not in _VOID and not closed:
            self.stack.append((tag, node_id))

    def _parent_for(self, tag: str) -> int | None:
        """The parent of a new element, inserting the #document fragments Mind2Web leaves out:
        one above a top-level ``<html>`` and one between an iframe and its inlined ``<html>``."""
        builder = self.builder
        if not builder.nodes:
            if tag == m2w.DOCUMENT_TAG:
                return None
            self.stack.append((_SYNTHETIC, builder.element(None, "#document", {})))
        if not self.stack:
            return 0
        parent = self.stack[-1][1]
        if tag == "html" and builder.nodes[parent].tag != "#document":
            parent = builder.element(parent, "#document", {})
            self.stack.append((_SYNTHETIC, parent))
        return parent

    def _text_node(self, attr_text: str, closed: bool) -> bool:
        """A ``<text>`` element is a text node unless its content holds markup (SVG's own
        ``<text>`` element, whose text sits in nested ``<text>`` nodes). Returns False then."""
        if closed:
            content, after = "", self.pos
        else:
            match = _TEXT_END.search(self.src, self.pos)
            end = match.start() if match else len(self.src)
            content, after = self.src[self.pos : end], match.end() if match else end
            if "<" in content:
                return False
        if self.stack:
            facts = self._text_facts(attr_text)
            self.builder.text(self.stack[-1][1], unescape(content), **facts)
        self.pos = after
        return True

    def _raw_text(self, tag: str, node_id: int) -> None:
        """Content of ``<script>``/``<style>``: raw up to the end tag, holding ``<text>`` nodes."""
        match = _RAW_END[tag].search(self.src, self.pos)
        end = match.start() if match else len(self.src)
        content = self.src[self.pos : end]
        self.pos = match.end() if match else end
        found = False
        for text_match in _TEXT_IN_RAW.finditer(content):
            found = True
            facts = self._text_facts(text_match.group(1))
            self.builder.text(node_id, unescape(text_match.group(2)), **facts)
        if not found and content.strip():
            self.builder.text(node_id, content)

    def _skip_to_end(self, tag: str, closed: bool) -> None:
        if not closed:
            end_tag = f"</{tag}>"
            end = self.src.find(end_tag, self.pos)
            self.pos = end + len(end_tag) if end >= 0 else len(self.src)

    def _loose_text(self, chunk: str) -> None:
        """Text outside ``<text>`` elements: indentation is dropped, real text kept."""
        if self.stack and not chunk.isspace():
            self.builder.text(self.stack[-1][1], unescape(chunk))

    # --- end tags -----------------------------------------------------------------------
    def _end(self, tag: str) -> None:
        stack = self.stack
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == tag:
                del stack[depth:]
                if tag == "html" and stack and stack[-1][0] == _SYNTHETIC:
                    stack.pop()
                return

    # --- attributes ---------------------------------------------------------------------
    def _facts(self, attr_text: str, tag: str) -> tuple[dict[str, str], dict[str, Any]]:
        """Split written attributes into page attributes and Node facts."""
        attributes: dict[str, str] = {}
        facts: dict[str, Any] = {}
        extra: dict[str, str] = {}
        for name, dq, sq, bare in _ATTR.findall(attr_text):
            value = dq or sq or bare
            if "&" in value:
                value = unescape(value)
            if name == m2w.ID_ATTR:
                facts["backend_id"] = self._backend_id(value)
            elif name == m2w.RECT_ATTR:
                if self.layout:
                    facts["bounds"] = self._rect(value)
            elif name == m2w.SCROLL_ATTR:
                if self.layout:  # written for an element that scrolls: its overflow let it
                    facts["scroll"] = self._rect(value)
                    facts["styles"] = {"overflow": "auto"}
            elif name in m2w.FACT_ATTRS:
                extra[name] = value
            elif not m2w.is_leak_marker(name):
                attributes[m2w.restore_attribute_name(name)] = value
        states = _states(tag, attributes, extra)
        if states:
            facts["states"] = states
        value = extra.get("input_value", extra.get("text_value"))
        if value is not None:
            facts["value"] = value
        return attributes, facts

    def _text_facts(self, attr_text: str) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        for name, dq, sq, bare in _ATTR.findall(attr_text):
            if name == m2w.ID_ATTR:
                facts["backend_id"] = self._backend_id(dq or sq or bare)
            elif name == m2w.RECT_ATTR and self.layout:
                facts["bounds"] = self._rect(dq or sq or bare)
        return facts

    def _backend_id(self, value: str) -> int:
        try:
            return int(value)
        except ValueError:
            raise ValueError(
                f"backend_node_id {value!r} near offset {self.pos} is not an integer"
            ) from None

    def _rect(self, value: str) -> tuple[float, float, float, float] | None:
        try:
            return m2w.parse_rect(value)
        except ValueError as exc:
            raise ValueError(f"{exc} near offset {self.pos}") from None


def _states(tag: str, attributes: dict[str, str], extra: dict[str, str]) -> dict[str, Any]:
    states: dict[str, Any] = {}
    if tag == "input" and attributes.get("type", "").lower() in ("checkbox", "radio"):
        states["checked"] = extra.get("input_checked") == "true"
    elif "input_checked" in extra:
        states["checked"] = extra["input_checked"] == "true"
    if tag == "option" or "option_selected" in extra:
        states["selected"] = extra.get("option_selected") == "true"
    if extra.get("is_clickable") == "true":
        states["clickable"] = True
    if extra.get("pseudo_type"):
        states["pseudo_type"] = extra["pseudo_type"]
    return states
