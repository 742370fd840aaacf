"""Records produced by distillation: the kept tree, refs, landmarks, headings and pass reports.

``distill(PageState, DistillOptions) -> DistilledPage`` is a pure function: the same page and
options always give the same tree and the same refs (1..N in document order). Renderers and query
tools read a DistilledPage; nothing downstream touches the PageState's raw node table except
through ``DistilledPage.state`` for facts such as bounds or the full attribute set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pipeline.distill.drawings import Drawing
from pipeline.page_state import PageState

Tier = Literal["semantic", "non_semantic"]


@dataclass(slots=True)
class DNode:
    """A kept node. ``attrs`` are the attributes to show (already pruned, deduplicated, capped,
    with compound-component hints such as ``selected``/``options`` added)."""

    node_id: int  # index into PageState.nodes
    tag: str  # "" for text; "#shadow-root" marks a shadow boundary; "#document" an iframe body
    text: str = ""  # text of a text node (merged); elements carry their text in text children
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[DNode] = field(default_factory=list)
    ref: int | None = None  # interactive index 1..N
    tier: Tier | None = None
    scrollable: bool = False

    @property
    def is_text(self) -> bool:
        return self.tag == ""

    def walk(self):
        """Pre-order iteration over the subtree (self first)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass(slots=True)
class Selector:
    """Replay handles for a ref: both work in the document that holds the element.
    ``frame_path`` lists the CSS selectors of the iframes to enter first (outermost first);
    ``in_shadow`` says the CSS path crosses open shadow roots (Playwright's css engine pierces)."""

    xpath: str
    css: str
    frame_path: tuple[str, ...] = ()
    in_shadow: bool = False


@dataclass(slots=True)
class Landmark:
    """A landmark region (HTML-AAM/ARIA: banner, navigation, main, complementary, contentinfo,
    search, and form/region when named)."""

    index: int  # position in DistilledPage.landmarks (document order)
    role: str  # ARIA role, e.g. "navigation"
    label: str  # short upper-case label used in renderings and tools: "NAV", "MAIN", ...
    name: str | None  # accessible name, e.g. "Primary"
    node_id: int
    parent: int | None  # index of the enclosing landmark, if nested
    refs: list[int] = field(default_factory=list)  # refs inside (nested landmarks included)


@dataclass(slots=True)
class Heading:
    index: int  # position in DistilledPage.headings (document order)
    level: int  # 1..6 (aria-level for role=heading)
    text: str
    node_id: int
    landmark: int | None  # index of the innermost landmark holding it
    parent: int | None  # index of the enclosing (lower-level) heading
    refs: list[int] = field(default_factory=list)  # refs in its section (until the next heading
    # of the same or a higher level, within the same landmark)


@dataclass(slots=True)
class PassReport:
    name: str
    removed: int  # nodes removed (or, for annotating passes, nodes changed)
    ms: float
    skipped: str | None = None  # why a pass did nothing, e.g. "source has no paint order"
    note: str = ""  # what the pass decided that a reader should know (a fallback it took)


@dataclass(slots=True)
class DistilledPage:
    state: PageState
    root: DNode
    refs: dict[int, DNode]  # ref -> kept node
    selectors: Mapping[int, Selector]  # built lazily per ref (distill.selectors.Selectors)
    landmarks: list[Landmark]
    headings: list[Heading]
    report: list[PassReport]
    # per PageState node: shown (kept by noise, visibility and occlusion), before the tree passes
    # fold it into its neighbours -- a hidden submenu's text is not (``query.hidden``)
    shown: list[bool] = field(default_factory=list, repr=False, compare=False)
    # what the page's SVG drawings show (``distill.drawings``), each also a text in the tree
    drawings: list[Drawing] = field(default_factory=list)
    # what readers derive from the page once and keep with it (the query index): never part of
    # the page's value, so it is left out of equality and repr
    derived: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def node_of(self, ref: int) -> int:
        """PageState node id behind a ref."""
        return self.refs[ref].node_id

    def backend_id(self, ref: int) -> int | None:
        return self.state.nodes[self.refs[ref].node_id].backend_id

    def ref_of(self, backend_id: int | None) -> int | None:
        """The ref of the element with this backend node id (None: no element with a ref)."""
        if backend_id is None:
            return None
        return next((ref for ref in self.refs if self.backend_id(ref) == backend_id), None)

    def landmark_of(self, ref: int) -> Landmark | None:
        """The innermost landmark holding the ref."""
        best = None
        for landmark in self.landmarks:
            if ref in landmark.refs:
                best = landmark  # later landmarks in document order are nested deeper
        return best

    def heading_of(self, ref: int) -> Heading | None:
        """The innermost heading whose section holds the ref."""
        best = None
        for heading in self.headings:
            if ref in heading.refs and (best is None or heading.level >= best.level):
                best = heading
        return best
