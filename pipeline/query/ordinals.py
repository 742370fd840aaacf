"""Which element "the 9th search result" is: the planner's ``ordinal`` on a page.

    nth_target(index, matched_refs, 3)   # the 3rd of the largest set of matched elements alike
    nth_target(index, matched_refs, 9)   # 3 results a page, page 1 shown: the pager's "3" link

Elements alike share their tag, input type and class, as a list's results do; the ordinal counts
among the largest such set of the elements the query matched. A page that shows a numbered pager
(links "1", "2", "3", one of them marked as the current page) holds only one page of the results:
the ordinal is then counted across pages, with as many results a page as the current one shows (the
largest set alike besides the pager), and when the wanted result is on another page the target is
that page's link, or the next/previous link when the pager does not number it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pipeline.query.filters import acted_on
from pipeline.query.index import Entry, PageIndex

_NEXT = frozenset({">", "›", "»", ">>", "next", "next page", "next ›", "next »", "next >"})
_PREVIOUS = frozenset({"<", "‹", "«", "<<", "prev", "previous", "previous page", "‹ prev",
                       "« prev", "< prev", "« previous", "‹ previous", "< previous"})
_CURRENT_CLASSES = frozenset({"active", "current", "selected"})
_MAX_PAGE = 999


@dataclass(frozen=True, slots=True)
class Pager:
    pages: dict[int, int]  # page number -> ref of its link
    current: int  # the page shown
    next: int | None  # ref of the next-page link
    previous: int | None

    @property
    def refs(self) -> frozenset[int]:
        steps = (ref for ref in (self.next, self.previous) if ref is not None)
        return frozenset([*self.pages.values(), *steps])


def nth_target(index: PageIndex, matched: Iterable[int], nth: int) -> int | None:
    """The ref ``nth`` names (1-based), or None when no set alike is long enough."""
    pager = find_pager(index)
    skip = pager.refs if pager else frozenset()
    group = largest_alike(index, (ref for ref in matched if ref not in skip))
    if pager is None or (pager.current == 1 and len(group) >= nth):
        return group[nth - 1] if len(group) >= nth else None
    shown = largest_alike(index, (ref for ref in index.entries if ref not in skip))
    if len(shown) < 2:  # no list of results beside the pager
        return None
    wanted = (nth - 1) // len(shown) + 1
    if wanted == pager.current:
        position = nth - (wanted - 1) * len(shown)
        return shown[position - 1] if position <= len(shown) else None
    step = pager.next if wanted > pager.current else pager.previous
    return pager.pages.get(wanted, step)


def find_pager(index: PageIndex) -> Pager | None:
    """The page's numbered pager: at least two links whose whole text is a page number; the
    current page is the one marked selected, current or active (page 1 when none is and the
    pager numbers it; else the page shown is unknown, and so is the pager)."""
    pages: dict[int, int] = {}
    current = 0
    next_ref = previous_ref = None
    for ref, entry in index.entries.items():
        text = entry.text.strip().lower()
        if text.isdigit() and 0 < int(text) <= _MAX_PAGE:
            pages.setdefault(int(text), ref)
            if _is_current(entry):
                current = int(text)
        elif text in _NEXT:
            next_ref = next_ref or ref
        elif text in _PREVIOUS:
            previous_ref = previous_ref or ref
    if len(pages) < 2 or not (current or 1 in pages):  # which page is shown must be known
        return None
    return Pager(pages, current or 1, next_ref, previous_ref)


def _is_current(entry: Entry) -> bool:
    attrs = entry.node.attributes
    classes = set(attrs.get("class", "").lower().split())
    return acted_on(entry) or attrs.get("aria-current", "false") not in ("", "false") or bool(
        classes & _CURRENT_CLASSES)


def largest_alike(index: PageIndex, refs: Iterable[int]) -> list[int]:
    """The largest set of ``refs`` with the same tag, input type and class (a radio and a text
    box are not alike), in page order (the first such set on a tie)."""
    alike: dict[tuple[str, str, str], list[int]] = {}
    for ref in sorted(refs):
        attributes = index.entries[ref].node.attributes
        key = (index.entries[ref].node.tag, attributes.get("type", ""), attributes.get("class", ""))
        alike.setdefault(key, []).append(ref)
    return max(alike.values(), key=len, default=[])
