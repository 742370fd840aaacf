"""Read HTML that nests deeper than libxml2 allows, with an iterative builder and no depth limit.

libxml2 refuses a document nested deeper than 2048 elements (256 without its huge-tree option)
and drops everything after that point, shallow elements included. ``read_deep_html`` reads such
a document with the standard library's event parser (``html.parser``) into the same node table
``lxml_reader`` builds: open elements on an explicit stack, so depth costs memory, not recursion.
Its repair is simpler than libxml2's: void elements never open, an end tag closes up to the
nearest open element of that name (stray end tags are ignored), and a new ``<p>``, ``<li>``,
``<option>``, ``<tr>``, ``<td>``/``<th>`` or ``<dt>``/``<dd>`` closes an open one of its kind
within the same list, table or paragraph. The reader that used it says so in the page's warnings.
"""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser

from pipeline.html.builder import TreeBuilder

SetValue = Callable[[TreeBuilder, int, "str | None"], None]

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "param", "source", "track", "wbr"})  # fmt: skip
# A start tag of the key closes an open element among the values, up to the nearest boundary.
_IMPLIED_END = {
    "p": {"p"}, "li": {"li"}, "option": {"option"}, "tr": {"tr", "td", "th"},
    "td": {"td", "th"}, "th": {"td", "th"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"},
}  # fmt: skip
_BOUNDARY = frozenset({"ul", "ol", "select", "table", "tbody", "thead", "tfoot", "dl", "div",
                       "body", "html", "template"})  # fmt: skip


def read_deep_html(text: str, set_value: SetValue, max_nodes: int) -> TreeBuilder:
    """Parse ``text`` under a ``#document`` root; ``set_value(builder, node_id, text)`` gives a
    form control its value (``text`` is a textarea's content, else None)."""
    reader = _Reader(set_value, max_nodes)
    reader.feed(text)
    reader.close()
    reader.finish()
    return reader.builder


class _Reader(HTMLParser):
    """Events -> TreeBuilder. The open elements are a stack; ``depths`` holds, per tag, the
    stack positions where it is open, so closing an element never searches the stack."""

    def __init__(self, set_value: SetValue, max_nodes: int) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = TreeBuilder(max_nodes)
        self.set_value = set_value
        self.open: list[tuple[str, int]] = [("#document", self.builder.element(None, "#document", {}))]
        self.depths: dict[str, list[int]] = {}
        self.boundaries: list[int] = [0]
        self.inert = 0  # depth inside <template> (its content is not part of the page)
        self.texts: dict[int, list[str]] = {}  # open textarea -> its text so far

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.inert:
            self.inert += tag == "template"
            return
        self._close_implied(tag)
        node_id = self.builder.element(self.open[-1][1], tag, {k: v or "" for k, v in attrs})
        if tag == "textarea":
            self.texts[node_id] = []
        else:
            self.set_value(self.builder, node_id, None)
        if tag in VOID:
            return
        self.depths.setdefault(tag, []).append(len(self.open))
        if tag in _BOUNDARY:
            self.boundaries.append(len(self.open))
        self.open.append((tag, node_id))
        self.inert = int(tag == "template")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.inert > 1 or (self.inert and tag != "template"):
            self.inert -= tag == "template"
            return
        self.inert = 0
        if self.depths.get(tag):
            self._close_to(self.depths[tag][-1])

    def handle_data(self, data: str) -> None:
        if self.inert or data.isspace():
            return
        parent = self.open[-1][1]
        self.builder.text(parent, data)
        if parent in self.texts:
            self.texts[parent].append(data)

    def finish(self) -> None:
        self._close_to(1)

    def _close_to(self, depth: int) -> None:
        """Close the open elements from the top of the stack down to ``depth``."""
        while len(self.open) > depth:
            tag, node_id = self.open.pop()
            self.depths[tag].pop()
            if self.boundaries[-1] == len(self.open):
                self.boundaries.pop()
            if node_id in self.texts:
                self.set_value(self.builder, node_id, "".join(self.texts.pop(node_id)))

    def _close_implied(self, tag: str) -> None:
        """A start tag that ends an open element of its kind (``<li>`` after an open ``<li>``)."""
        open_at = [self.depths[t][-1] for t in _IMPLIED_END.get(tag, ()) if self.depths.get(t)]
        if open_at and max(open_at) > self.boundaries[-1]:
            self._close_to(max(open_at))
