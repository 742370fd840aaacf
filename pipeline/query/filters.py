"""The hard constraints of ``query_elements``: role (with synonyms), landmark, heading, attributes.

Role synonyms (``role`` is case-insensitive; anything else matches the ARIA role or the tag):

    textbox   input type text/email/search/password/tel/url/number (and no type), textarea,
              contenteditable, role textbox/searchbox
    searchbox input type=search, role searchbox
    link      a[href], role link
    button    button, summary, input type submit/button/reset/image, role button
    checkbox  input type=checkbox, role checkbox/switch/menuitemcheckbox
    radio     input type=radio, role radio/menuitemradio
    combobox  (also select, dropdown, listbox) select, role combobox/listbox
    tab, menuitem (menuitem*), option (option, role option), slider, switch, treeitem
    scrollable an element whose content scrolls (overflow auto/scroll, more than its box)
    input     any form control: input (not hidden), select, textarea, contenteditable and the
              control roles

Landmarks are named ``KIND`` or ``KIND:name`` where KIND is a label (``NAV``, ``MAIN``, ``HEADER``,
``ASIDE``, ``FOOTER``, ``SEARCH``, ``FORM``, ``REGION``) or an ARIA role (``navigation``,
``banner``, ``complementary``, ``contentinfo``...), case-insensitive; the outline's
``NAV: "Primary"`` spelling works too, and a bare name (``Primary``) when no kind matches.
``PAGE`` means the whole page. Headings match their text fuzzily (see ``best_headings``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pipeline.aria import input_type
from pipeline.distill.attributes import popup_kind
from pipeline.distill.model import Heading, Landmark
from pipeline.distill.svg_markup import outline_box
from pipeline.query.index import Entry, Field, PageIndex, make_field
from pipeline.query.scoring import MATCH_WEIGHTS, field_score, make_query

WHOLE_PAGE = frozenset({"page", "body", "all", "*", "document"})
_TEXT_TYPES = frozenset({"text", "email", "search", "password", "tel", "url", "number"})
_BUTTON_TYPES = frozenset({"submit", "button", "reset", "image"})
_CONTROL_ROLES = frozenset({
    "textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "slider", "spinbutton",
    "switch",
})  # fmt: skip
_EDITABLE = frozenset({"", "true", "plaintext-only"})
_DONE_STATES = ("checked", "selected", "pressed")  # as the distilled attributes show them
# a menu item "selected" without a submenu is the one under the pointer (a hover highlights
# it), not one chosen; one with a submenu has its submenu open, which is what hovering it does
_DONE_STATES_OF_MENU_ITEMS = ("checked", "pressed")
_TYPED_ROLES = frozenset({"textbox", "searchbox", "combobox"})
_KIND_ALIASES = {"sidebar": "complementary", "section": "region", "navbar": "navigation"}
_LANDMARK_SPEC = re.compile(r'^\s*([A-Za-z_*-]+)?\s*(?::|\s)?\s*["\']?(.*?)["\']?\s*$')


def editable(entry: Entry) -> bool:
    """A contenteditable element (an editor surface)."""
    return entry.node.attributes.get("contenteditable", "-").lower() in _EDITABLE


def _input_is(entry: Entry, types: frozenset[str]) -> bool:
    return entry.dnode.tag == "input" and input_type(entry.node.attributes) in types


def acted_on(entry: Entry, filled: bool = True) -> bool:
    """The page shows the element as already acted on: checked, selected (not a menu item
    without a submenu: its selection is the pointer's highlight) or pressed, a shape
    dragged into a box (``Entry.placed``) -- or is such a box, on which nothing is done but
    drops (``svg_markup.outline_box``) --, or a text field (or a combobox one types into)
    holding a value -- not a disabled one, whose value is the page's own (an agreement to
    scroll through; a read-only date field is filled by its calendar), not a number field,
    where a new guess replaces the last one, nor a dropdown (``<select>``, role combobox too),
    which always shows an option, its default until one is chosen. ``filled=False``: a text
    field's value is no sign of it (a step that clicks does not fill: the textarea to click
    holds the page's own text)."""
    attrs = entry.dnode.attrs
    highlight = entry.node.role == "menuitem" and not popup_kind(
        entry.node.attributes.get("aria-haspopup", ""))
    done = _DONE_STATES_OF_MENU_ITEMS if highlight else _DONE_STATES
    if entry.placed or outline_box(entry.node) or any(attrs.get(key) == "true" for key in done):
        return True
    typed = entry.node.role in _TYPED_ROLES and entry.dnode.tag != "select"
    return filled and typed and bool(attrs.get("value")) and attrs.get("disabled") != "true"


