"""Clickability from the markup alone, for sources that carry no runtime evidence.

A live capture knows which elements listen for clicks and which show a pointer cursor; saved
HTML, DOM dumps without ``is_clickable`` and Mind2Web ``cleaned_html`` do not, and there a span
with a script-attached click handler looks like any other span. ``lacks_runtime_evidence`` tells
the two apart (not a live capture, and no element marked clickable). Only then does
``markup_clickable`` read what the markup shows:

- ``<a>`` with or without ``href`` (cleaned_html drops every ``href``);
- ARIA widget state (``aria-expanded``, ``aria-haspopup``, ``aria-pressed``, ``aria-controls``)
  and widget-library hooks (``data-toggle``, ``data-action``, jQuery UI's ``data-handler``);
- words of the class and id that name something one clicks (``btn``, ``link``, ``item``, ``tab``,
  ``header``, ``toggle``, ``menu``, ``close``, ``star``, ``reply``, ``trash``, ``picker``, a
  calendar's ``slot`` or ``hour``, a board's ``tile``, ``cell`` or ``square``, a palette's
  ``swatch``, jQuery UI's ``ui-selectee``, ...; on an empty element of an icon's size, an
  icon's action too: ``open``, ``search``, ``play``, ``zoom``, ...),
  matched as words of the name (``email-reply``, ``navLink``, ``alink``, ``ui-accordion-header``;
  ``header`` marks a control only where the element right after it is hidden, a section it
  opens: ``<h2 id=header-book>``, a terminal's or a mail's header bar are titles; and ``day``
  marks a calendar's cell, saying a day's number, not a date shown whole)
  and ignored when one word sits on so many elements of the page that it is a wrapper's or a
  list row's name -- except on an element set inside running text (text beside it in its
  parent: every linked word of a paragraph), where the class marks that word, and on an empty
  element, which wraps nothing (a calendar's half-hour slots, a rating's stars);
- SVG shapes, texts and groups marked by an id, a class, a mouse handler or a pointer cursor,
  and an ``<svg>`` drawing with no marked part, clicked at a point (``svg_markup``);
- an element whose whole id, or one whole class, names a surface one types into by clicking it
  first (``terminal``, ``console``, ``shell``, ``repl``: its keys go to a field the click
  focuses, often an invisible one); ``terminal-header`` is a part of it, not the surface;
- an element whose whole text is a command ("Submit", "OK", "Cancel", "Next", "Reply", ...),
  unless it sits inside a sentence (the quoted word of 'Click the "Reply" button'), or
  one glyph a control is drawn with (a dropdown's caret, an arrow, a close cross, a menu's
  bars), or is short and coloured apart from the text around it (where colours are known:
  computed or inline styles);
- an empty element painted with a background of its own, apart from the one around it, and of a
  swatch's size where its box or its style's size is known (a colour swatch, a button drawn in
  CSS; not a rule, nor a panel or an overlay);
- a list item with text of its own inside a list the class words name as a control (a
  dropdown's ``selectric-items``, a ``dropdown-menu``): the items, not the list, are picked;
- in cleaned_html, an element kept with neither text nor children: the cleaner drops such nodes
  unless they are candidates, so it is an icon or a control.

The pass keeps only the innermost of nested inferred elements (a list item around a clickable
label gives the ref to the label). ``fallback_clickable`` is the wider tier taken when a page would
otherwise have no ref at all: every short text element, and every empty box of a control's
size, gets one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from pipeline.distill.colours import UNPAINTED
from pipeline.distill.facts import pixels, style_of
from pipeline.distill.svg_markup import EMPTY_SHAPES, drawing_surfaces, svg_clickable
from pipeline.page_state import Node, PageState

CLICK_WORDS = frozenset(
    {
        "btn", "button", "link", "item", "option", "tab", "header", "toggle", "toggler", "menu",
        "menuitem", "close", "more", "star", "reply", "forward", "trash", "delete", "remove",
        "edit", "send", "submit", "cancel", "next", "prev", "previous", "expand", "expander",
        "collapse", "folder", "file", "thread", "clickable", "action", "choice", "dropdown",
        "nav", "arrow", "like", "share", "follow", "retweet", "checkbox", "radio", "dismiss",
        "accordion", "pager", "day", "handle", "icon", "entry", "picker", "slot", "hour",
        "tile", "cell", "square", "swatch", "selectee",
    }
)  # fmt: skip
# words naming what an icon does: marks of a control on an empty element of an icon's size only
# (an icon the script draws, ``<span id="open-search">``), where on an element with content, or
# on an empty box the script fills later (``<div id="search-results">``), they name a region
ICON_WORDS = frozenset(
    {
        "open", "search", "play", "pause", "add", "plus", "minus", "zoom", "refresh", "reload",
        "sync", "undo", "redo", "settings", "cog", "gear", "help", "info", "rate", "vote",
        "bookmark", "favorite", "heart", "flag", "mute", "bell", "thumbs", "times", "xmark",
        "bars", "hamburger", "ellipsis", "kebab", "chevron", "caret", "pencil", "download",
        "upload", "print", "copy",
    }
)  # fmt: skip
# the whole id or one whole class of a surface one clicks, then types into (a web terminal)
SURFACE_NAMES = frozenset({"terminal", "console", "shell", "repl"})
# words also found glued to another at either end of a class name ("alink", "navbutton", "closebtn")
_GLUED_WORDS = ("link", "button", "btn", "toggle", "close", "menu", "item")
COMMAND_TEXTS = frozenset(
    {
        "submit", "ok", "cancel", "search", "next", "previous", "prev", "back", "reply",
        "forward", "delete", "send", "close", "login", "log in", "sign in", "sign up", "more",
        "yes", "no", "done", "save", "apply", "continue", "go", "retry", "reset", "clear",
    }
)  # fmt: skip
# a control drawn as one glyph: a dropdown's caret, a pager's arrow, a close cross, a menu's bars
GLYPH_TEXTS = frozenset("▾▼▴▲▸▶►◂◀◄×✕✖☰⋮⋯»«›‹")
WIDGET_ATTRS = ("aria-expanded", "aria-haspopup", "aria-pressed", "aria-controls",
                "data-toggle", "data-bs-toggle", "data-action", "data-handler")
_COMMAND_TAGS = frozenset({"span", "div", "li", "td", "i", "b", "em", "strong", "font", "p"})
_EMPTY_IS_CANDIDATE = frozenset({"span", "div", "i", "svg", "img", "li", "td", "a", "em", "b",
                                 *EMPTY_SHAPES})
FLOOD_SHARE = 0.25  # a class word on more than this share of the elements names a wrapper
FLOOD_MIN = 20  # ... once it sits on at least this many
# px: a painted empty box with a side under the first is a rule or a dot, over the second a
# panel, an overlay or a banner
SWATCH_SIDES = (8, 64)
FALLBACK_MAX_TEXT = 80
COLOURED_MAX_TEXT = 40  # a command text or a coloured word is short
LIST_LEVELS = 3  # a list item and the element naming its list: li, ul, a scroller, the widget
_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")


def lacks_runtime_evidence(state: PageState) -> bool:
    """No listener or cursor evidence: not a live capture and nothing marked clickable."""
    return state.source != "live" and not any(n.states.get("clickable") for n in state.nodes)


def name_words(value: str) -> list[str]:
    """Lower-case words of a class or id: split at non-alphanumerics and camelCase humps."""
    return [w.lower() for w in _SPLIT.split(value) if w]


def _click_word(word: str) -> str | None:
    if word in CLICK_WORDS:
        return word
    return next((w for w in _GLUED_WORDS if word.startswith(w) or word.endswith(w)), None)


@dataclass(frozen=True, slots=True)
class MarkupCues:
    """What the page as a whole says about its own class words."""

    flooded: frozenset[str]  # click words too common on this page to mean anything
    cleaned: bool  # the source is cleaned_html (kept-but-empty elements are candidates)
    surfaces: frozenset[int]  # <svg> drawings one clicks at a point (``svg_markup``)


def markup_cues(state: PageState) -> MarkupCues:
    counts: Counter[str] = Counter()
    elements = 0
    for node in state.nodes:
        if node.is_element:
            elements += 1
            counts.update(set(_click_words(node)))
    limit = max(FLOOD_MIN, FLOOD_SHARE * elements)
    return MarkupCues(frozenset(w for w, n in counts.items() if n > limit),
                      state.source == "mind2web_cleaned", drawing_surfaces(state))


def _class_words(node: Node) -> list[str | None]:
    return [_click_word(w) for w in _own_name_words(node)]


def _own_name_words(node: Node) -> list[str]:
    """The words of the element's class and id."""
    attrs = node.attributes
    return name_words(attrs.get("class", "") + " " + attrs.get("id", ""))


