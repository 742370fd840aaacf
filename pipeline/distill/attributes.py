"""The attributes pass: decide which attributes each kept element shows.

Only ``include_attributes`` are kept (``href`` on links, with the page's own origin dropped);
the live value of a control is shown as ``value`` (redacted values as ``•••``), and a text field
that holds nothing says so with a bare ``empty`` (``<input type=password empty />``: the model sees
which fields of a form are still to fill); states are shown
compactly: ``checked``/``expanded``/``pressed`` = true|false|mixed, ``selected``/``disabled``/
``required`` = true (they replace aria-checked/aria-expanded/aria-pressed), ``haspopup`` = true or
the kind of popup (``listbox``, ``dialog`` ...; from aria-haspopup, shown only when it opens one:
a menu item with a submenu says so, the leaves beside it do not); compound hints are
added; empty values are dropped. Then values are deduplicated (a value repeated in several attributes is kept once, in
the first of them; aria-label, title and alt equal to the element's visible text are dropped) and
capped at ``attribute_value_cap`` characters followed by "…". An interactive element that would
show nothing that names it — no text, no attribute but its role, type or states: the icon-only
``<span class="trash">``, jQuery UI's ``<a role=button class="ui-button … ui-spinner-up">`` —
shows its rarest class names on the page as well, so that a model can tell such elements apart,
and the colour it is painted in, where it has one of its own (``color=purple`` on a palette's
swatch, ``color=black`` on an SVG circle: ``distill.colours``).
An interactive element without a selection state of its own that a class marks as the chosen one
(a word ``selected``, ``active``, ``current``, ``checked``, ``pressed`` or ``chosen`` in its class
or in the class of the ``<li>`` that holds it: an Odd/Even button clicked, Bootstrap's current
page, jQuery UI's ``ui-state-active`` tab) shows ``selected=true``: the page says so only in its
styles, and without it a click that chose something looks like a click that changed nothing.

With the pass switched off elements show all their source attributes, uncapped, plus hints.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from urllib.parse import urlsplit

from pipeline.distill.colours import painted_colour
from pipeline.distill.model import DNode
from pipeline.distill.tree import SubtreeText, preorder
from pipeline.distill.work import Work
from pipeline.page_state import Node

REDACTED = "•••"
_FLAG = {True: "true", False: "false", "mixed": "mixed"}
_BOOLEAN_ATTRIBUTES = ("checked", "disabled", "required")
_TEXT_EQUAL_DROPPED = ("aria-label", "title", "alt")
_NOT_DEDUPED = frozenset({"true", "false", "mixed"})
_VALUE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "slider"})
_CHECKABLE_INPUTS = frozenset({"checkbox", "radio"})
_NOT_TEXT_INPUTS = frozenset({"checkbox", "radio", "submit", "button", "reset", "image", "range",
                              "file", "hidden", "color"})
_CLASS_HINT_NAMES = 3
_CLASS_HINT_CHARS = 40
_CHOSEN_CLASS_WORDS = frozenset({"selected", "active", "current", "checked", "pressed", "chosen"})
_CLASS_WORD = re.compile(r"[a-z]+")
_SELECTION_STATES = ("checked", "pressed", "selected", "aria-checked", "aria-pressed")
# Shown attributes that say what kind of element it is or what state it is in, not which one.
_UNNAMING = frozenset({
    "role", "type", "checked", "expanded", "pressed", "selected", "disabled", "required",
    "invalid", "aria-expanded", "aria-checked", "haspopup", "empty", "size", "in_box",
})


def page_origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def shorten_href(href: str, origin: str) -> str:
    """Drop the page's own origin: ``https://shop.test/p/1`` on shop.test -> ``/p/1``."""
    if origin and href.startswith(origin):
        rest = href[len(origin) :]
        if not rest:
            return "/"
        if rest[0] in "/?#":
            return rest
    return href


def _states(node: Node, out: dict[str, str]) -> None:
    states = node.states
    for key in ("checked", "expanded", "pressed"):
        value = states.get(key)
        if value in _FLAG:
            out[key] = _FLAG[value]
            out.pop(f"aria-{key}", None)
    for key in ("selected", "disabled", "required"):
        if states.get(key) is True and node.tag != "option":
            out[key] = "true"
    for key in _BOOLEAN_ATTRIBUTES:
        if out.get(key) == "":
            out[key] = "true"
    popup = popup_kind(out.pop("aria-haspopup", ""))
    if popup:
        out["haspopup"] = popup


def popup_kind(haspopup: str) -> str:
    """What an ``aria-haspopup`` value says the element opens: "" nothing, "true" a menu (ARIA's
    ``menu`` and ``true`` are one), else the popup's kind (``listbox``, ``dialog`` ...)."""
    popup = haspopup.strip().lower()
    return "" if popup in ("", "false") else "true" if popup == "menu" else popup


def _value(node: Node, out: dict[str, str]) -> None:
    kind = node.attributes.get("type", "").lower()
    if kind in _CHECKABLE_INPUTS and node.tag == "input":
        return
    if node.states.get("redacted") or (kind == "password" and (node.value or out.get("value"))):
        out["value"] = REDACTED
    elif node.value is not None and (
        node.tag in ("input", "textarea") or node.role in _VALUE_ROLES
    ):
        out["value"] = node.value


