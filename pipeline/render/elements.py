"""The one element formatter both renderers use, and the text helpers behind it.

An element with a ref prints as ``[N]<tag attr=value>text</tag>`` (``<tag attr=value />`` when it
has no text); ``*[N]`` marks an element new since the previous step. Attribute values are quoted
only when they need it; an empty value prints as a bare name (``required``). An element's text is
the text of its subtree up to the next element that prints on its own line (another ref, a scroll
container, a shadow root or an iframe document).
"""

from __future__ import annotations

import re

from pipeline.distill.markup import typing_surface
from pipeline.distill.model import DNode
from pipeline.page_state import PageState

# Tags whose text flows inline: a block whose children are all inline prints as one text line.
INLINE_TAGS = frozenset({
    "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "img", "ins", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup",
    "time", "u", "var", "wbr",
})
_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]}])(?=\s|$)")
_COMPOUND_HINTS = frozenset(("selected", "options"))
_QUOTE_TRIGGERS = frozenset(" \t\n\"'<>=`")

# role (or tag) -> the kind counted in a collapsed region line: "12 links, 2 buttons"
_ROLE_KINDS = {
    "link": "link", "button": "button", "textbox": "input", "searchbox": "input",
    "combobox": "combobox", "listbox": "listbox", "checkbox": "checkbox", "radio": "radio",
    "switch": "switch", "tab": "tab", "menuitem": "menuitem", "menuitemcheckbox": "menuitem",
    "menuitemradio": "menuitem", "option": "option", "slider": "slider",
    "spinbutton": "input", "treeitem": "treeitem",
}
_TAG_KINDS = {"a": "link", "button": "button", "select": "select", "textarea": "input",
              "summary": "button", "details": "button"}
_INPUT_KINDS = {"checkbox": "checkbox", "radio": "radio", "submit": "button", "button": "button",
                "reset": "button", "image": "button", "range": "slider", "file": "file input"}


def is_own_line(node: DNode) -> bool:
    """Elements that print on their own line: refs, scroll containers, fragments."""
    return node.ref is not None or node.scrollable or node.tag.startswith("#")


def element_text(node: DNode) -> tuple[str, list[DNode]]:
    """The element's own text and the descendants that print on their own lines (in order).
    A ``<select>`` whose compound hints name its selected value and options shows no option text.
    """
    if node.tag == "select" and not _COMPOUND_HINTS.isdisjoint(node.attrs):
        return "", []
    parts: list[str] = []
    frontier: list[DNode] = []
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        if child.is_text:
            parts.append(child.text)
        elif is_own_line(child):
            frontier.append(child)
        else:
            stack.extend(reversed(child.children))
    return join_texts(parts), frontier


def collapse(text: str) -> str:
    return " ".join(text.split())


def join_texts(parts: list[str]) -> str:
    """Texts joined with single spaces, none left before closing punctuation (text nodes of
    inline elements: ``over <b>$50</b>.`` reads ``over $50.``)."""
    if len(parts) == 1:
        return collapse(parts[0])
    return _SPACE_BEFORE_PUNCT.sub(_first_group, collapse(" ".join(parts)))


def _first_group(match: re.Match) -> str:
    return match.group(1)


def trim_text(text: str, limit: int) -> str:
    """Text cut to at most ``limit`` characters: the first sentence when it fits, else at a word
    boundary, with an ellipsis."""
    if len(text) <= limit:
        return text
    for end in (". ", "! ", "? "):
        cut = text.find(end, 0, limit)
        if cut >= limit // 4:
            return text[: cut + 1] + " …"
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1] + "…"


def shown_text(node: DNode, text: str, limit: int) -> str:
    """The element's text as a line shows it, cut to ``limit``: the end of a typing surface's
    (a terminal's latest command and output), the start of any other's (``trim_text``)."""
    if len(text) <= limit or not typing_surface(node.attrs):
        return trim_text(text, limit)
    return text_end(text, limit)


def text_end(text: str, limit: int) -> str:
    """The end of ``text`` in at most ``limit`` characters after an ellipsis, from a word's
    start where one begins in it."""
    if len(text) <= limit:
        return text
    cut = text.find(" ", len(text) - limit + 2)
    return "…" + (text[cut:] if cut != -1 else text[len(text) - limit + 1:])


def format_attrs(attrs: dict[str, str]) -> str:
    out = []
    for name, value in attrs.items():
        if value == "":
            out.append(name)
        elif _QUOTE_TRIGGERS.isdisjoint(value):
            out.append(f"{name}={value}")
        elif '"' in value and "'" not in value:
            out.append(f"{name}='{value}'")
        else:
            out.append(f'{name}="{value.replace(chr(34), "&quot;")}"')
    return " ".join(out)


def format_element(node: DNode, text: str, *, new: bool = False, label: str | None = None) -> str:
    """``[N]<tag attrs>text</tag>``; ``label`` replaces ``[N]`` (e.g. ``|SCROLL+[N]|``)."""
    head = label if label is not None else f"[{node.ref}]"
    if text and text == node.attrs.get("value"):  # a textarea's text is its value: show it once
        text = ""
    attrs = format_attrs(node.attrs)
    opening = f"<{node.tag} {attrs}" if attrs else f"<{node.tag}"
    body = f"{opening}>{text}</{node.tag}>" if text else f"{opening} />"
    return ("*" if new else "") + head + body


def scroll_note(state: PageState, node: DNode) -> str:
    """`` (1.0 pages above, 2.5 pages below)`` for a scroll container, in its own heights."""
    facts = state.nodes[node.node_id]
    if facts.scroll is None or facts.bounds is None or facts.bounds[3] <= 0:
        return ""
    _, top, _, height = facts.scroll
    visible = facts.bounds[3]
    above, below = top / visible, max(0.0, (height - top - visible) / visible)
    parts = [f"{v:.1f} pages {side}" for v, side in ((above, "above"), (below, "below")) if v >= 0.05]
    return f" ({', '.join(parts)})" if parts else ""


def scroll_label(node: DNode) -> str:
    return f"|SCROLL+[{node.ref}]|" if node.ref is not None else "|SCROLL|"


def fragment_marker(state: PageState, node: DNode) -> str:
    """The opening line of a shadow root or an inlined iframe document."""
    if node.tag == "#shadow-root":
        mode = state.nodes[node.node_id].attributes.get("mode", "open")
        return f"▼ shadow-root ({mode})"
    frame = state.frames[state.nodes[node.node_id].frame] if state.frames else None
    url = frame.url if frame is not None and frame.url else ""
    return f"▼ iframe {url}".rstrip()


def element_kind(state: PageState, node: DNode) -> str:
    """What a ref is, for counts: link, button, input, select, checkbox, ..."""
    role = state.nodes[node.node_id].role or node.attrs.get("role")
    if role in _ROLE_KINDS:
        return _ROLE_KINDS[role]
    if node.tag == "input":
        kind = state.nodes[node.node_id].attributes.get("type") or node.attrs.get("type", "text")
        return _INPUT_KINDS.get(kind.lower(), "input")
    return _TAG_KINDS.get(node.tag, "element")


def count_phrase(kinds: list[str]) -> str:
    """``12 links, 2 buttons`` (most frequent first)."""
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{n} {_plural(kind) if n != 1 else kind}" for kind, n in ordered)


def _plural(word: str) -> str:
    return word + "es" if word.endswith(("x", "s", "ch")) else word + "s"
