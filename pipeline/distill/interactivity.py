"""Interactivity tiers and propagating bounds.

``tier_of`` classifies one element: *semantic* (links with href, buttons, form controls, summary,
contenteditable, an interactive ARIA role) or *non_semantic* (mouse handlers, tabindex >= 0, its
own cursor:pointer, Mind2Web's is_clickable, a jQuery UI drag handle, a small data-testid
element, an icon-sized element with aria-label/title); anything else is structural and gets no
ref. jQuery UI listens on the container (a sortable list, a resizable's wrapper) and marks what
the mouse takes hold of (the list's items, the wrapper's edges) with a handle class: without
their own refs an agent could drag only the container's centre. Deliberately *not* signals:
words such as "search" in a class or id, a cursor:pointer inherited from a clickable ancestor, an
``<iframe>`` (its content carries the refs), a ``<label>`` whose control is itself visible (the
control gets the ref; a label whose control is hidden, the custom-checkbox pattern, gets one).

Sources without runtime evidence (saved HTML, DOM dumps without ``is_clickable``, cleaned_html)
add a third reading, ``markup.markup_clickable`` (``<a>`` without href, class/id words, widget
attributes, SVG shapes, command texts): such an element gets *non_semantic* unless a clickable
parent already covers it (a mere icon, named "icon" and nothing else, is covered by any element
tiered around it: a sortable item's drag arrow), or elements inside it have tiers and it holds
no text of its own besides theirs (a list item around clickable labels), or it holds form fields
(a form or a panel, not a control); a wrapper around exactly one inferred element (and any mere
icons) takes the ref from it (the outer element is what carries the handler). A page whose kept
elements show no interactivity at all falls back to a wider tier (every short text element,
every empty box of a control's size) and says so in the pass report's note.

A box that only its own cursor:pointer made clickable loses its tier when it holds two or more
controls and no text besides theirs (email-inbox's Reply and Forward in one pointer-styled bar):
it is their bar, and a click at its centre hits a gap or one of them.

An element marked ``role="presentation"``/``none`` right inside an element with an interactive
role gets no tier whatever it is (jQuery UI's tab anchor inside its ``role=tab`` item): the
author says the parent is the control, and one control is one ref.

``propagating_bounds`` clears the tier of elements lying (almost) entirely inside a clickable
parent (``a``, ``button``, role button/link): clicking them is clicking the parent. Form controls,
other clickable parents and widget roles inside it keep their own refs.
"""

from __future__ import annotations

from pipeline.aria import INTERACTIVE_ROLES
from pipeline.distill.facts import has_handler
from pipeline.distill.markup import (
    fallback_clickable,
    icon_only,
    lacks_runtime_evidence,
    markup_clickable,
    markup_cues,
)
from pipeline.distill.model import DNode, Tier
from pipeline.distill.svg_markup import outline_box
from pipeline.distill.tree import preorder
from pipeline.distill.work import FORM_CONTROL_TAGS, Work
from pipeline.page_state import Node

