"""``get_region``: one landmark (optionally one heading's section in it) in one of three views.

    get_region(page, "MAIN", heading_scope="Kitchen", content_type="interactive")

``interactive`` lists the region's elements in the shared format with its headings as markdown
(for clicking and typing); ``text`` gives the readable content only -- headings, paragraphs,
prices, link texts, a table's rows one a line (``Religion | Sikhism``) -- without refs (for
reading); ``full`` is the flat rendering of the region, hierarchy preserved. Every view is
capped (``LIMITS``) with a line saying how much was left out.
The landmark is named as ``query_elements`` accepts it (``MAIN``, ``NAV:Primary``, ``PAGE``);
an unknown landmark, heading or content type comes back as an error text listing what exists.
"""

from __future__ import annotations

from dataclasses import replace

from pipeline.distill.model import DistilledPage, DNode
from pipeline.query.criteria import unknown_heading, unknown_landmark
from pipeline.query.filters import (
    best_headings,
    landmark_span,
    landmark_spec,
    nested_landmarks,
    resolve_landmarks,
    section_span,
)
from pipeline.query.index import PageIndex, index_for
from pipeline.query.summary import kind_counts
from pipeline.render import render_flat
from pipeline.render.walk import format_item, walk

CONTENT_TYPES = {
    "interactive": "interactive", "input_fields": "interactive", "elements": "interactive",
    "text": "text", "text_only": "text", "full": "full", "all": "full", "all_fields": "full",
}  # fmt: skip
LIMITS = {"interactive": 60, "text": 80, "full": 120}  # lines
_TEXT_LIMIT = 200  # characters of one text line in the text view


def get_region(
    page: DistilledPage,
    landmark: str,
    heading_scope: str | None = None,
    content_type: str = "interactive",
) -> str:
    index = index_for(page)
    view = CONTENT_TYPES.get(str(content_type or "interactive").strip().lower())
    if view is None:
        return f'Error: content_type "{content_type}" is not one of interactive, text, full.'
    spec = str(landmark or "PAGE").strip()
    found = resolve_landmarks(index, spec)
    if found == []:
        return unknown_landmark(page, spec)
    spans = [(landmark_spec(lm), landmark_span(index, lm)) for lm in found or []] or [
        ("PAGE", None)
    ]
    if heading_scope:
        within = nested_landmarks(index, found) if found else None
        headings = best_headings(index, str(heading_scope), within)
        if not headings:
            return unknown_heading(page, str(heading_scope), spec)
        spans = _sections(index, spans, headings)
    blocks = []
    for title, span in spans:
        root = page.root if span is None else slice_tree(page.root, *span)
        if root is not None:
            blocks.append(_view(index, root, title, view))
    return _cap("\n".join(blocks), LIMITS[view])


def _sections(index: PageIndex, spans, headings) -> list[tuple[str, tuple[int, int] | None]]:
    """The heading sections, each cut to the landmark span holding it."""
    out = []
    for heading in headings:
        lo, hi = section_span(index, heading)
        for name, span in spans:
            if span is None or span[0] <= lo <= span[1]:
                bounds = (lo, hi) if span is None else (lo, min(hi, span[1]))
                out.append((f'{name} › "{heading.text}"', bounds))
                break
    return out


def slice_tree(root: DNode, lo: int, hi: int) -> DNode | None:
    """A copy of the kept tree holding the nodes with ids in [lo, hi] and their ancestors."""
    built: dict[int, DNode] = {}
    stack: list[tuple[DNode, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children)
            continue
        kids = [built.pop(id(c)) for c in node.children if id(c) in built]
        if kids or lo <= node.node_id <= hi:
            same = len(kids) == len(node.children) and all(
                a is b for a, b in zip(kids, node.children)
            )
            built[id(node)] = node if same else replace(node, children=kids)
    return built.get(id(root))


def _view(index: PageIndex, root: DNode, title: str, view: str) -> str:
    page = index.page
    refs = [node.ref for node in root.walk() if node.ref is not None]
    head = f"{title}: {len(refs)} elements ({kind_counts(index, refs)})"
    if view == "full":
        return head + "\n" + render_flat(replace(page, root=root, derived={}))
    items = walk(root, {h.node_id: h.level for h in page.headings}, rows=view == "text")
    lines = [head]
    for item in items:
        if view == "interactive" and item.kind in ("heading", "element", "scroll"):
            lines.append(format_item(item, page.state, set(), 100, None))
        elif view == "text":
            text = _plain(item)
            if text and (len(lines) == 1 or lines[-1] != text):
                lines.append(text)
    return "\n".join(lines)


def _plain(item) -> str:
    """An item's readable text: headings as markdown, elements by their text, no refs."""
    if item.kind == "heading":
        text = " ".join(part.text for part in item.parts if part.text)
        return f"{'#' * item.level} {text}" if text else ""
    if item.kind in ("text", "element", "scroll"):
        return item.text[:_TEXT_LIMIT]
    return ""


def _cap(text: str, limit: int) -> str:
    lines = text.split("\n")
    if len(lines) <= limit:
        return text
    more = len(lines) - limit
    return "\n".join(lines[:limit] + [
        f"… {more} more lines: narrow with heading_scope, or use query_elements"
    ])  # fmt: skip
