"""Mind2Web's HTML conventions, shared by the reader (``mind2web_reader``) and the writer
(``pipeline.html.mind2web_writer``).

Mind2Web rebuilds a page from a CDP ``DOMSnapshot``: every node becomes an element carrying
``backend_node_id`` and ``bounding_box_rect="x,y,w,h"`` (``-1,-1,-1,-1`` without layout); text
nodes are ``<text>`` elements, the document node is ``ROOT_DCOUMENT`` (sic), other ``#name`` nodes
become ``hash-name`` and pseudo elements ``pseudo-before``; attribute names have non-word
characters replaced by ``_`` (a leading digit gets a ``_`` prefix), and snapshot facts are added as
attributes (``input_value``, ``input_checked`` ...). Label-leak markers
(``data_pw_testid_buckeye*``) name the annotated target and must never reach a model.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pipeline.page_state import PageState

ID_ATTR = "backend_node_id"
RECT_ATTR = "bounding_box_rect"
NO_RECT = "-1,-1,-1,-1"
# This project's addition (Mind2Web's files have none): an element that scrolls carries its scroll
# box, "left,top,width,height" (``Node.scroll``), so a recorded dump reads as scrollable as the
# live page did (a text area to scroll to the end of).
SCROLL_ATTR = "scroll_rect"
DOCUMENT_TAG = "root_dcoument"  # Mind2Web's spelling, lower-cased as parsers see it
SHADOW_TAG = "hash-document-fragment"
COMMENT_TAG = "hash-comment"
TEXT_TAG = "text"
LEAK_PREFIXES = ("data_pw_testid_buckeye", "data-pw-testid-buckeye")

# Attributes Mind2Web adds from the snapshot, in the order it writes them.
FACT_ATTRS = (
    "text_value", "input_value", "input_checked", "option_selected", "pseudo_type", "is_clickable"
)  # fmt: skip

# What Mind2Web's cleaned_html keeps besides backend_node_id (``aria_*`` by prefix).
CLEANED_ATTRS = frozenset(
    {
        "alt", "input_checked", "input_value", "label", "name", "option_selected", "placeholder",
        "role", "text_value", "title", "type", "value",
    }
)  # fmt: skip

# Real attribute names with '-' or ':' that are not aria-*/data-* (HTML and SVG).
_HYPHENATED = (
    "accept-charset", "http-equiv", "xlink:href", "xlink:title", "xml:lang", "xml:space",
    "xmlns:xlink", "accent-height", "alignment-baseline", "baseline-shift", "clip-path",
    "clip-rule", "color-interpolation", "color-interpolation-filters", "dominant-baseline",
    "enable-background", "fill-opacity", "fill-rule", "flood-color", "flood-opacity",
    "font-family", "font-size", "font-style", "font-weight", "image-rendering", "letter-spacing",
    "lighting-color", "marker-end", "marker-mid", "marker-start", "paint-order",
    "pointer-events", "shape-rendering", "stop-color", "stop-opacity", "stroke-dasharray",
    "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit",
    "stroke-opacity", "stroke-width", "text-anchor", "text-decoration", "text-rendering",
    "transform-origin", "unicode-bidi", "vector-effect", "word-spacing", "writing-mode",
)  # fmt: skip
_RESTORE = {name.replace("-", "_").replace(":", "_"): name for name in _HYPHENATED}
_NON_WORD = re.compile(r"[^\w]")
_TAG_NON_WORD = re.compile(r"[^\w\s]")


def is_leak_marker(name: str) -> bool:
    return name.startswith(LEAK_PREFIXES)


def sanitize_attribute_name(name: str) -> str:
    """An attribute name as Mind2Web writes it: ``aria-label`` -> ``aria_label``, ``3d`` -> ``_3d``."""
    out = _NON_WORD.sub("_", name)
    return "_" + out if out[:1].isdigit() else out


@lru_cache(maxsize=4096)
def restore_attribute_name(name: str) -> str:
    """Undo ``sanitize_attribute_name`` where the original is knowable: ``aria_*`` and ``data_*``
    get their hyphens back, a ``_`` before a digit is dropped, known hyphenated HTML/SVG names are
    restored; any other name is left as it is (underscores are valid in attribute names)."""
    if name[:1] == "_" and name[1:2].isdigit():
        name = name[1:]
    if name.startswith("aria_"):
        return "aria-" + name[5:]
    if name.startswith("data_"):
        return "data-" + name[5:].replace("_", "-")
    return _RESTORE.get(name, name)


def sanitize_tag(tag: str) -> str:
    """A node name as Mind2Web writes it (``#document`` handled by the writer itself)."""
    if tag.startswith("::"):
        tag = "pseudo-" + tag[2:]
    elif tag == "#shadow-root":
        return SHADOW_TAG
    elif tag.startswith("#"):
        tag = "hash-" + tag[1:]
    return _TAG_NON_WORD.sub("-", tag.lower())


def parse_rect(value: str) -> tuple[float, float, float, float] | None:
    """``"x,y,w,h"`` -> bounds; ``-1,-1,-1,-1`` (no layout) -> None. Raises ValueError."""
    parts = value.split(",")
    if len(parts) != 4:
        raise ValueError(f"bounding_box_rect {value!r} is not 'x,y,w,h'")
    x, y, w, h = (float(p) for p in parts)
    if x == y == w == h == -1:
        return None
    return (x, y, w, h)


def format_rect(bounds: tuple[float, float, float, float] | None) -> str:
    if bounds is None:
        return NO_RECT
    return ",".join(_number(v) for v in bounds)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


OPS = ("CLICK", "TYPE", "SELECT")
# pagescout's own original_op values for actions Mind2Web has no op for. A file we write keeps
# Mind2Web's shape (op CLICK, so any Mind2Web reader still reads it); the value says the rest:
# SCROLL "up|down|left|right" (":end" to go all the way), DRAG "to:<backend_node_id>" or
# "by:<dx>,<dy>", CLEAR "", PRESS the key (pressed in the focused element, the op's target),
# SELECT_TEXT the passage (the target: the smallest element whose text holds it).
EXTENSION_OPS = ("SCROLL", "DRAG", "CLEAR", "PRESS", "SELECT_TEXT")
ORIGINAL_OPS = ("CLICK", "TYPE", "SELECT", "HOVER", "ENTER", *EXTENSION_OPS)
REPR_TEXT_CHARS = 100  # an element's text in action_reprs is cut here
_NAMELESS_ROLES = frozenset({"", "generic", "none", "presentation", "StaticText", "paragraph"})


def operation(op: str, value: str = "", original_op: str | None = None) -> dict[str, str]:
    """Mind2Web's ``{op, original_op, value}``; HOVER and ENTER are op CLICK without a value,
    the extension ops op CLICK with their value."""
    original = original_op or op
    if original not in ORIGINAL_OPS:
        raise ValueError(f"original_op {original!r} is not one of {', '.join(ORIGINAL_OPS)}")
    if original in ("HOVER", "ENTER", *EXTENSION_OPS):
        op = "CLICK"
    if op not in OPS:
        raise ValueError(f"op {op!r} is not one of {', '.join(OPS)}")
    keep = op != "CLICK" or original in EXTENSION_OPS
    return {"op": op, "original_op": original, "value": value if keep else ""}


def action_repr(state: PageState, backend_id: int, op: dict[str, str], label: str = "") -> str:
    """``"[role]  text -> OP"`` (+ ``": value"`` for TYPE/SELECT), as Mind2Web writes it; the
    extension ops show their value (a drag target as the element it names). ``label`` names an
    element that has no name, text or placeholder of its own (Mind2Web leaves the text empty)."""
    if op["original_op"] == "PRESS":  # as the agent's history writes a key press
        return press_repr(op["value"])
    role, text = repr_label(state, backend_id, label)
    shown = op["op"]
    if op["original_op"] in ("HOVER", "ENTER", *EXTENSION_OPS):
        shown = op["original_op"]
    value = op["value"] if op["op"] in ("TYPE", "SELECT") or shown in EXTENSION_OPS else ""
    if shown == "DRAG":
        value = drag_value_text(state, value)
    return f"[{role}]  {text} -> {shown}" + (f": {value}" if value else "")


def press_repr(key: str) -> str:
    """The history line of a key press: ``[key]  Enter -> ENTER``, ``[key]  a -> PRESS``."""
    return f"[key]  {key} -> {'ENTER' if key == 'Enter' else 'PRESS'}"


def repr_label(state: PageState, backend_id: int, label: str = "") -> tuple[str, str]:
    """(role or tag, text cut at REPR_TEXT_CHARS) of an element, as ``action_repr`` names it;
    ``label`` when the element has no name, text or placeholder of its own."""
    node = state.nodes[state.by_backend_id()[backend_id]]
    role = node.role if node.role and node.role not in _NAMELESS_ROLES else node.tag
    text = (node.name or state.text_content(node.id) or node.attributes.get("placeholder", "")
            or label)
    return role, " ".join(text.split())[:REPR_TEXT_CHARS]


def drag_value(to_backend_id: int | None = None, offset: tuple[int, int] | None = None) -> str:
    """A DRAG operation's value: ``to:<backend_node_id>`` or ``by:<dx>,<dy>``."""
    if (to_backend_id is None) == (offset is None):
        raise ValueError("a drag goes to an element or by an offset, exactly one of them")
    return f"to:{to_backend_id}" if offset is None else f"by:{offset[0]},{offset[1]}"


def parse_drag_value(value: str) -> tuple[int | None, tuple[int, int] | None]:
    """``to:<id>`` -> (id, None); ``by:<dx>,<dy>`` -> (None, (dx, dy)). Raises ValueError."""
    kind, _, rest = value.partition(":")
    try:
        if kind == "to":
            return int(rest), None
        if kind == "by":
            dx, dy = rest.split(",")
            return None, (int(dx), int(dy))
    except ValueError:
        pass
    raise ValueError(f"DRAG value {value!r} is neither 'to:<backend_node_id>' nor 'by:<dx>,<dy>'")


def drag_value_text(state: PageState, value: str) -> str:
    """How a DRAG value reads in a history line: ``onto [role] text`` or ``by dx,dy``."""
    to_id, offset = parse_drag_value(value)
    if offset is not None:
        return f"by {offset[0]},{offset[1]}"
    role, text = repr_label(state, to_id)
    return f"onto [{role}] {text}".rstrip()
