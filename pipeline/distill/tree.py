"""Building the working DNode tree from the kept nodes, and numbering the refs.

The tree is built fresh from the PageState on every call (nothing in the state is shared or
written), so the later passes may reshape it freely. ``assign_refs`` numbers the elements that
have a tier 1..N in pre-order, which makes refs depend only on the page and the options.
"""

from __future__ import annotations

from pipeline.distill.model import DNode
from pipeline.distill.work import Work


def build_tree(work: Work, kept: list[bool]) -> DNode:
    nodes = work.state.nodes
    made: list[DNode | None] = [None] * len(nodes)
    root = made[0] = DNode(0, nodes[0].tag)
    for node in nodes[1:]:
        i = node.id
        if not kept[i]:
            continue
        if node.kind == "text":
            dnode = DNode(i, "", text=node.text)
        else:
            dnode = DNode(i, node.tag)
            dnode.scrollable = node.scrolls
            if i in work.drawings:  # its shapes in words, a line of their own before it (a
                drawn = DNode(i, "", text=work.drawings[i].text)  # ref's text is cut short)
                made[node.parent].children.append(drawn)  # type: ignore[union-attr]
        made[i] = dnode
        made[node.parent].children.append(dnode)  # type: ignore[union-attr]
    return root


def preorder(root: DNode) -> list[DNode]:
    """The subtree in pre-order as a list (cheaper than ``DNode.walk`` on hot paths)."""
    out: list[DNode] = []
    stack = [root]
    while stack:
        dnode = stack.pop()
        out.append(dnode)
        if dnode.children:
            stack.extend(reversed(dnode.children))
    return out


class SubtreeText:
    """Whitespace-collapsed text of DNode subtrees, each subtree's text built once (a pass asks
    for the text of many nested elements: headings, images with alt, links with a title)."""

    def __init__(self) -> None:
        self._raw: dict[int, str] = {}  # id(dnode) -> text; the tree outlives the instance

    def __call__(self, dnode: DNode) -> str:
        return " ".join(self._text(dnode).split())

    def _text(self, top: DNode) -> str:
        raw = self._raw
        stack = [(top, False)]
        while stack:  # post-order without recursion (pages can be deep)
            dnode, children_done = stack.pop()
            key = id(dnode)
            if key in raw:
                continue
            if dnode.is_text:
                raw[key] = dnode.text
            elif children_done:
                raw[key] = " ".join(t for t in (raw[id(c)] for c in dnode.children) if t)
            else:
                stack.append((dnode, True))
                stack.extend((child, False) for child in dnode.children)
        return raw[id(top)]


def assign_refs(root: DNode) -> dict[int, DNode]:
    refs: dict[int, DNode] = {}
    for dnode in preorder(root):
        if dnode.tier is not None:
            dnode.ref = len(refs) + 1
            refs[dnode.ref] = dnode
    return refs
