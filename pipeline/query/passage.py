"""Where a quoted passage sits on a distilled page: the smallest element whose text holds it.

    spot = find_passage(page, "Donec at adipiscing. Erat.")   # Passage | None
    spot.node_id, spot.ref, spot.backend_id                    # the element; ref: None without one

``select_text`` quotes a passage of the page's text; the live action finds it in the browser
(``pipeline.live.selection``), this module on a recorded page, for what the live action cannot
be asked: the offline executor's target, the history line, the verifier's "is it on the page".
Both match alike: whitespace does not count (runs of spaces, line breaks, the seam between two
inline elements), case does, and the first occurrence in document order among the texts the
distilled page keeps (what the renderings show) wins. Its element is the nearest common ancestor
of the first and last text it spans: ``<p>`` for a passage inside one paragraph, the ``<div>``
around two paragraphs for one running across both.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.distill.model import DistilledPage, DNode

# A node with the chain of its element ancestors, nearest first: (node, (parent, (...)))
_Chain = tuple[DNode, "_Chain | None"]


@dataclass(frozen=True, slots=True)
class Passage:
    node_id: int  # PageState node id of the holding element
    ref: int | None  # its ref, when the element has one
    backend_id: int | None  # its backend node id (None on a page read from HTML without ids)


def squeezed(text: str) -> str:
    """``text`` without any whitespace: how passages are compared."""
    return "".join(text.split())


def same_passage(a: str, b: str) -> bool:
    """Whether two passages are the same text, whitespace aside."""
    return squeezed(a) == squeezed(b)


def find_passage(page: DistilledPage, text: str) -> Passage | None:
    """The element holding the first occurrence of ``text`` (None: the page does not show it,
    or ``text`` has no character besides whitespace)."""
    wanted = squeezed(text)
    if not wanted:
        return None
    texts, joined = _texts(page.root)
    start = "".join(joined).find(wanted)
    if start < 0:
        return None
    end = start + len(wanted)
    spanned = [chain for offset, length, chain in texts if offset < end and offset + length > start]
    holder = _common_element(spanned[0], spanned[-1])
    state_node = page.state.nodes[holder.node_id]
    return Passage(holder.node_id, holder.ref, state_node.backend_id)


def _texts(root: DNode) -> tuple[list[tuple[int, int, _Chain]], list[str]]:
    """Every non-blank text node in document order as (offset, length, chain) in the squeezed
    text of the page, and that text in pieces."""
    texts: list[tuple[int, int, _Chain]] = []
    pieces: list[str] = []
    offset = 0
    stack: list[_Chain] = [(root, None)]
    while stack:
        chain = stack.pop()
        node = chain[0]
        if node.is_text:
            piece = squeezed(node.text)
            if piece:
                texts.append((offset, len(piece), chain))
                pieces.append(piece)
                offset += len(piece)
            continue
        stack.extend((child, chain) for child in reversed(node.children))
    return texts, pieces


def _common_element(first: _Chain, last: _Chain) -> DNode:
    """The nearest element that is an ancestor of both text nodes."""
    above_last: set[int] = set()
    chain = last[1]
    while chain is not None:
        above_last.add(id(chain[0]))
        chain = chain[1]
    chain = first[1]
    while chain[1] is not None and id(chain[0]) not in above_last:
        chain = chain[1]
    return chain[0]
