"""PageState: the serialisable record of one captured page.

Every source (a live page through CDP, Mind2Web ``raw_html``/``cleaned_html``, an ordinary HTML
file) produces this one record; the distill passes, renderers and query tools read it and never
mutate it. The node table is flat and in document order (pre-order), so ``nodes[i].id == i`` and a
parent always precedes its children. Fragments are ordinary element nodes with a ``#`` tag:
``#document`` for the page and every inlined iframe document, ``#shadow-root`` for an inlined open
shadow root (its ``attributes`` carry ``mode``).

Stored as gzipped JSON (``save``/``load``); keys that hold their default are omitted, so a 20k-node
page loads in tens of milliseconds.
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pipeline.errors import FormatError

SCHEMA_VERSION = 1
MAX_NODES = 200_000  # every source refuses a page with more nodes (browser.max_nodes, --max-nodes)

NodeKind = Literal["element", "text"]
Source = Literal["live", "mind2web_raw", "mind2web_cleaned", "html"]

# The computed styles a capture records (and the only ones passes may read).
STYLE_KEYS = (
    "display",
    "visibility",
    "opacity",
    "cursor",
    "pointer-events",
    "overflow",
    "position",  # fixed/absolute boxes escape the overflow clip of non-positioned ancestors
    "background-color",  # an element paints over what lies below only when it has a background
)
SCROLL_OVERFLOWS = ("auto", "scroll", "overlay")  # the ``overflow`` values that let a box scroll


class PageStateError(FormatError):
    """A PageState file or dict that cannot be read: names the file or field and the problem."""


@dataclass(slots=True)
class Node:
    """One DOM node. Optional facts are ``None``/empty when the source did not provide them."""

    id: int
    parent: int | None
    kind: NodeKind
    tag: str = ""  # lower-case element name; "" for text, "#document" / "#shadow-root" for fragments
    attributes: dict[str, str] = field(default_factory=dict)
    text: str = ""  # the text of a text node
    bounds: tuple[float, float, float, float] | None = None  # x, y, w, h in page coordinates
    paint_order: int | None = None  # Chromium's paint order within the node's own document
    styles: dict[str, str] = field(default_factory=dict)  # subset of STYLE_KEYS
    # accessibility: from the AX tree when captured, else filled from HTML-AAM + accname rules
    role: str | None = None
    name: str | None = None
    value: str | None = None  # live value of a form control (sensitive values redacted)
    description: str | None = None
    states: dict[str, Any] = field(default_factory=dict)  # checked, selected, disabled, expanded, ...
    backend_id: int | None = None  # CDP backend node id (Mind2Web's ``backend_node_id``)
    frame: int = 0  # index into PageState.frames of the document this node belongs to
    in_shadow: bool = False  # inside an (inlined) open shadow tree
    scroll: tuple[float, float, float, float] | None = None  # scroll left, top, width, height
    children: list[int] = field(default_factory=list, repr=False)  # derived from ``parent``

    @property
    def scrolls(self) -> bool:
        """overflow auto/scroll and a scroll size larger than the box (by more than a pixel)."""
        if self.scroll is None or self.bounds is None:
            return False
        if not any(value in self.styles.get("overflow", "") for value in SCROLL_OVERFLOWS):
            return False
        _, _, scroll_w, scroll_h = self.scroll
        return scroll_w > self.bounds[2] + 1 or scroll_h > self.bounds[3] + 1

    @property
    def is_element(self) -> bool:
        return self.kind == "element" and not self.tag.startswith("#")

    @property
    def is_fragment(self) -> bool:
        return self.tag.startswith("#")


@dataclass(slots=True)
class Frame:
    """A document in the page: index 0 is the top document, others are inlined iframes."""

    id: int
    url: str = ""
    owner: int | None = None  # node id of the <iframe> element that holds it
    cross_origin: bool = False  # a cross-origin frame is recorded but not inlined


def descendants(nodes: list[Node], node_id: int) -> list[int]:
    """Ids of the descendants of ``nodes[node_id]``, in document order (a node list need not be
    a PageState yet: capture builds one)."""
    out, stack = [], list(reversed(nodes[node_id].children))
    while stack:
        child = stack.pop()
        out.append(child)
        stack.extend(reversed(nodes[child].children))
    return out


@dataclass(slots=True)
class PageState:
    url: str
    title: str
    nodes: list[Node]
    source: Source = "live"
    viewport: tuple[int, int] = (1280, 720)  # width, height in CSS px
    scroll: tuple[float, float] = (0.0, 0.0)  # window scroll x, y
    document_size: tuple[float, float] | None = None  # full page width, height
    frames: list[Frame] = field(default_factory=lambda: [Frame(0)])
    has_layout: bool = False
    has_ax: bool = False
    has_paint_order: bool = False
    meta: dict[str, Any] = field(default_factory=dict)  # capture timings, warnings, source info
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        link_children(self.nodes)

    @property
    def shown_url(self) -> str:
        """The URL as observations show it: empty for ``about:blank`` (a page loaded from HTML,
        as every Mind2Web step is) and for a loopback server (a local test server's random
        port is noise to a model, and recorded MiniWoB++ steps have no URL to match it)."""
        if not self.url or self.url.startswith("about:"):
            return ""
        host = urlsplit(self.url).hostname or ""
        if host == "localhost" or host == "::1" or host.startswith("127."):
            return ""
        return self.url

    # --- navigation helpers -------------------------------------------------------------
    @property
    def root(self) -> Node:
        return self.nodes[0]

    def ancestors(self, node_id: int) -> list[int]:
        """Ids of the node's ancestors, nearest first."""
        out: list[int] = []
        parent = self.nodes[node_id].parent
        while parent is not None:
            out.append(parent)
            parent = self.nodes[parent].parent
        return out

    def descendants(self, node_id: int) -> list[int]:
        """Ids of the node's descendants, in document order."""
        return descendants(self.nodes, node_id)

    def text_content(self, node_id: int) -> str:
        """Concatenated text of the subtree, whitespace collapsed."""
        parts: list[str] = []
        stack = [node_id]
        while stack:
            node = self.nodes[stack.pop()]
            if node.kind == "text":
                parts.append(node.text)
            else:
                stack.extend(reversed(node.children))
        return " ".join(" ".join(parts).split())

    def by_backend_id(self) -> dict[int, int]:
        """Map backend node id -> node id."""
        return {n.backend_id: n.id for n in self.nodes if n.backend_id is not None}

    # --- serialisation ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "url": self.url,
            "title": self.title,
            "source": self.source,
            "viewport": list(self.viewport),
            "scroll": list(self.scroll),
            "document_size": list(self.document_size) if self.document_size else None,
            "frames": [_compact(f, _FRAME_DEFAULTS) for f in self.frames],
            "has_layout": self.has_layout,
            "has_ax": self.has_ax,
            "has_paint_order": self.has_paint_order,
            "meta": self.meta,
            "nodes": [_compact(n, _NODE_DEFAULTS, skip=("children",)) for n in self.nodes],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], origin: str = "<dict>",
                  max_nodes: int | None = None) -> PageState:
        if not isinstance(data, dict):
            raise PageStateError(f"{origin}: a page state is a JSON object, not a "
                                 f"{type(data).__name__}; save one with snapshot --out")
        version = data.get("schema_version")
        if version != SCHEMA_VERSION:
            raise PageStateError(
                f"{origin}: schema_version {version!r} is not supported "
                f"(this pagescout reads {SCHEMA_VERSION}); re-capture the page"
            )
        count = len(data["nodes"]) if isinstance(data.get("nodes"), list) else 0
        if max_nodes is not None and count > max_nodes:
            raise PageStateError(f"{origin}: {count:,} nodes, over max_nodes={max_nodes:,}; "
                                 "raise max_nodes (--max-nodes) to read it anyway")
        try:
            for key, kind in (("url", str), ("title", str), ("meta", dict), ("nodes", list)):
                if key in data and data[key] is not None and not isinstance(data[key], kind):
                    raise TypeError(f"{key} must be a {kind.__name__}, got {data[key]!r:.40}")
            nodes = [_node_from_dict(d) for d in data["nodes"]]
            if not nodes or nodes[0].kind != "element" or nodes[0].parent is not None:
                raise ValueError("the first node must be the root element (no parent)")
            frames = [Frame(**f) for f in data.get("frames") or [{"id": 0}]]
            doc_size = data.get("document_size")
            return cls(
                url=data["url"],
                title=data.get("title", ""),
                nodes=nodes,
                source=data.get("source", "live"),
                viewport=tuple(data.get("viewport", (1280, 720))),
                scroll=tuple(data.get("scroll", (0.0, 0.0))),
                document_size=tuple(doc_size) if doc_size else None,
                frames=frames,
                has_layout=bool(data.get("has_layout")),
                has_ax=bool(data.get("has_ax")),
                has_paint_order=bool(data.get("has_paint_order")),
                meta=data.get("meta") or {},
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PageStateError(f"{origin}: malformed page state: {exc!r}") from None

    def save(self, path: str | Path) -> Path:
        """Write gzipped JSON (any path; ``.json.gz`` is the convention)."""
        path = Path(path)
        check_writable(path)
        payload = json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)
        try:
            with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as fh:
                fh.write(payload)
        except OSError as exc:
            raise PageStateError(f"{path}: cannot write the page state: {exc.strerror or exc}"
                                 ) from None
        return path

    @classmethod
    def load(cls, path: str | Path, max_nodes: int | None = None) -> PageState:
        """Read a saved state; more than ``max_nodes`` nodes (when given) is refused."""
        path = Path(path)
        try:
            opener = gzip.open if _is_gzip(path) else open
            with opener(path, "rt", encoding="utf-8") as fh:
                data = json.load(fh)
        except UnicodeDecodeError as exc:
            raise PageStateError(f"{path}: not a page state: byte {exc.start} is not UTF-8 "
                                 "(a page state is gzipped JSON text)") from None
        except (OSError, ValueError, EOFError, zlib.error, RecursionError) as exc:
            raise PageStateError(f"{path}: not a readable page state: {exc}") from None
        return cls.from_dict(data, origin=str(path), max_nodes=max_nodes)


