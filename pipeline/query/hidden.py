"""What opens a hidden element the task names: the item that holds a submenu, a nav dropdown.

    openers = hidden_openers(index, names, words)   # {ref: task words its hidden text holds}

A name the task quotes that no element on the page shows may sit in a part of the page that
stays hidden until something opens it -- "Prev" in the submenu a jQuery UI menu keeps under
"Playback", a link in a navigation bar's dropdown, a tab's panel. The page state holds the hidden
nodes. An element whose ``aria-controls`` (or ``#id`` link) names a part holding such a text
opens it: the tab of that panel. Else the nearest ancestor of the text that holds kept elements
at all holds what opens it (the submenu's ``li`` holds the "Playback" item before the hidden
list), and when it holds only a few of them (``MAX_OPENERS``: not the whole page around a hidden
dialog) the last one before it opens it (a hidden list follows what opens it: the item, the
folder's name, the "more" toggle). The planner's ``reveal_hidden`` leads with the opener whose
hidden text holds most of the task's words, of those the best hit (``elements.run``): "Share via
DM" of the post whose card the task names.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.distill.colours import painted_colour
from pipeline.distill.facts import style_of
from pipeline.distill.filters import NOISE_TAGS
from pipeline.query.index import PageIndex
from pipeline.query.scoring import Query
from pipeline.query.text import analyse

MAX_OPENERS = 3  # kept elements an opening ancestor may hold
MAX_LABEL_WORDS = 4  # a hidden label: a link's or an item's text, not a sentence


def hidden_openers(index: PageIndex, names: Sequence[Query], words: Sequence[Query] = (),
                   labels_only: bool = False) -> dict[int, int]:
    """``{ref: overlap}``: the refs that open a hidden text holding one of ``names`` (the
    queries of the name a task quotes) as a phrase, each with the most stems of ``words`` (the
    step's keywords) such a text holds ("Block @vel" names vel's post); empty when no hidden
    text holds a name or no few refs hold one. ``labels_only`` reads only texts of a few words
    (a hidden link's or item's label, not prose that happens to use a word): for a step where
    other words the task weighs as much name something shown."""
    phrases = [name.line for name in names if name.seq]
    state, shown = index.state, index.page.shown
    if not phrases or not shown:  # a page assembled without the distill passes: nothing hidden
        return {}
    wanted = {term for query in words for term in query.seq}
    controls = _controls(index)
    openers: dict[int, int] = {}
    for node in state.nodes:
        if shown[node.id] or node.parent is None or state.nodes[node.parent].tag in NOISE_TAGS:
            continue
        if node.kind == "text":
            stems, held_by = analyse(node.text)[0], node.parent
        elif "background-color" in style_of(node):  # a closed colour picker's swatch: its paint
            stems, held_by = analyse(painted_colour(node, state))[0], node.id
        else:  # painted_colour reads a subtree's text: only for an element with a paint at all
            continue
        if not stems or labels_only and len(stems) > MAX_LABEL_WORDS:
            continue
        if any(phrase in f" {' '.join(stems)} " for phrase in phrases):
            opener = _opener(index, held_by, controls)
            if opener is not None:
                overlap = len(wanted.intersection(stems))
                openers[opener] = max(overlap, openers.get(opener, 0))
    return openers


def _controls(index: PageIndex) -> dict[str, int]:
    """``{id: ref}``: the elements that say which part of the page they open -- a tab's or a
    disclosure button's ``aria-controls``, a link to ``#id`` -- by that part's id."""
    found: dict[str, int] = {}
    for ref, entry in index.entries.items():
        attributes = entry.node.attributes
        for target in attributes.get("aria-controls", "").split():
            found.setdefault(target, ref)
        href = attributes.get("href", "")
        if href.startswith("#") and len(href) > 1:
            found.setdefault(href[1:], ref)
    return found


def _opener(index: PageIndex, node_id: int, controls: dict[str, int]) -> int | None:
    """The element that says it opens an ancestor of ``node_id`` (``_controls``: a tab whose
    panel holds it), else of the few refs of the nearest ancestor of ``node_id`` that holds
    any, the last one before it in document order -- the item, toggle or link a hidden list
    follows -- or else the first after it; None when they are many."""
    nodes = index.state.nodes
    for ancestor in index.state.ancestors(node_id):
        opener = controls.get(nodes[ancestor].attributes.get("id", ""))
        if opener is not None:
            return opener
    for ancestor in index.state.ancestors(node_id):
        last = ancestor
        while nodes[last].children:
            last = nodes[last].children[-1]
        held = index.refs_between(ancestor, last)
        if not held:
            continue
        if len(held) > MAX_OPENERS:
            return None
        before = [ref for ref in held if index.entries[ref].dnode.node_id < node_id]
        return before[-1] if before else held[0]
    return None
