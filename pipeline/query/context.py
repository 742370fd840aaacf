"""What tells an element with a generic label apart: the nearest identifying text of its card.

A page with 200 "Add to Cart" buttons needs more than the button's text. For an element whose
label (visible text, else accessible name) is shared with other elements or empty, the context is
found in the smallest ancestor holding other text, climbing a few levels and never into a container
with many elements or nodes (a grid is not a card): the heading of the element's section when it
lies inside that container, and the nearest text before the element (else after it). Texts that
repeat on the page (tags, "Qty") are never used: they identify nothing. A button's label names
what the button does: it tells apart the text field it acts on (the box beside "Search"), but is
no name for anything else in its card (a form's lone "Submit" does not name the list beside it,
nor any of several text fields it sends), and the climb stops there: the card is found, it just
has no name. A container that holds another element with the same label is a list of cards:
only the texts between the element and its nearest twins are its own (a flat list of "Item A
[Buy] Item B [Buy]"), and the climb stops there; when the card has no text that is its own
alone, the text it shares with other cards of the list is used (two rows of an Odd/Even quiz
showing "-5" are told apart from the row "8"). The text inside another element is read unless
it is that element's own: a text field's value, or the text of an element alike (the same tag,
a class in common: the number one turned card shows names none of the hidden cards beside it).

    card_context(entry, parents, counts) -> Card("Classic Kettle 1, $87.19", "Qty")

The texts of the card that repeat elsewhere are no name, but they are what several cards have in
common -- the author of a post, a shop, a category -- so they come back apart (``Card.shared``),
with the card's own texts past the two shown (a post's author line above its body and time): the
index searches them at the lowest tier, and they are never shown ("all posts by @vel", "For the
user @michel, click Reply").
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pipeline.distill.attributes import is_text_field
from pipeline.distill.model import DistilledPage, DNode
from pipeline.page_state import Node
from pipeline.render.elements import collapse, trim_text

if TYPE_CHECKING:
    from pipeline.query.index import Entry

CONTEXT_TEXT = 70
_PIECE_TEXT = 40
_CLIMB = 4  # ancestors tried
_CARD_REFS = 6  # a container with more elements than this is a list, not a card
_CARD_NODES = 120  # and one with more nodes is too big to read
_ACTION_ROLES = frozenset({"button"})  # their labels say what they do, not what the card is
_FURTHER_TEXTS = 3  # the card's own texts past the shown two, searched: a post's author line
_SEARCHED_TEXT = 160


@dataclass(slots=True)
class Counts:
    """How often each lower-case label (of refs) and text (of text nodes) occurs on the page."""

    labels: Counter
    texts: Counter

    def repeated(self, key: str) -> bool:
        return self.labels[key] > 1 or self.texts[key] > 1


def is_generic(entry: Entry, counts: Counts) -> bool:
    return not entry.label or counts.labels[entry.label] > 1


@dataclass(slots=True)
class Card:
    """What the element's card says: its identifying text (shown), and what is only searched:
    the texts it shares with other cards and its own texts past the shown ones."""

    shown: str = ""
    shared: str = ""


def card_context(
    page: DistilledPage, entry: Entry, parents: dict[int, DNode], counts: Counts,
    labels: dict[int, str],
) -> Card:
    """The identifying text near ``entry`` (empty when none is found) and the card's texts that
    repeat elsewhere; ``labels``: every ref's."""
    heading = page.headings[entry.heading] if entry.heading is not None else None
    child = entry.dnode
    fallback = ""
    for _ in range(_CLIMB):
        parent = parents.get(id(child))
        if parent is None or parent.tag.startswith("#"):
            return Card()
        around = _texts_around(page, parent, entry, counts, labels)
        if around is None:
            return Card()
        pieces: list[str] = []
        if (
            heading is not None
            and heading.text.lower() != entry.label
            and _inside(page, parent, heading.node_id)
        ):
            pieces.append(trim_text(heading.text, _PIECE_TEXT))
        if around.twin and fallback:  # the card below, in a list of its twins, had only this
            return Card(fallback)
        near = [t for t in (around.before[::-1] + around.after) if t not in pieces]
        pieces.extend(near[: (1 if around.twin else 2) - len(pieces)])
        if pieces:
            further = [t for t in near if t not in pieces][:_FURTHER_TEXTS]
            return Card(trim_text(", ".join(pieces), CONTEXT_TEXT),
                        trim_text(", ".join(around.repeated[:2] + further), _SEARCHED_TEXT))
        fallback = fallback or trim_text(", ".join(around.repeated[:2]), CONTEXT_TEXT)
        if around.named_action or around.twin:
            return Card() if around.named_action else Card(fallback)
        child = parent
    return Card()


