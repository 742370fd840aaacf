"""The compound pass: summarise form controls whose state the bare tag does not show.

``<select>``  ``selected="Canada" options="50" first_options="Afghanistan|Albania|Algeria|Andorra"``;
              the option children leave the tree. The selection comes from the options'
              ``selected`` state (AX tree or attribute), Mind2Web's ``option_selected``, the
              select's live value, else the first option (what a browser shows).
range         ``min``/``max``/``step``/``value`` with the HTML defaults filled in.
number        ``min``/``max`` when set.
date/time...  a ``format`` hint such as ``YYYY-MM-DD`` or ``HH:MM``.
resize handle a jQuery UI ``ui-resizable-s`` (or -n, -e, -w, -se, ...): ``resizes=height``, the
              size a drag of that edge changes (what a task asks: "make the height smaller").
The hints land in ``Work.hints``; the attributes pass adds them to the shown attributes.
"""

from __future__ import annotations

from pipeline.distill.model import DNode
from pipeline.distill.tree import preorder
from pipeline.distill.work import Work
from pipeline.page_state import Node, PageState

# the edge a resize handle sits on -> the size a drag of it changes
_EDGE_SIZES = {"n": "height", "s": "height", "e": "width", "w": "width",
               **{corner: "width and height" for corner in ("ne", "nw", "se", "sw")}}
DATE_FORMATS = {
    "date": "YYYY-MM-DD",
    "time": "HH:MM",
    "datetime-local": "YYYY-MM-DDTHH:MM",
    "month": "YYYY-MM",
    "week": "YYYY-Www",
}


def _option_text(state: PageState, option: Node) -> str:
    return state.text_content(option.id) or option.attributes.get("label", "")


def _is_selected(option: Node) -> bool:
    attrs = option.attributes
    selected = option.states.get("selected")
    if selected is not None:
        return bool(selected)
    return "selected" in attrs or attrs.get("option_selected") == "true"


def select_hints(state: PageState, select: Node, last_desc: int, first_n: int) -> dict[str, str]:
    nodes = state.nodes
    options = [nodes[i] for i in range(select.id + 1, last_desc + 1) if nodes[i].tag == "option"]
    texts = [_option_text(state, option) for option in options]
    chosen = [text for option, text in zip(options, texts, strict=True) if _is_selected(option)]
    if not chosen and select.value is not None:
        chosen = [
            text
            for option, text in zip(options, texts, strict=True)
            if option.attributes.get("value", text) == select.value
        ]
    if not chosen and texts and "multiple" not in select.attributes:
        chosen = texts[:1]
    hints = {"selected": "|".join(chosen)} if chosen else {}
    hints["options"] = str(len(options))
    if texts and first_n:
        hints["first_options"] = "|".join(texts[:first_n])
    return hints


def input_hints(node: Node) -> dict[str, str]:
    attrs = node.attributes
    kind = attrs.get("type", "").lower()
    if kind == "range":
        low, high = attrs.get("min", "0"), attrs.get("max", "100")
        value = node.value if node.value is not None else attrs.get("value")
        if value is None:
            value = _midpoint(low, high)
        return {"min": low, "max": high, "step": attrs.get("step", "1"), "value": value}
    if kind == "number":
        return {key: attrs[key] for key in ("min", "max") if key in attrs}
    if kind in DATE_FORMATS:
        return {"format": DATE_FORMATS[kind]}
    return {}


def resize_hint(node: Node) -> dict[str, str]:
    """``resizes``: the size a jQuery UI resize handle changes, from its edge's class."""
    written = node.attributes.get("class", "")
    if "ui-resizable-handle" not in written:  # (most nodes: no split)
        return {}
    edges = (name.removeprefix("ui-resizable-") for name in written.split())
    size = next((_EDGE_SIZES[edge] for edge in edges if edge in _EDGE_SIZES), None)
    return {"resizes": size} if size else {}


def _midpoint(low: str, high: str) -> str:
    try:
        middle = (float(low) + float(high)) / 2
    except ValueError:
        return ""
    return str(int(middle)) if middle.is_integer() else str(middle)


def compound(work: Work, root: DNode) -> int:
    """Add hints; returns the number of option nodes removed from the tree."""
    state = work.state
    removed = 0
    for dnode in preorder(root):
        if dnode.tag == "select":
            node = state.nodes[dnode.node_id]
            last = work.facts.last_desc[dnode.node_id]
            work.hints[dnode.node_id] = select_hints(
                state, node, last, work.options.max_first_options
            )
            removed += sum(len(preorder(child)) for child in dnode.children)
            dnode.children = []
        else:
            node = state.nodes[dnode.node_id]
            hints = input_hints(node) if dnode.tag == "input" else resize_hint(node)
            if hints:
                work.hints[dnode.node_id] = hints
    return removed