def _role_in(*roles: str) -> Callable[[Entry], bool]:
    wanted = frozenset(roles)
    return lambda e: e.node.role in wanted


_ROLE_TESTS: dict[str, Callable[[Entry], bool]] = {
    "textbox": lambda e: (
        e.dnode.tag == "textarea"
        or _input_is(e, _TEXT_TYPES)
        or editable(e)
        or e.node.role in ("textbox", "searchbox")
    ),
    "searchbox": lambda e: _input_is(e, frozenset({"search"})) or e.node.role == "searchbox",
    "link": lambda e: (e.dnode.tag == "a" and "href" in e.node.attributes) or e.node.role == "link",
    "button": lambda e: (
        e.dnode.tag in ("button", "summary")
        or _input_is(e, _BUTTON_TYPES)
        or e.node.role == "button"
    ),
    "checkbox": lambda e: (
        _input_is(e, frozenset({"checkbox"}))
        or e.node.role in ("checkbox", "switch", "menuitemcheckbox")
    ),
    "radio": lambda e: (
        _input_is(e, frozenset({"radio"})) or e.node.role in ("radio", "menuitemradio")
    ),
    "combobox": lambda e: e.dnode.tag == "select" or e.node.role in ("combobox", "listbox"),
    "scrollable": lambda e: e.dnode.scrollable,
    "menuitem": _role_in("menuitem", "menuitemcheckbox", "menuitemradio"),
    "option": lambda e: e.dnode.tag == "option" or e.node.role == "option",
    "input": lambda e: (
        e.dnode.tag in ("select", "textarea")
        or editable(e)
        or (e.dnode.tag == "input" and input_type(e.node.attributes) != "hidden")
        or e.node.role in _CONTROL_ROLES
    ),
}
_ROLE_SYNONYMS = {
    "text": "textbox", "textfield": "textbox", "textarea": "textbox", "field": "textbox",
    "search": "searchbox", "a": "link", "anchor": "link", "hyperlink": "link", "btn": "button",
    "check": "checkbox", "select": "combobox", "dropdown": "combobox", "listbox": "combobox",
    "menu_item": "menuitem", "control": "input", "form_control": "input",
}  # fmt: skip


def role_test(role: str) -> Callable[[Entry], bool]:
    """The predicate for a role name, synonyms resolved; unknown names match role or tag."""
    key = role.strip().lower().replace(" ", "_").replace("-", "_")
    key = _ROLE_SYNONYMS.get(key, key)
    if key in _ROLE_TESTS:
        return _ROLE_TESTS[key]
    return lambda e: e.node.role == key or e.dnode.tag == key


def landmark_spec(landmark: Landmark) -> str:
    """How a landmark is named to the tools: ``MAIN`` or ``NAV:Primary``."""
    return f"{landmark.label}:{landmark.name}" if landmark.name else landmark.label


def resolve_landmarks(index: PageIndex, spec: str) -> list[Landmark] | None:
    """Landmarks named by ``spec`` (all that match); ``None`` for the whole page; ``[]`` when
    nothing matches."""
    match = _LANDMARK_SPEC.match(spec or "")
    kind, name = (match.group(1) or "", match.group(2)) if match else ("", spec)
    kind = kind.lower()
    if kind in WHOLE_PAGE and not name:
        return None
    kind = _KIND_ALIASES.get(kind, kind)
    landmarks = index.page.landmarks
    by_kind = [lm for lm in landmarks if kind in (lm.label.lower(), lm.role)]
    if not by_kind:  # a bare name: "Primary", "Filters"
        return _by_name(landmarks, spec.strip().strip("\"'"))
    return _by_name(by_kind, name) if name else by_kind