def check_writable(path: Path) -> None:
    """Raise PageStateError when ``path`` cannot be a file to write: a directory, or in a folder
    that does not exist (checked before a long capture, not after it)."""
    if path.is_dir():
        raise PageStateError(f"{path}: is a directory; give a file name such as "
                             f"{path / 'page.json.gz'}")
    if not path.parent.is_dir():
        raise PageStateError(f"{path}: the folder {path.parent} does not exist; create it first "
                             f"(mkdir -p {path.parent})")


def link_children(nodes: list[Node]) -> None:
    """Rebuild every node's ``children`` from ``parent``; checks the table's invariants."""
    for i, node in enumerate(nodes):
        if node.id != i:
            raise PageStateError(f"node at position {i} has id {node.id}; ids must be 0..N-1")
        node.children = []
    for node in nodes:
        if node.parent is not None:
            if not 0 <= node.parent < node.id:
                raise PageStateError(
                    f"node {node.id} has parent {node.parent}; parents must precede children"
                )
            nodes[node.parent].children.append(node.id)


_TUPLE_FIELDS = ("bounds", "scroll")


def _defaults(cls: type) -> dict[str, Any]:
    """Field name -> default value (``MISSING`` for required fields)."""
    out: dict[str, Any] = {}
    for f in fields(cls):
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:
            out[f.name] = f.default_factory()
        else:
            out[f.name] = MISSING
    return out


