"""The outline rendering: the page grouped by landmark regions, with markdown headings.

    === PAGE OUTLINE === "Acme Shop" https://shop.test/
    NAV: "Primary" (unchanged, 12 links)
    MAIN:
      # Featured products
      ### [14]<a href=/p/1>Red kettle</a>
      A bright kettle for small kitchens. …
      *[15]<button>Add to cart</button>
      NAV: "Pagination"
        [16]<a href=?page=2>2</a>
    (ungrouped):
      [17]<a href=/help>Help</a>

Regions print in document order, nested landmarks as indented sub-sections; elements in no
landmark come last under ``(ungrouped):``. Non-interactive text is trimmed to a sentence. Given the
previous step's page, a region that holds the same elements and text collapses to one line with
its element counts (roles in ``RenderOptions.never_collapse`` excepted), and new elements are
marked ``*[N]``.
"""

from __future__ import annotations

from pipeline.distill.model import DistilledPage, Landmark
from pipeline.render.diff import diff_pages
from pipeline.render.elements import count_phrase, element_kind
from pipeline.render.options import RenderOptions
from pipeline.render.regions import chain, innermost_landmarks
from pipeline.render.viewport import visible_part
from pipeline.render.walk import Item, format_item, walk

INDENT = "  "


def render_outline(
    page: DistilledPage,
    options: RenderOptions | None = None,
    previous: DistilledPage | None = None,
) -> str:
    options = options or RenderOptions()
    root, position = visible_part(page, options)
    diff = diff_pages(page, previous)
    new = diff.new
    collapsed = {i for i in diff.unchanged if page.landmarks[i].role not in options.never_collapse}
    holder = innermost_landmarks(page.state, page.landmarks)
    items = walk(root, {h.node_id: h.level for h in page.headings})

    def line(item: Item, indent: int) -> str:
        text = format_item(item, page.state, new, options.element_text, options.outline_text)
        return INDENT * indent + text

    lines = [_title(page)] + ([position] if position else [])
    opened: list[int] = []  # the chain of landmarks whose header is printed, outermost first
    base: dict[int, int] = {}  # landmark -> depth of its first item
    ungrouped: list[Item] = []
    for item in items:
        regions = chain(page.landmarks, holder[item.node.node_id])
        if not regions:
            ungrouped.append(item)
            continue
        hidden = next((i for i, r in enumerate(regions) if r in collapsed), None)
        if hidden is not None:
            regions = regions[: hidden + 1]
        keep = 0
        while keep < min(len(opened), len(regions)) and opened[keep] == regions[keep]:
            keep += 1
        for level, index in enumerate(regions[keep:], start=keep):
            lines.append(INDENT * level + _header(page, page.landmarks[index], index in collapsed))
        opened = regions
        if hidden is None:
            innermost = regions[-1]
            base.setdefault(innermost, item.depth)
            lines.append(line(item, len(regions) + item.depth - base[innermost]))
    if ungrouped:
        lines.append("(ungrouped):")
        low = min(item.depth for item in ungrouped)
        lines.extend(line(item, 1 + item.depth - low) for item in ungrouped)
    return "\n".join(lines)


def _title(page: DistilledPage) -> str:
    title = f' "{page.state.title}"' if page.state.title else ""
    return f"=== PAGE OUTLINE ==={title} {page.state.shown_url}".rstrip()


def _header(page: DistilledPage, landmark: Landmark, collapsed: bool) -> str:
    header = f'{landmark.label}: "{landmark.name}"' if landmark.name else f"{landmark.label}:"
    if not collapsed:
        return header
    kinds = [element_kind(page.state, page.refs[r]) for r in landmark.refs if r in page.refs]
    return f"{header} (unchanged, {count_phrase(kinds) or 'text only'})"