def icon_only(node: Node) -> bool:
    """Clickable by the word "icon" alone: part of the control around it, if there is one."""
    found = set(_click_words(node))
    return found == {"icon"}


def markup_clickable(node: Node, state: PageState, cues: MarkupCues) -> bool:
    """Whether the markup alone says the element is something one clicks."""
    tag, attrs = node.tag, node.attributes
    if tag == "a" or any(a in attrs for a in WIDGET_ATTRS):
        return True
    if svg_clickable(node, state, cues.surfaces) or typing_surface(node.attributes):
        return True
    words = _click_words(node)
    if "header" in words and not _heads_a_collapsed_section(node, state):
        words = [w for w in words if w != "header"]  # a title bar, the page's or a card's
    if "day" in words and not _day_cell(node, state):  # a date shown whole is a label
        words = [w for w in words if w != "day"]
    if words and (_unflooded(words, cues) or not node.children
                  or _in_running_text(node, state)):
        return True
    if not node.children and _icon_named(node) and _swatch_sized(node):
        return True
    if tag == "li" and own_text(node, state) and _in_marked_list(node, state, cues):
        return True
    if cues.cleaned and not node.children and tag in _EMPTY_IS_CANDIDATE:
        return True
    if tag not in _COMMAND_TAGS or node.role is not None:
        return False
    if not node.children:
        return _swatch(node, state)
    text = own_text(node, state)
    if not text or len(text) > COLOURED_MAX_TEXT:
        return False
    said = " ".join(text.lower().split()).strip(" .!")
    if said in COMMAND_TEXTS:  # a button drawn as a span stands alone, not inside a sentence
        return not _in_running_text(node, state)
    return said in GLYPH_TEXTS or _painted_apart(node, state, "color", around_unknown=False)


