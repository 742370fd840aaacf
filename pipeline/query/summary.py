"""``get_page_summary``: where the model is and what the page holds, in a few lines.

    Page: "Acme Store — All products" https://shop.test/
    Scroll: top of page, 7.5 pages below
    Elements: 427 (210 links, 201 buttons, 15 inputs, 1 other)
    Text fields (3, 2 empty): Search (empty), Min price (empty), Max price (holds "90")
    Landmarks:
      HEADER (3 links, 1 button, 1 input)
        SEARCH (1 button, 1 input)
      MAIN (200 links, 200 buttons)
        REGION:Kitchen (50 links, 50 buttons)
      (outside landmarks: 2 links)
    Headings:
      ## Filter (ASIDE:Filters, 8 elements)
      # All products (MAIN, 400 elements)
        ## Kitchen (MAIN, 100 elements; 50 subheadings)

Headings are shown down to the deepest level that fits in ``HEADING_LINES`` lines; deeper ones are
counted on their parent line. Counts are by kind: links, buttons, inputs (every form control),
other. The text fields line is the form's progress at a glance (the first ``FIELDS_SHOWN`` fields
in page order, each named as the query results name it, with what it holds: a hidden value as
"filled"), so that a model filling several fields sees which are still empty without a query.
"""

from __future__ import annotations

from collections import Counter

from pipeline.distill.attributes import REDACTED
from pipeline.distill.model import DistilledPage
from pipeline.query.filters import landmark_spec
from pipeline.query.index import PageIndex, index_for
from pipeline.render.elements import element_kind, trim_text

HEADING_LINES = 30
FIELDS_SHOWN = 5  # text fields named on the overview's fields line at most
_HEADING_TEXT = 60
_FIELD_TEXT = 30  # a field's name and value, each cut to this
_INPUT_KINDS = frozenset({
    "input", "select", "combobox", "listbox", "checkbox", "radio", "slider", "switch", "file input",
})  # fmt: skip
_KIND_ORDER = ("link", "button", "input", "other")


def get_page_summary(page: DistilledPage) -> str:
    """The overview plus the heading table of contents."""
    return "\n".join([page_overview(page), *_heading_lines(index_for(page))])


def page_overview(page: DistilledPage) -> str:
    """Page, scroll, element counts and landmarks: what the ``query_only`` mode shows."""
    index = index_for(page)
    state = page.state
    title = f'"{state.title}" ' if state.title else ""
    lines = [f"Page: {title}{state.shown_url}".rstrip(), scroll_line(page)]
    lines.append(f"Elements: {len(page.refs)} ({kind_counts(index, page.refs)})" if page.refs
                 else "Elements: none")  # fmt: skip
    lines.append(fields_line(index))
    lines.extend(_landmark_lines(index))
    return "\n".join(line for line in lines if line)


def scroll_line(page: DistilledPage) -> str:
    """``Scroll: 1.0 pages above, 2.5 pages below`` from the viewport and document size."""
    state = page.state
    if state.document_size is None or not state.has_layout:
        return ""
    height = float(state.viewport[1]) or 1.0
    top = state.scroll[1]
    above = top / height
    below = max(0.0, (state.document_size[1] - top - height) / height)
    first = "top of page" if above < 0.05 else f"{above:.1f} pages above"
    last = "end of page" if below < 0.05 else f"{below:.1f} pages below"
    return f"Scroll: {first}, {last}"


def fields_line(index: PageIndex) -> str:
    """``Text fields: Username (empty), Password (filled)``; with more than ``FIELDS_SHOWN``
    fields, ``Text fields (12, 9 empty): <the first five>, and 7 more``; "" without any."""
    fields = [ref for ref, entry in index.entries.items()
              if element_kind(index.state, entry.dnode) == "input"]
    if not fields:
        return ""
    states = {ref: field_state(index.entries[ref].dnode.attrs.get("value"), _FIELD_TEXT)
              for ref in fields}
    shown = ", ".join(f"{trim_text(index.entries[ref].shown_name, _FIELD_TEXT) or 'unnamed'} "
                      f"({states[ref]})" for ref in fields[:FIELDS_SHOWN])
    if len(fields) <= FIELDS_SHOWN:
        return f"Text fields: {shown}"
    empty = sum(state == "empty" for state in states.values())
    return (f"Text fields ({len(fields)}, {empty} empty): {shown}, "
            f"and {len(fields) - FIELDS_SHOWN} more")


def field_state(value: str | None, chars: int) -> str:
    """A text field's ``value`` attribute as the model reads it: ``empty``, ``filled`` (a hidden
    value) or ``holds "<value cut to chars>"``."""
    if not value:
        return "empty"
    return "filled" if value == REDACTED else f'holds "{trim_text(value, chars)}"'


def kind_counts(index: PageIndex, refs) -> str:
    """``12 links, 2 buttons, 3 inputs, 1 other`` (kinds with no element left out)."""
    counts: Counter[str] = Counter()
    for ref in refs:
        kind = element_kind(index.state, index.entries[ref].dnode)
        counts[
            kind if kind in ("link", "button") else "input" if kind in _INPUT_KINDS else "other"
        ] += 1
    parts = [f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}" for k in _KIND_ORDER if counts[k]]
    return ", ".join(parts) or "no elements"


def _depth(page: DistilledPage, index: int) -> int:
    depth = 0
    while page.landmarks[index].parent is not None:
        index = page.landmarks[index].parent
        depth += 1
    return depth


def _landmark_lines(index: PageIndex) -> list[str]:
    page = index.page
    if not page.landmarks:
        return ["Landmarks: none (use PAGE as the landmark)"]
    lines = ["Landmarks:"]
    for landmark in page.landmarks:
        indent = "  " * (1 + _depth(page, landmark.index))
        lines.append(f"{indent}{landmark_spec(landmark)} ({kind_counts(index, landmark.refs)})")
    outside = [ref for ref, entry in index.entries.items() if entry.landmark is None]
    if outside:
        lines.append(f"  (outside landmarks: {kind_counts(index, outside)})")
    return lines


def _heading_lines(index: PageIndex) -> list[str]:
    headings = index.page.headings
    if not headings:
        return []
    levels = sorted({h.level for h in headings})
    shown_levels = levels[:1]
    for level in levels[1:]:
        if sum(1 for h in headings if h.level <= level) > HEADING_LINES:
            break
        shown_levels.append(level)
    deepest = shown_levels[-1]
    hidden: Counter[int] = Counter()  # shown heading index -> deeper headings under it
    for heading in headings:
        if heading.level > deepest:
            parent = heading.parent
            while parent is not None and headings[parent].level > deepest:
                parent = headings[parent].parent
            if parent is not None:
                hidden[parent] += 1
    shown = [h for h in headings if h.level <= deepest]
    lines = ["Headings:"]
    for heading in shown[:HEADING_LINES]:
        lines.append(_heading_line(index, heading, hidden[heading.index], levels[0]))
    if len(shown) > HEADING_LINES:
        lines.append(f"  … {len(shown) - HEADING_LINES} more headings")
    return lines


def _heading_line(index: PageIndex, heading, deeper: int, top_level: int) -> str:
    page = index.page
    where = landmark_spec(page.landmarks[heading.landmark]) if heading.landmark is not None else ""
    facts = [where] if where else []
    count = len(heading.refs)
    facts.append(f"{count} element{'s' if count != 1 else ''}")
    note = f"; {deeper} subheadings" if deeper else ""
    indent = "  " * (1 + heading.level - top_level)
    text = trim_text(heading.text, _HEADING_TEXT)
    return f"{indent}{'#' * heading.level} {text} ({', '.join(facts)}{note})"