def _by_name(landmarks: list[Landmark], name: str) -> list[Landmark]:
    """Exact name, else a name containing it, else the best text match."""
    wanted = name.lower()
    named = [lm for lm in landmarks if lm.name]
    for test in (lambda lm: lm.name.lower() == wanted, lambda lm: wanted in lm.name.lower()):
        found = [lm for lm in named if test(lm)]
        if found:
            return found
    return best_matches(name, [(lm, make_field(2, "name", lm.name)) for lm in named])


def best_matches(text: str, items: list[tuple[Any, Field]]) -> list[Any]:
    """The items whose field matches ``text`` best, at least as "some words" (ties kept)."""
    query = make_query(text, {term for _, item in items for term in item.bag})
    best, found = MATCH_WEIGHTS["some"] * 0.5, []
    for obj, item in items:
        score = field_score(query, item)[0]
        if score > best + 1e-9:
            best, found = score, [obj]
        elif abs(score - best) <= 1e-9:
            found.append(obj)
    return found


def best_headings(
    index: PageIndex, text: str, within: frozenset[int] | None = None
) -> list[Heading]:
    """The headings whose text matches ``text`` best (ties all kept); ``within`` limits them to
    headings inside those landmark indexes."""
    items = [
        (heading, item)
        for heading, item in zip(index.page.headings, index.heading_fields)
        if within is None or heading.landmark in within
    ]
    return best_matches(text, items)


def nested_landmarks(index: PageIndex, chosen: list[Landmark]) -> frozenset[int]:
    """The chosen landmarks' indexes and those of every landmark nested inside them."""
    out = {lm.index for lm in chosen}
    for landmark in index.page.landmarks:  # parents precede their nested landmarks
        if landmark.parent in out:
            out.add(landmark.index)
    return frozenset(out)


def heading_scope(index: PageIndex, headings: list[Heading]) -> frozenset[int]:
    """Refs of the headings' sections (``section_span``), plus the ref holding each heading."""
    refs: set[int] = set()
    for heading in headings:
        lo, hi = section_span(index, heading)
        refs.update(index.refs_between(lo, hi))
        holder = holding_ref(index, heading.node_id)
        if holder is not None:
            refs.add(holder)
    return frozenset(refs)


def section_span(index: PageIndex, heading: Heading) -> tuple[int, int]:
    """PageState node ids of a heading's section: from the heading to just before the next
    heading of the same or a higher level (or the ref holding that heading), inside the
    heading's landmark."""
    page = index.page
    later = page.headings[heading.index + 1 :]
    following = next((h for h in later if h.level <= heading.level), None)
    end = len(page.state.nodes)
    if following is not None:
        holder = holding_ref(index, following.node_id)
        end = page.refs[holder].node_id if holder is not None else following.node_id
    hi = end - 1
    if heading.landmark is not None:
        hi = min(hi, landmark_span(index, page.landmarks[heading.landmark])[1])
    return heading.node_id, hi


def landmark_span(index: PageIndex, landmark: Landmark) -> tuple[int, int]:
    """PageState node ids of the landmark's subtree (ids are in pre-order)."""
    nodes = index.state.nodes
    last = landmark.node_id
    while nodes[last].children:
        last = nodes[last].children[-1]
    return landmark.node_id, last


def holding_ref(index: PageIndex, node_id: int) -> int | None:
    """The ref whose element holds the node (a card link around a heading), if any."""
    for ancestor in index.state.ancestors(node_id):
        if ancestor in index.ref_by_node:
            return index.ref_by_node[ancestor]
    return None


def attributes_match(entry: Entry, wanted: dict[str, str]) -> bool:
    """Every wanted attribute present with a value equal to or containing the wanted one
    (case-insensitive; ``-`` and ``_`` alike in names; an empty or ``*`` value asks presence)."""
    attrs = {_norm(k): v for k, v in entry.node.attributes.items()}
    if entry.dnode.tag == "input":
        attrs.setdefault("type", input_type(entry.node.attributes))
    for key, value in wanted.items():
        have = attrs.get(_norm(key))
        if have is None:
            return False
        want = str(value).strip().lower()
        if want not in ("", "*") and want not in have.lower():
            return False
    return True


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")