def typing_surface(attributes: Mapping[str, str]) -> bool:
    """The element's id, or one of its classes, is a typing surface's whole name (a web
    terminal: its keys go to a field its click focuses; its latest output is at its end)."""
    names = {attributes.get("id", "").lower(), *attributes.get("class", "").lower().split()}
    return not names.isdisjoint(SURFACE_NAMES)


def _in_marked_list(node: Node, state: PageState, cues: MarkupCues) -> bool:
    """A list item inside a list that the markup names as a control (``selectric-items``,
    ``dropdown-menu``, ``options``) within ``LIST_LEVELS``: the items are what one picks."""
    return any(_unflooded(_click_words(state.nodes[ancestor]), cues)
               for ancestor in state.ancestors(node.id)[:LIST_LEVELS])


def _day_cell(node: Node, state: PageState) -> bool:
    """What ``day`` names in a calendar: a cell saying a day's number, or nothing."""
    text = state.text_content(node.id).strip()
    return not text or (text.isdigit() and len(text) <= 2)


def _icon_named(node: Node) -> bool:
    return any(w in ICON_WORDS for w in _own_name_words(node))


def _click_words(node: Node) -> list[str]:
    return [w for w in _class_words(node) if w is not None]


def _unflooded(words: list[str], cues: MarkupCues) -> bool:
    """A click word not so common on the page that it names wrappers or rows."""
    return any(w not in cues.flooded for w in words)


def _heads_a_collapsed_section(node: Node, state: PageState) -> bool:
    """The element right after it is hidden (``display: none``, or no box where boxes are known):
    a section the header opens."""
    if node.parent is None:
        return False
    nodes = state.nodes
    siblings = [c for c in nodes[node.parent].children if nodes[c].is_element]
    after = siblings[siblings.index(node.id) + 1:]
    if not after:
        return False
    section = nodes[after[0]]
    return (style_of(section).get("display") == "none"
            or (state.has_layout and section.bounds is None))


def _in_running_text(node: Node, state: PageState) -> bool:
    """Text (not just spaces) beside the element in its parent: a marked word of a sentence."""
    if node.parent is None:
        return False
    nodes = state.nodes
    return any(nodes[c].kind == "text" and nodes[c].text.strip()
               for c in nodes[node.parent].children)


def _swatch(node: Node, state: PageState) -> bool:
    """An empty element with its own background, apart from the one around it, of a swatch's
    size."""
    return _swatch_sized(node) and _painted_apart(node, state, "background-color",
                                                  around_unknown=True)


def _swatch_sized(node: Node) -> bool:
    """Each known side within ``SWATCH_SIDES`` (a side given otherwise, or not at all, is not
    held against it)."""
    low, high = SWATCH_SIDES
    return all(low <= side <= high for side in _known_sides(node))


def _known_sides(node: Node) -> list[float]:
    """The element's sides known in pixels: by the box, else by the style's width and height."""
    if node.bounds is not None:
        return [node.bounds[2], node.bounds[3]]
    styles = style_of(node)
    return [p for p in (pixels(styles.get(k, "")) for k in ("width", "height")) if p is not None]


def _painted_apart(node: Node, state: PageState, prop: str, around_unknown: bool) -> bool:
    """``prop`` (a colour) is set on the element and differs from the nearest ancestor's;
    ``around_unknown`` when no ancestor sets it."""
    colour = _colour(node, prop)
    if not colour:
        return False
    for ancestor in state.ancestors(node.id):
        around = _colour(state.nodes[ancestor], prop)
        if around:
            return around != colour
    return around_unknown


def _colour(node: Node, prop: str) -> str:
    """The element's own ``prop`` colour without spaces ("" when unset or transparent); a
    ``background`` shorthand stands for ``background-color``."""
    styles = style_of(node)
    value = styles.get(prop) or (styles.get("background", "") if prop == "background-color" else "")
    value = value.replace(" ", "").lower()
    return "" if value in UNPAINTED else value


def own_text(node: Node, state: PageState) -> str:
    """The element's text when all its children are text nodes, else ""."""
    nodes = state.nodes
    if not node.children or any(nodes[c].kind != "text" for c in node.children):
        return ""
    return " ".join(nodes[c].text for c in node.children).strip()


def fallback_clickable(node: Node, state: PageState) -> bool:
    """The wider tier: a short text element (a label a user could click), or an empty box of a
    control's size, both sides known (a cell, a swatch, a square the page draws; not a rule,
    nor a panel or an overlay)."""
    if not node.children:
        return (node.tag in _EMPTY_IS_CANDIDATE and len(_known_sides(node)) == 2
                and _swatch_sized(node))
    text = own_text(node, state)
    return 0 < len(text) <= FALLBACK_MAX_TEXT
