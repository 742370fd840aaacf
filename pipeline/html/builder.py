"""Append-only construction of a PageState node table from a parser's events.

Readers call ``element``/``text`` in document order with the parent's id; the builder assigns ids,
the frame of each node (an ``#document`` below the root opens a new Frame owned by its parent
iframe) and the ``in_shadow`` flag (everything below a ``#shadow-root``). More than ``max_nodes``
nodes raise ``NodeLimitError`` (a ValueError), so no reader builds an unbounded table.
"""

from __future__ import annotations

from typing import Any

from pipeline.page_state import MAX_NODES, Frame, Node

_FRAME_OWNERS = frozenset({"iframe", "frame", "object", "embed"})


class NodeLimitError(ValueError):
    """The document has more nodes than the reader was allowed to build."""


def over_limit(max_nodes: int) -> NodeLimitError:
    return NodeLimitError(f"the document has more than max_nodes={max_nodes:,} nodes; raise "
                          "max_nodes (--max-nodes, browser.max_nodes) to read it anyway")


class TreeBuilder:
    def __init__(self, max_nodes: int = MAX_NODES) -> None:
        self.nodes: list[Node] = []
        self.frames: list[Frame] = [Frame(0)]
        self.max_nodes = max_nodes

    def element(
        self, parent: int | None, tag: str, attributes: dict[str, str], **facts: Any
    ) -> int:
        """Append an element (or ``#document``/``#shadow-root`` fragment); returns its id."""
        node_id = len(self.nodes)
        if node_id >= self.max_nodes:
            raise over_limit(self.max_nodes)
        frame, in_shadow = self._context(parent)
        if tag == "#document" and parent is not None:
            owner = self.nodes[parent]
            is_owner = owner.tag in _FRAME_OWNERS
            frame = len(self.frames)
            self.frames.append(
                Frame(
                    frame,
                    url=owner.attributes.get("src", "") if is_owner else "",
                    owner=parent if is_owner else None,
                )
            )
        node = Node(node_id, parent, "element", tag, attributes, frame=frame, in_shadow=in_shadow)
        for key, value in facts.items():
            setattr(node, key, value)
        self.nodes.append(node)
        return node_id

    def text(self, parent: int, text: str, **facts: Any) -> int:
        node_id = len(self.nodes)
        if node_id >= self.max_nodes:
            raise over_limit(self.max_nodes)
        frame, in_shadow = self._context(parent)
        node = Node(node_id, parent, "text", text=text, frame=frame, in_shadow=in_shadow)
        for key, value in facts.items():
            setattr(node, key, value)
        self.nodes.append(node)
        return node_id

    def _context(self, parent: int | None) -> tuple[int, bool]:
        if parent is None:
            return 0, False
        above = self.nodes[parent]
        return above.frame, above.in_shadow or above.tag == "#shadow-root"