_SEMANTIC_TAGS = frozenset({"button", "select", "textarea", "summary"})
_NEVER_TAGS = frozenset({"html", "body", "iframe", "frame", "label", "option", "optgroup"})
# form fields inside an element inferred from its markup make it a form or a panel, not a
# control: no clickable element holds text fields or buttons (``<div id=menu>`` around a form)
_FIELD_TAGS = frozenset({"input", "select", "textarea", "button"})
_PROPAGATING_ROLES = frozenset({"button", "link"})
_OWN_REF_ROLES = frozenset(
    {"checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "slider", "spinbutton"}
)
_EDITABLE = frozenset({"", "true", "plaintext-only"})
_PRESENTATIONAL = frozenset({"presentation", "none"})
DRAG_HANDLE_CLASSES = frozenset({"ui-sortable-handle", "ui-resizable-handle", "ui-draggable-handle"})


def _tabindex(attrs: dict[str, str]) -> int | None:
    raw = attrs.get("tabindex")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None


def _semantic(node: Node, nodes: list[Node]) -> bool:
    tag, attrs = node.tag, node.attributes
    if tag in _SEMANTIC_TAGS or (tag == "a" and "href" in attrs):
        return True
    if tag == "input":
        return attrs.get("type", "").lower() != "hidden"
    if tag == "details":  # the summary is the toggle when there is one
        return not any(nodes[c].tag == "summary" for c in node.children)
    return attrs.get("contenteditable") in _EDITABLE or node.role in INTERACTIVE_ROLES


def _acts_itself(node: Node) -> bool:
    """A sign of a control besides the cursor: a mouse handler or listener, a jQuery UI drag
    handle, tabindex >= 0."""
    attrs = node.attributes
    if has_handler(node) or node.states.get("clickable"):
        return True
    if DRAG_HANDLE_CLASSES & set(attrs.get("class", "").split()):
        return True
    tabindex = _tabindex(attrs)
    return tabindex is not None and tabindex >= 0


def _own_pointer(node: Node, work: Work) -> bool:
    return work.facts.pointer[node.id] and not work.facts.parent_pointer[node.id]


def _non_semantic(node: Node, work: Work) -> bool:
    attrs = node.attributes
    if _acts_itself(node) or _own_pointer(node, work):
        return True
    if node.bounds is None:
        return False
    w, h = node.bounds[2], node.bounds[3]
    if "data-testid" in attrs and 0 < w <= 300 and 0 < h <= 100:
        return True
    return ("aria-label" in attrs or "title" in attrs) and 10 <= w <= 50 and 10 <= h <= 50


def _presentational_part(node: Node, nodes: list[Node]) -> bool:
    """Marked ``role="presentation"``/``none`` right inside an element with an interactive role
    (jQuery UI's tab anchor inside its ``role=tab`` item): the author's word that the parent is
    the control and this is its content, even where ARIA keeps a focusable element's own role."""
    if node.attributes.get("role", "").strip().lower() not in _PRESENTATIONAL:
        return False
    parent = nodes[node.parent] if node.parent is not None else None
    return parent is not None and parent.role in INTERACTIVE_ROLES


def tier_of(node: Node, work: Work) -> Tier | None:
    """The interactivity tier of one element, from its own facts and its parent's role."""
    if not node.is_element or node.tag in _NEVER_TAGS:
        return None
    if _presentational_part(node, work.state.nodes):
        return None
    if _semantic(node, work.state.nodes):
        return "semantic"
    if _non_semantic(node, work) or outline_box(node):  # kept: a drop box (svg_markup)
        return "non_semantic"
    return None


def interactivity(work: Work, root: DNode) -> int:
    """Assign tiers to kept, visible elements; returns how many got one."""
    nodes = work.state.nodes
    labels: list[tuple[DNode, Node]] = []
    for dnode in preorder(root):
        node = nodes[dnode.node_id]
        if dnode.is_text or dnode.node_id in work.muted:
            continue
        if node.tag == "label":
            labels.append((dnode, node))
            continue
        tier = tier_of(node, work)
        if tier is not None:
            _set_tier(work, dnode, tier)
    _clear_pointer_bars(work, root)
    ids = _ids_by_frame(nodes) if any("for" in node.attributes for _, node in labels) else {}
    for dnode, node in labels:
        control = _labelled_control(node, work, ids)
        if control is not None and not _shown(control, work):
            _set_tier(work, dnode, "non_semantic")
    if lacks_runtime_evidence(work.state):
        _without_runtime_evidence(work, root)
    return len(work.tiers)


def _clear_pointer_bars(work: Work, root: DNode) -> None:
    """Clear the tier of a box that only its own pointer cursor made a control when it holds
    two or more controls and no text besides theirs (email-inbox's Reply and Forward in one
    pointer-styled bar): it is their bar, and a click at its centre hits a gap or one of them."""
    nodes = work.state.nodes
    below: dict[int, tuple[int, bool]] = {}  # controls in the subtree, any loose text
    for dnode in reversed(preorder(root)):
        if dnode.is_text:
            below[id(dnode)] = (0, bool(dnode.text.strip()))
            continue
        controls = sum(below[id(child)][0] for child in dnode.children)
        loose = any(below[id(child)][1] for child in dnode.children)
        node = nodes[dnode.node_id]
        if (dnode.tier == "non_semantic" and controls >= 2 and not loose
                and _own_pointer(node, work) and not _acts_itself(node)):
            _set_tier(work, dnode, None)
        below[id(dnode)] = (1, False) if dnode.tier is not None else (controls, loose)


def _without_runtime_evidence(work: Work, root: DNode) -> None:
    """The markup reading, then the fallback if the page still has no tier at all."""
    inferred = _markup_tiers(work, root)
    if inferred:
        work.notes["interactivity"] = f"{inferred} element(s) clickable by their markup alone"
    if not work.tiers:
        found = _fallback_tiers(work, root)
        if found:
            work.notes["interactivity"] = (
                f"fallback: no element showed interactivity, {found} short text element(s) or "
                "empty box(es) got refs")


def _set_tier(work: Work, dnode: DNode, tier: Tier | None) -> None:
    dnode.tier = tier
    if tier is None:
        work.tiers.pop(dnode.node_id, None)
    else:
        work.tiers[dnode.node_id] = tier


def _candidates(work: Work, root: DNode) -> list[DNode]:
    """Kept, shown, untiered elements (labels, never-tags and presentational parts aside), in
    pre-order."""
    nodes = work.state.nodes
    return [d for d in preorder(root)
            if not d.is_text and d.tier is None and d.node_id not in work.muted
            and nodes[d.node_id].is_element and nodes[d.node_id].tag not in _NEVER_TAGS
            and nodes[d.node_id].tag != "label"
            and not _presentational_part(nodes[d.node_id], nodes)]  # fmt: skip


def _markup_tiers(work: Work, root: DNode) -> int:
    """Tiers from the markup alone (see the module docstring for nested inferred elements)."""
    state = work.state
    cues = markup_cues(state)
    by_id = {id(d): d for d in _candidates(work, root)
             if markup_clickable(state.nodes[d.node_id], state, cues)}
    inferred = set(by_id)
    if not inferred:
        return 0
    icons = {i for i in inferred if icon_only(state.nodes[by_id[i].node_id])}
    order = preorder(root)
    covered = {id(root): False}  # inside a clickable parent (a, button, role button/link)
    in_control = {id(root): False}  # inside an element tiered before this pass
    for dnode in order:
        node = state.nodes[dnode.node_id]
        clicks = dnode.tier is not None or id(dnode) in inferred
        inside = covered[id(dnode)] or (clicks and _propagates(node))
        held = in_control[id(dnode)] or dnode.tier is not None
        for child in dnode.children:  # a mere icon inside any control is part of it
            covered[id(child)] = inside or (held and id(child) in icons)
            in_control[id(child)] = held
    kept = 0
    below: dict[int, tuple[list[DNode], int]] = {}  # tiered elements, loose text in the subtree
    for dnode in reversed(order):
        if dnode.is_text:
            below[id(dnode)] = ([], len(dnode.text.strip()))
            continue
        tiered = [d for child in dnode.children for d in below[id(child)][0]]
        loose = sum(below[id(child)][1] for child in dnode.children)
        if id(dnode) in inferred and not covered[id(dnode)]:
            inner = [d for d in tiered if id(d) not in icons]
            wraps_one = (not loose and len(inner) <= 1 and len(tiered) >= 1
                         and all(id(d) in inferred and not _propagates(state.nodes[d.node_id])
                                 for d in tiered))  # a link inside keeps its ref
            if wraps_one:  # a wrapper around one inferred element: the outer one is the control
                for inside in tiered:
                    _set_tier(work, inside, None)
                kept -= len(tiered)
            holds_fields = any(state.nodes[d.node_id].tag in _FIELD_TAGS for d in tiered)
            if (not tiered or loose or wraps_one) and not holds_fields:
                _set_tier(work, dnode, "non_semantic")
                kept += 1
        if dnode.tier is not None:
            below[id(dnode)] = ([dnode], 0)
        else:
            below[id(dnode)] = (tiered, loose)
    return kept


def _fallback_tiers(work: Work, root: DNode) -> int:
    state = work.state
    found = 0
    for dnode in _candidates(work, root):
        if fallback_clickable(state.nodes[dnode.node_id], state):
            _set_tier(work, dnode, "non_semantic")
            found += 1
    return found


def _ids_by_frame(nodes: list[Node]) -> dict[tuple[int, str], int]:
    """(frame, id attribute) -> first node with it."""
    out: dict[tuple[int, str], int] = {}
    for node in nodes:
        if "id" in node.attributes:
            out.setdefault((node.frame, node.attributes["id"]), node.id)
    return out


def _labelled_control(label: Node, work: Work, ids: dict[tuple[int, str], int]) -> int | None:
    nodes = work.state.nodes
    target = label.attributes.get("for")
    if target:
        control = ids.get((label.frame, target))
        return control if control is not None and nodes[control].tag in FORM_CONTROL_TAGS else None
    for i in range(label.id + 1, work.facts.last_desc[label.id] + 1):
        if nodes[i].tag in FORM_CONTROL_TAGS:
            return i
    return None


def _shown(node_id: int, work: Work) -> bool:
    return work.visible(node_id) and node_id not in work.muted


def _propagates(node: Node) -> bool:
    return node.tag in ("a", "button") or node.role in _PROPAGATING_ROLES


def _keeps_own_ref(node: Node) -> bool:
    return (
        node.tag in FORM_CONTROL_TAGS
        or _propagates(node)
        or node.role in _OWN_REF_ROLES
        or node.attributes.get("contenteditable") in _EDITABLE
    )


def _contained(child: tuple[float, ...], parent: tuple[float, ...], threshold: float) -> bool:
    cx, cy, cw, ch = child
    if cw <= 0 or ch <= 0:
        return False
    px, py, pw, ph = parent
    ix = min(cx + cw, px + pw) - max(cx, px)
    iy = min(cy + ch, py + ph) - max(cy, py)
    return ix > 0 and iy > 0 and (ix * iy) / (cw * ch) >= threshold


def propagating_bounds(work: Work, root: DNode) -> int:
    """Clear the tier of elements inside a clickable parent; returns how many lost it."""
    nodes = work.state.nodes
    threshold = work.options.containment_threshold
    cleared = 0
    stack: list[tuple[DNode, tuple[float, ...] | None]] = [(root, None)]
    while stack:
        dnode, active = stack.pop()
        node = nodes[dnode.node_id]
        if dnode.tier is not None and node.bounds is not None:
            if (
                active is not None
                and not _keeps_own_ref(node)
                and _contained(node.bounds, active, threshold)
            ):
                dnode.tier = None
                del work.tiers[dnode.node_id]
                cleared += 1
            if dnode.tier is not None and _propagates(node):
                active = node.bounds
        stack.extend((child, active) for child in reversed(dnode.children))
    return cleared
