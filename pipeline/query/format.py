"""Result lines: the shared element format plus where the element sits and what it belongs to.

    [23]<button type=button>Add to Cart</button> — Classic Kettle 1, $87.19 (MAIN › "Kitchen")
    [6]<a href=/c/todays-deals>Today's Deals</a> (NAV:Primary)
    [2]<input type=search id=q name=q placeholder="Search Acme" /> — Search products (HEADER › SEARCH)

The element prints exactly as in the flat rendering (``pipeline.render.elements.format_element``).
An element whose own label is generic -- shared with other elements, like 200 "Add to Cart"
buttons, or empty -- gets the identifying text of its card after a dash (see ``context``); one
without visible text (an input) gets its accessible name there, its label. The parenthesis names the landmark chain (as ``within_landmark`` accepts it) and the nearest heading
not already said.
"""

from __future__ import annotations

from pipeline.query.filters import landmark_spec
from pipeline.query.index import Entry, PageIndex
from pipeline.render.elements import format_element, shown_text, trim_text

ELEMENT_TEXT = 80
_HEADING_TEXT = 40


def result_line(index: PageIndex, ref: int) -> str:
    entry = index.entries[ref]
    line = format_element(entry.dnode, shown_text(entry.dnode, entry.text, ELEMENT_TEXT))
    extra = entry.context or (entry.node.name or "" if not entry.text else "")
    if extra and extra not in line[line.index("<"):]:  # said by the element, not its [ref]
        line += f" — {trim_text(extra, ELEMENT_TEXT)}"
    return line + where(index, entry)


def where(index: PageIndex, entry: Entry) -> str:
    """`` (MAIN › "Kitchen")``: landmark chain (outermost and innermost) and the nearest heading
    the line does not already say."""
    page = index.page
    said = f"{entry.text} — {entry.context}".lower()
    heading = entry.heading
    while heading is not None and page.headings[heading].text.lower() in said:
        heading = page.headings[heading].parent
    title = page.headings[heading].text if heading is not None else ""
    chain = []
    landmark = entry.landmark
    while landmark is not None:
        chain.append(page.landmarks[landmark])
        landmark = page.landmarks[landmark].parent
    chain = [lm for lm in reversed(chain) if not (lm.name and lm.name.lower() == title.lower())]
    parts = [landmark_spec(lm) for lm in (chain[:1] + chain[-1:] if len(chain) > 2 else chain)]
    if title:
        parts.append(f'"{trim_text(title, _HEADING_TEXT)}"')
    return f" ({' › '.join(parts)})" if parts else ""
