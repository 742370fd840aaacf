"""Structure passes over the DNode tree: wrapper collapse and text merge.

wrapper_collapse  a ``div``/``span`` (or inline formatting element) with no ref, no role, no shown attribute, not scrollable,
                  not a shadow host and exactly one kept child is replaced by that child (chains
                  collapse in one go). Semantic containers (form, table, nav, lists, headings,
                  landmarks, dialogs...) are never wrappers.
text_merge        adjacent text nodes merge (split text of one element joins as is, text from
                  different elements joins with a space when both sit in the same block — the
                  nearest ancestor that is not inline — so each block keeps a line of its own,
                  and with nothing where the layout shows the two touching on one line: a word
                  split over spans reads as the word), whitespace collapses, empty text goes.
                  Text is never shortened: pagination "1", "2" and single characters stay.
"""

from __future__ import annotations

from pipeline.distill.model import DNode
from pipeline.distill.tree import preorder
from pipeline.distill.work import Work

# Generic containers and inline formatting: they add nothing a model needs once collapsed.
_WRAPPER_TAGS = frozenset(
    ["div", "span", "b", "i", "em", "strong", "small", "u", "s", "mark", "font", "abbr", "cite", "code", "kbd", "samp", "sub", "sup", "var", "q", "time", "data", "bdi", "bdo"]
)
_GLUE_GAP = 0.1  # texts closer than this share of the line's height show as one word
_GENERIC_ROLES = frozenset({None, "generic", "none", "presentation"})
# Inline-level by default, for sources without computed styles.
_INLINE_TAGS = frozenset(
    ["a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var"]
)


def _collapsible(dnode: DNode, work: Work) -> bool:
    if (
        dnode.tag not in _WRAPPER_TAGS
        or dnode.tier is not None
        or dnode.scrollable
        or len(dnode.children) != 1
        or dnode.children[0].tag == "#shadow-root"
    ):
        return False
    node = work.state.nodes[dnode.node_id]
    if node.role not in _GENERIC_ROLES:
        return False
    attrs = node.attributes
    return not any(key in attrs for key in work.options.include_attributes)


def wrapper_collapse(work: Work, root: DNode) -> int:
    collapsed = 0
    stack = [root]
    while stack:  # children are replaced before they are visited: chains collapse once
        dnode = stack.pop()
        if not dnode.children:
            continue
        children = []
        for child in dnode.children:
            while _collapsible(child, work):
                child = child.children[0]
                collapsed += 1
            children.append(child)
        dnode.children = children
        stack.extend(children)
    return collapsed


def text_merge(work: Work, root: DNode) -> int:
    nodes = work.state.nodes
    blocks: dict[int, int] = {}
    merged = 0
    for dnode in preorder(root):
        for child in dnode.children:
            if child.tag == "":
                break
        else:
            continue
        children: list[DNode] = []
        last_text: int | None = None  # node id of the text last appended or merged
        for child in dnode.children:
            if not child.is_text:
                children.append(child)
                continue
            joint = None
            if children and children[-1].is_text and last_text is not None:
                joint = _joint(nodes, last_text, child.node_id, blocks)
            if joint is None:
                children.append(DNode(child.node_id, "", text=child.text))
            else:
                children[-1].text += joint + child.text
                merged += 1
            last_text = child.node_id
        kept = []
        for child in children:
            if child.is_text:
                child.text = " ".join(child.text.split())
                if not child.text:
                    merged += 1
                    continue
            kept.append(child)
        dnode.children = kept
    return merged


def _joint(nodes, before_id: int, after_id: int, blocks: dict[int, int]) -> str | None:
    """How two adjacent text nodes join: ``""`` for split text of one element and for the texts
    of inline-level elements that touch on one line (a word's letters spread over spans: a
    styled captcha, a price's cents), a space for the elements of one block, None (apart) else."""
    before, after = nodes[before_id], nodes[after_id]
    if before.parent == after.parent:
        return ""
    touching = _touching(before, after)
    if touching and all(_inline_level(nodes[n.parent]) for n in (before, after)):
        return ""
    if _block_of(nodes, before.parent, blocks) == _block_of(nodes, after.parent, blocks):
        return "" if touching else " "
    return None


def _touching(before, after) -> bool:
    """The text ``after`` starts where ``before`` ends, on the same line, with no whitespace
    between them in the source nor on screen (a gap under a tenth of the line's height, where a
    space is a quarter): the browser shows one word. Needs both texts' layout boxes."""
    a, b = before.bounds, after.bounds
    if a is None or b is None or before.text[-1:].isspace() or after.text[:1].isspace():
        return False
    height = min(a[3], b[3])
    overlap = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    gap = b[0] - (a[0] + a[2])
    return height > 0 and overlap >= height / 2 and -height / 2 < gap < height * _GLUE_GAP


def _inline_level(node) -> bool:
    """The element flows inline with its neighbours: inline, or an inline-block box."""
    return _inline(node) or node.styles.get("display") == "inline-block"


def _block_of(nodes, node_id: int | None, cache: dict[int, int]) -> int | None:
    """The nearest ancestor-or-self of ``node_id`` that is not inline (memoised in ``cache``)."""
    if node_id is None:
        return None
    if node_id not in cache:
        node = nodes[node_id]
        parent = node.parent
        cache[node_id] = (
            _block_of(nodes, parent, cache) if _inline(node) and parent is not None else node_id
        )
    return cache[node_id]


def _inline(node) -> bool:
    """The element renders inline (computed display when captured, else its tag)."""
    display = node.styles.get("display")
    if display:
        return display in ("inline", "contents")
    return node.tag in _INLINE_TAGS
