"""The per-page search index every query tool reads: built once per DistilledPage, then reused.

    index = index_for(page)          # built on first use, kept on the page
    index.entries[ref].fields        # text fields by tier, with stems
    index.postings["cart"]           # refs whose fields hold the stem "cart"

Fields by tier (Prune4Web): tier 1 is the visible text (a select's selected option); tier 2 the
accessible name, aria-label, placeholder, alt, title, value and description; tier 3 the id, class,
name, href and every other attribute from the PageState (never the label-leak markers, style,
event handlers or data: URLs) plus a select's option texts. A field equal to an earlier one is
skipped -- except the colour an element without text is painted in, in words
(``distill.colours``: a swatch, a shape), a tier-3 field of its own even where an attribute says
the same word (a swatch that says "white" twice edges ahead of one only painted white), and the
shape an SVG shape without text is drawn as (``svg_markup.shape_name``: "circle", "triangle").
``index_for`` keeps the index on the page it indexes (``DistilledPage.derived``), so the
tools can be called with the page alone and never rebuild for the same page.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from pipeline.distill.colours import painted_colour
from pipeline.distill.model import DistilledPage, DNode
from pipeline.distill.svg_markup import placed_shapes, shape_name
from pipeline.html.mind2web_format import is_leak_marker
from pipeline.page_state import Node, PageState
from pipeline.query.context import Counts, card_context, is_generic
from pipeline.query.text import analyse, index_parts
from pipeline.render.elements import collapse, element_text

TIER2_ATTRS = ("aria-label", "placeholder", "alt", "title", "value")
_LABELLED_ROLES = frozenset({"checkbox", "radio", "switch"})
_SKIP_ATTRS = frozenset({"style", "backend_node_id", "bounding_box_rect"})
_MAX_VALUE = 200
_MAX_OPTIONS = 50
_KEY = "query_index"


@dataclass(slots=True)
class Field:
    """One searchable text of an element: its tier, where it came from, and its stems."""

    tier: int  # 1 visible text, 2 accessible name and friends, 3 other attributes
    source: str  # "text", "name", "placeholder", "id", "class", "href", "option", ...
    text: str
    seq: tuple[str, ...]  # stems in order (stop-words dropped)
    line: str  # " s1 s2 ... " for contiguous-phrase tests
    bag: frozenset[str]  # stems plus glued adjacent pairs


@lru_cache(maxsize=1 << 16)
def make_field(tier: int, source: str, text: str) -> Field:
    """A field for ``text`` (cached: equal fields are shared, never mutated)."""
    seq, pairs = analyse(text)
    parts = index_parts(text) if tier == 3 else ()  # id=tt3: also "tt" and "3"
    return Field(tier, source, text, seq, f" {' '.join(seq)} ", frozenset(seq + pairs + parts))


@dataclass(slots=True)
class Entry:
    """What the index knows about one ref."""

    ref: int
    dnode: DNode
    node: Node  # the PageState node (full attributes, role, name, states, bounds)
    text: str  # visible text as the renderers print it
    label: str  # lower-case text or name: what tells this element apart (may be generic)
    fields: list[Field]
    landmark: int | None  # innermost landmark index
    heading: int | None  # innermost heading index (a ref holding a heading: that heading)
    context: str = ""  # identifying text of its card when its label is generic (see context)
    placed: bool = False  # a shape inside an outline box: dragged there (``placed_shapes``)

    @property
    def shown_name(self) -> str:
        """What the query results call the element: its visible text, else its accessible
        name, else the identifying text of its card or form row (``Username`` for the field
        after it)."""
        return self.text or self.node.name or self.context or ""


@dataclass(slots=True)
class PageIndex:
    page: DistilledPage
    entries: dict[int, Entry]
    postings: dict[str, set[int]]
    vocab: list[str]
    counts: Counts
    parents: dict[int, DNode]  # id(DNode) -> its parent in the kept tree
    landmark_refs: list[frozenset[int]]
    heading_fields: list[Field]
    ref_by_node: dict[int, int]  # PageState node id -> ref
    ref_nodes: list[int]  # node ids of the refs, ascending (refs are in document order)

    @property
    def state(self) -> PageState:
        return self.page.state

    def refs_between(self, first: int, last: int) -> list[int]:
        """The refs whose PageState node id lies in ``first..last`` (a subtree, a section), in
        document order."""
        held = self.ref_nodes[bisect_left(self.ref_nodes, first):bisect_right(self.ref_nodes, last)]
        return [self.ref_by_node[node_id] for node_id in held]


def build_index(page: DistilledPage) -> PageIndex:
    """Index every ref of ``page`` (pure; use ``index_for`` to reuse it across queries)."""
    inner_landmark: dict[int, int] = {}
    for landmark in page.landmarks:  # later landmarks are nested deeper
        for ref in landmark.refs:
            inner_landmark[ref] = landmark.index
    ref_by_node = {dnode.node_id: ref for ref, dnode in page.refs.items()}
    inner_heading = _innermost_headings(page, ref_by_node)
    entries: dict[int, Entry] = {}
    placed = placed_shapes(page.state)
    for ref, dnode in page.refs.items():
        node = page.state.nodes[dnode.node_id]
        text = element_text(dnode)[0]
        label = collapse(text or node.name or "").lower()
        fields = _fields(page.state, dnode, node, text)
        entries[ref] = Entry(ref, dnode, node, text, label, fields, inner_landmark.get(ref),
                             inner_heading.get(ref), placed=dnode.node_id in placed)
    parents: dict[int, DNode] = {}
    texts: Counter = Counter()
    for parent in page.root.walk():
        for child in parent.children:
            parents[id(child)] = parent
            if child.is_text:
                texts[collapse(child.text).lower()] += 1
    counts = Counts(_label_counts(entries, parents), texts)
    postings: dict[str, set[int]] = {}
    labels = {ref: entry.label for ref, entry in entries.items()}
    for entry in entries.values():
        if is_generic(entry, counts) and not _holds_refs(entry.dnode):
            card = card_context(page, entry, parents, counts, labels)
            entry.context = card.shown
            if card.shown:
                entry.fields.append(make_field(2, "context", card.shown))
            if card.shared:  # searched, never shown: shared with other cards, or further away
                entry.fields.append(make_field(3, "card", card.shared))
        for item in entry.fields:
            for term in item.bag:
                postings.setdefault(term, set()).add(entry.ref)
    return PageIndex(
        page=page,
        entries=entries,
        postings=postings,
        vocab=list(postings),
        counts=counts,
        parents=parents,
        landmark_refs=[frozenset(landmark.refs) for landmark in page.landmarks],
        heading_fields=[make_field(1, "heading", h.text) for h in page.headings],
        ref_by_node=ref_by_node,
        ref_nodes=sorted(ref_by_node),
    )


def _holds_refs(dnode: DNode) -> bool:
    """Other refs inside: a menu or a list whose items are the controls, named by them."""
    return any(inner.ref is not None for inner in dnode.walk() if inner is not dnode)


def _label_counts(entries: dict[int, Entry], parents: dict[int, DNode]) -> Counter:
    """How many refs carry each label; a ref inside another ref with the same label (a wrapper
    and its control saying the same words) counts once with it, not as a repeat."""
    counts = Counter(entry.label for entry in entries.values())
    for entry in entries.values():
        outer = parents.get(id(entry.dnode))
        while outer is not None and outer.ref is None:
            outer = parents.get(id(outer))
        if outer is not None and entries[outer.ref].label == entry.label:
            counts[entry.label] -= 1
    return counts


def index_for(page: DistilledPage) -> PageIndex:
    """The index of ``page``, built on first use and kept on the page itself (``derived``), so
    it lives exactly as long as the page."""
    index = page.derived.get(_KEY)
    if index is None:
        index = page.derived[_KEY] = build_index(page)
    return index


def _innermost_headings(page: DistilledPage, ref_by_node: dict[int, int]) -> dict[int, int]:
    """ref -> index of the innermost heading whose section holds it (as ``heading_of``); a ref
    that holds a heading (a card link around its title) gets that heading."""
    out: dict[int, int] = {}
    for heading in page.headings:
        for ref in heading.refs:
            best = out.get(ref)
            if best is None or heading.level >= page.headings[best].level:
                out[ref] = heading.index
    for heading in page.headings:
        for ancestor in page.state.ancestors(heading.node_id):
            if ancestor in ref_by_node:
                out[ref_by_node[ancestor]] = heading.index
                break
    return out


def _fields(state: PageState, dnode: DNode, node: Node, text: str) -> list[Field]:
    attrs = node.attributes
    pairs: list[tuple[int, str, str]] = [(1, "text", text)]
    if dnode.tag == "select":
        pairs.append((1, "text", dnode.attrs.get("selected", "")))
    # a checkbox's or radio's label is the text one reads and clicks beside it
    labelled = not text and node.role in _LABELLED_ROLES
    pairs.append((1 if labelled else 2, "name", node.name or ""))
    pairs.extend((2, key, attrs.get(key, "")) for key in TIER2_ATTRS)
    pairs.append((2, "value", node.value or ""))
    pairs.append((2, "description", node.description or ""))
    pairs.extend((3, key, value) for key, value in attrs.items() if _searchable(key, value))
    if dnode.tag == "select":
        pairs.extend((3, "option", option) for option in select_options(state, node)[0])
    seen: set[str] = set()
    out: list[Field] = []
    for tier, source, raw in pairs:
        value = collapse(raw)[:_MAX_VALUE]
        key = value.lower()
        if value and key not in seen:
            seen.add(key)
            out.append(make_field(tier, source, value))
    # the paint is evidence apart from a data-color's word; a fill attribute is searched as written
    said = set(attrs.get("fill", "").lower().split())
    colour = " ".join(w for w in painted_colour(node, state).split() if w not in said)
    if colour:
        out.append(make_field(3, "colour", colour))
    shape = "" if text else shape_name(node)  # a drawn shape is called what it looks like
    if shape:
        out.append(make_field(3, "shape", shape))
    if "resizes" in dnode.attrs:  # a resize handle: "make the height smaller"
        out.append(make_field(3, "resizes", dnode.attrs["resizes"]))
    return out


def _searchable(key: str, value: str) -> bool:
    return not (
        key in _SKIP_ATTRS
        or key in TIER2_ATTRS
        or key.startswith("on")
        or is_leak_marker(key)
        or value.startswith(("data:", "javascript:"))
    )


def select_options(state: PageState, node: Node) -> tuple[list[str], list[bool]]:
    """Texts of a select's options (through optgroups, at most 50) and which are selected."""
    texts: list[str] = []
    selected: list[bool] = []
    stack = list(reversed(node.children))
    while stack and len(texts) < _MAX_OPTIONS:
        child = state.nodes[stack.pop()]
        if child.tag == "optgroup":
            stack.extend(reversed(child.children))
        elif child.tag == "option":
            texts.append(state.text_content(child.id) or child.attributes.get("label", ""))
            selected.append(bool(child.states.get("selected")))
    return texts, selected