def _dedup(out: dict[str, str], text: str) -> None:
    folded = text.casefold()
    seen: set[str] = set()
    for key in list(out):
        value = out[key]
        if key in _TEXT_EQUAL_DROPPED and folded and " ".join(value.split()).casefold() == folded:
            del out[key]
        elif len(value) >= 3 and value not in _NOT_DEDUPED:
            if value in seen:
                del out[key]
            else:
                seen.add(value)


def _cap(out: dict[str, str], cap: int) -> None:
    """Cap long values; drop empty ones (boolean attributes already read "true")."""
    for key, value in list(out.items()):
        if not value:
            del out[key]
        elif len(value) > cap:
            out[key] = value[:cap] + "…"


def shown_attributes(
    node: Node, text: str, work: Work, origin: str, rank: dict[str, int]
) -> dict[str, str]:
    """The attributes one element shows (``text``: its visible text in the distilled tree;
    ``rank``: position of each included attribute name, which orders them and their dedup)."""
    raw = node.attributes
    out: dict[str, str] = {}
    for key in sorted((key for key in raw if key in rank), key=rank.__getitem__):
        if key == "href":
            if node.tag in ("a", "area"):
                out[key] = shorten_href(raw[key], origin)
        else:
            out[key] = raw[key]
    _states(node, out)
    _value(node, out)
    out.update(work.hints.get(node.id, {}))
    _dedup(out, text)
    _cap(out, work.options.attribute_value_cap)
    if "value" not in out and is_text_field(node):
        out["empty"] = ""
    return out


def is_text_field(node: Node) -> bool:
    """An ``<input>`` one types text into (any type but buttons, boxes, ranges, files ...) or a
    ``<textarea>``."""
    if node.tag == "textarea":
        return True
    return node.tag == "input" and node.attributes.get("type", "").lower() not in _NOT_TEXT_INPUTS


def class_hint(classes: str, frequency: Mapping[str, int]) -> str:
    """Up to three class names, those that fewest elements of the page share (``frequency``:
    class name -> elements with it) as long as they fit in 40 characters, in their own order:
    ``"ui-button ui-widget ui-spinner-button ui-spinner-up ui-corner-tr"`` with only the up
    arrow having ``ui-spinner-up`` and ``ui-corner-tr`` -> ``"ui-button ui-spinner-up
    ui-corner-tr"``."""
    split = list(dict.fromkeys(classes.split()))
    chosen: list[int] = []
    length = -1
    for i in sorted(range(len(split)), key=lambda i: (frequency.get(split[i], 0), i)):
        if len(chosen) < _CLASS_HINT_NAMES and length + 1 + len(split[i]) <= _CLASS_HINT_CHARS:
            chosen.append(i)
            length += 1 + len(split[i])
    return " ".join(split[i] for i in sorted(chosen)) or " ".join(split)[:_CLASS_HINT_CHARS]


def chosen_by_class(node: Node, nodes: list[Node]) -> bool:
    """Whether the element's class, or that of the ``<li>`` holding it, marks it as chosen."""
    holder = nodes[node.parent] if node.parent is not None else None
    for element in (node, holder if holder is not None and holder.tag == "li" else None):
        classes = element.attributes.get("class", "") if element is not None else ""
        if classes and not _CHOSEN_CLASS_WORDS.isdisjoint(_CLASS_WORD.findall(classes.lower())):
            return True
    return False


def class_frequency(nodes: list[Node]) -> Counter[str]:
    """How many elements of the page carry each class name."""
    counts: Counter[str] = Counter()
    for node in nodes:
        classes = node.attributes.get("class") if node.kind == "element" else None
        if classes:
            counts.update(set(classes.split()))
    return counts


def attributes(work: Work, root: DNode) -> int:
    """Set every element's shown attributes; returns how many elements' attributes changed."""
    nodes, origin = work.state.nodes, page_origin(work.state.url)
    rank = {key: index for index, key in enumerate(work.options.include_attributes)}
    changed = 0
    subtree_text = SubtreeText()
    frequency: Counter[str] | None = None
    for dnode in preorder(root):
        if dnode.is_text or dnode.tag.startswith("#"):
            continue
        node = nodes[dnode.node_id]
        needs_text = any(key in node.attributes for key in _TEXT_EQUAL_DROPPED)
        text = subtree_text(dnode) if needs_text else ""
        dnode.attrs = shown_attributes(node, text, work, origin, rank)
        if (dnode.tier is not None and _UNNAMING.issuperset(dnode.attrs)
                and not (text or subtree_text(dnode))):
            if node.attributes.get("class", "").strip():
                if frequency is None:
                    frequency = class_frequency(nodes)
                dnode.attrs["class"] = class_hint(node.attributes["class"], frequency)
            colour = painted_colour(node, work.state).split()
            if colour:  # a swatch or a shape: its paint is what tells it apart
                dnode.attrs["color"] = colour[0]
        if dnode.tier is not None and chosen_by_class(node, nodes) and not any(
            key in dnode.attrs for key in _SELECTION_STATES
        ):
            dnode.attrs["selected"] = "true"
        changed += dnode.attrs != node.attributes
    return changed


def raw_attributes(work: Work, root: DNode) -> None:
    """The pass switched off: all source attributes plus compound hints."""
    for dnode in preorder(root):
        if not dnode.is_text and not dnode.tag.startswith("#"):
            dnode.attrs = {
                **work.state.nodes[dnode.node_id].attributes,
                **work.hints.get(dnode.node_id, {}),
            }