_NODE_DEFAULTS = _defaults(Node)
_FRAME_DEFAULTS = _defaults(Frame)


def _compact(obj: Any, defaults: dict[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, default in defaults.items():
        value = getattr(obj, name)
        if name in skip or value == default:
            continue
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


_NODE_TYPES = {"id": int, "tag": str, "text": str, "attributes": dict, "styles": dict,
               "states": dict, "frame": int}


def _node_from_dict(d: dict[str, Any]) -> Node:
    """A node from its dict; a field of the wrong type is a TypeError naming it (the passes
    would fail on it much later, far from the file)."""
    d = dict(d)
    for key in _TUPLE_FIELDS:
        if d.get(key) is not None:
            d[key] = tuple(d[key])
    for key, kind in _NODE_TYPES.items():
        if key in d and not isinstance(d[key], kind):
            raise TypeError(f"node {d.get('id')!r}: {key} must be {kind.__name__}, "
                            f"got {d[key]!r:.40}")
    if d.get("kind") not in ("element", "text"):
        raise ValueError(f"node {d.get('id')!r}: kind must be 'element' or 'text', "
                         f"got {d.get('kind')!r:.40}")
    if d.get("parent") is not None and not isinstance(d["parent"], int):
        raise TypeError(f"node {d.get('id')!r}: parent must be an int or null")
    return Node(**d)


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"\x1f\x8b"