def _inside(page: DistilledPage, container: DNode, node_id: int) -> bool:
    """Whether PageState node ``node_id`` lies in ``container``'s subtree (ids are pre-order)."""
    nodes = page.state.nodes
    last = container.node_id
    while nodes[last].children:
        last = nodes[last].children[-1]
    return container.node_id <= node_id <= last


def _other_text_field(page: DistilledPage, container: DNode, field_node: DNode) -> bool:
    """Whether ``container`` holds a text field besides ``field_node``: its button then sends
    a form of several fields and names none of them."""
    nodes = page.state.nodes
    return any(node.ref is not None and node is not field_node
               and is_text_field(nodes[node.node_id]) for node in container.walk())


def _own_text(other: Node, element: Node) -> bool:
    """Whether the text inside ``other`` (another element) is its own and names nothing else:
    a text field's (its value), or that of an element alike to ``element`` (the same tag, a
    class in common: the number a turned card shows is no name of the hidden card beside it)."""
    return is_text_field(other) or alike_elements(other, element)


def alike_elements(one: Node, other: Node) -> bool:
    """The same tag and a class in common: cards of one kind, turned up or not."""
    classes = set(one.attributes.get("class", "").split())
    return one.tag == other.tag and bool(classes & set(other.attributes.get("class", "").split()))


@dataclass(slots=True)
class _Around:
    """What a container holds around the element."""

    before: list[str] = field(default_factory=list)  # distinct texts that repeat nowhere else
    after: list[str] = field(default_factory=list)
    repeated: list[str] = field(default_factory=list)  # texts seen elsewhere too, nearest first
    named_action: bool = False  # a button with a label of its own was passed over
    twin: bool = False  # another element with the same label: a list of cards, not one card
    # (texts are then read only between the element and its nearest twins)


def _texts_around(page: DistilledPage, container: DNode, entry: Entry, counts: Counts,
                  labels: dict[int, str]) -> _Around | None:
    """The texts of ``container`` outside other buttons, before and after the element (None:
    the container is too big)."""
    out = _Around()
    repeated_before: list[str] = []
    repeated_after: list[str] = []
    nodes = page.state.nodes
    skip_actions = not is_text_field(nodes[entry.dnode.node_id]) or _other_text_field(
        page, container, entry.dnode)
    passed, refs, seen = False, 0, 0
    skip = {entry.label}
    stack = [container]
    while stack:
        node = stack.pop()
        seen += 1
        if seen > _CARD_NODES:
            return None
        if node is entry.dnode:
            passed = True
            continue
        if node.ref is not None:
            refs += 1
            if refs > _CARD_REFS:
                return None
            if entry.label and labels.get(node.ref) == entry.label:  # a twin bounds the card
                out.twin = True
                if passed:
                    break
                out.before.clear()
                repeated_before.clear()
                skip = {entry.label}
            if node is not entry.dnode and _own_text(nodes[node.node_id], entry.node):
                continue  # a text field's text is its value; a card's alike, its own number
            if skip_actions and nodes[node.node_id].role in _ACTION_ROLES:
                out.named_action = out.named_action or any(
                    part.is_text and not counts.repeated(collapse(part.text).lower())
                    for part in node.walk()
                )
                continue
        if node.is_text:
            text = collapse(node.text)
            key = text.lower()
            if text and key not in skip:
                skip.add(key)
                shown = trim_text(text, _PIECE_TEXT)
                if counts.repeated(key):
                    (repeated_after if passed else repeated_before).append(shown)
                else:
                    (out.after if passed else out.before).append(shown)
        stack.extend(reversed(node.children))
    out.repeated = repeated_before[::-1] + repeated_after
    return out
