"""PageState from HTML: Mind2Web ``raw_html``, Mind2Web ``cleaned_html`` and ordinary HTML files.

    page_from_html(html, url="about:blank", kind="auto") -> PageState
    page_from_file("page.html")            # .html/.htm, or a saved .json.gz PageState

``kind="auto"`` picks the reader from the attributes present: ``backend_node_id`` with
``bounding_box_rect`` is raw_html (layout from the rects, ``has_layout=True``), ``backend_node_id``
alone is cleaned_html (no layout), anything else ordinary HTML (lxml; no layout). Roles, names and
states then come from ``pipeline.aria`` (``has_ax=False``). Input that cannot be a page -- empty,
binary, undecodable, without elements, or not of the requested kind -- raises ``FormatError``
naming the source and the problem.
"""

from __future__ import annotations

import codecs
import re
import time
from pathlib import Path
from typing import Literal, get_args

from pipeline.aria import fill_accessibility
from pipeline.errors import FormatError
from pipeline.html.lxml_reader import read_html
from pipeline.html.mind2web_reader import read_mind2web
from pipeline.page_state import MAX_NODES, PageState

HtmlKind = Literal["auto", "html", "mind2web_raw", "mind2web_cleaned"]
HTML_SUFFIXES = (".html", ".htm", ".xhtml")
PAGE_STATE_SUFFIXES = (".json.gz", ".json")

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_DECLARED_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.IGNORECASE
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_ANY_TAG = re.compile(r"<[A-Za-z]")
_BACKEND_ID_ATTR = re.compile(r"backend_node_id\s*=")
_RECT_ATTR = re.compile(r"bounding_box_rect\s*=")
_SAMPLE = 65536


def page_from_html(
    html: str | bytes,
    url: str = "about:blank",
    kind: HtmlKind = "auto",
    origin: str | None = None,
    max_nodes: int = MAX_NODES,
) -> PageState:
    """Parse ``html`` into a PageState. ``origin`` names the source in errors (default: url);
    a document with more than ``max_nodes`` nodes is refused (FormatError naming the limit)."""
    origin = origin or url
    started = time.perf_counter()
    text = _decode(html, origin)
    _check_text(text, origin)
    kind = _resolve_kind(kind, detect_kind(text), origin)
    warnings: list[str] = []
    try:
        if kind == "html":
            builder, warnings = read_html(text, max_nodes)
        else:
            builder = read_mind2web(text, layout=kind == "mind2web_raw", max_nodes=max_nodes)
    except ValueError as exc:
        raise FormatError(f"{origin}: {exc}") from None
    nodes = builder.nodes
    if not any(node.is_element for node in nodes):
        raise FormatError(f"{origin}: the document has no elements; expected an HTML page")
    state = PageState(
        url=url,
        title="",
        nodes=nodes,
        source="html" if kind == "html" else kind,
        frames=builder.frames,
        has_layout=kind == "mind2web_raw",
    )
    fill_accessibility(nodes)
    state.title = _title(state)
    state.document_size = _document_size(state)
    state.meta["parse_ms"] = round((time.perf_counter() - started) * 1000, 2)
    if warnings:
        state.meta["warnings"] = warnings
    return state


def page_from_file(path: str | Path, kind: HtmlKind = "auto", max_nodes: int = MAX_NODES
                   ) -> PageState:
    """Read an HTML file (any ``kind``) or a saved PageState; errors carry the path."""
    path = Path(path)
    name = path.name.lower()
    if name.endswith(PAGE_STATE_SUFFIXES):
        return PageState.load(path, max_nodes=max_nodes)
    if not name.endswith(HTML_SUFFIXES):
        raise FormatError(
            f"{path}: unsupported file type; expected one of "
            f"{', '.join(HTML_SUFFIXES + PAGE_STATE_SUFFIXES)}"
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FormatError(f"{path}: cannot read the file: {exc.strerror or exc}") from None
    return page_from_html(data, url=path.resolve().as_uri(), kind=kind, origin=str(path),
                          max_nodes=max_nodes)


def detect_kind(text: str) -> HtmlKind:
    """``mind2web_raw``, ``mind2web_cleaned`` or ``html`` from the attributes present."""
    if _BACKEND_ID_ATTR.search(text) is None:
        return "html"
    return "mind2web_raw" if _RECT_ATTR.search(text) else "mind2web_cleaned"


def _resolve_kind(kind: str, detected: HtmlKind, origin: str) -> HtmlKind:
    if kind not in get_args(HtmlKind):
        raise FormatError(f"{origin}: unknown kind {kind!r}; use one of {get_args(HtmlKind)}")
    if kind == "auto" or kind == detected:
        return detected
    if kind == "mind2web_cleaned" and detected == "mind2web_raw":
        return "mind2web_cleaned"  # raw_html read without its layout is legitimate
    if kind == "html":
        problem = "carries Mind2Web backend_node_id attributes"
    elif detected == "html":
        problem = "has no backend_node_id attribute anywhere, so it is not Mind2Web HTML"
    else:
        problem = "has backend_node_id but no bounding_box_rect, so it is Mind2Web cleaned_html"
    raise FormatError(f"{origin}: kind={kind!r} was requested but the document {problem}; "
                      f"pass kind={detected!r} or kind='auto'")  # fmt: skip


def _decode(data: str | bytes, origin: str) -> str:
    if isinstance(data, str):
        return data
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise FormatError(f"{origin}: expected HTML as str or bytes, got {type(data).__name__}")
    data = bytes(data)
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _decode_as(data, codec, origin)
    if b"\x00" in data[:_SAMPLE]:
        raise FormatError(f"{origin}: the bytes contain NUL characters; this is binary, not HTML")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        declared = _DECLARED_CHARSET.search(data[:4096])
        if declared is None:
            raise FormatError(
                f"{origin}: byte {exc.start} is not UTF-8 and the document declares no charset; "
                "re-encode it as UTF-8 or add <meta charset>"
            ) from None
        return _decode_as(data, declared.group(1).decode("ascii"), origin)


def _decode_as(data: bytes, codec: str, origin: str) -> str:
    try:
        return data.decode(codec)
    except (LookupError, UnicodeDecodeError) as exc:
        raise FormatError(
            f"{origin}: cannot decode as {codec}: {exc}; re-encode as UTF-8"
        ) from None


def _check_text(text: str, origin: str) -> None:
    if not text or text.isspace():
        raise FormatError(f"{origin}: the HTML is empty")
    sample = text[:_SAMPLE]
    controls = len(_CONTROL.findall(sample))
    if "\x00" in sample or controls > len(sample) // 100:
        raise FormatError(
            f"{origin}: {controls} control characters in the first {len(sample)}; "
            "this looks like binary data, not HTML"
        )
    if _ANY_TAG.search(text) is None:
        raise FormatError(f"{origin}: no HTML tag found; the document has no elements")


def _title(state: PageState) -> str:
    nodes = state.nodes
    for node in nodes:
        if (
            node.tag == "title"
            and node.frame == 0
            and all(nodes[a].tag != "svg" for a in state.ancestors(node.id))
        ):
            return state.text_content(node.id)
    return ""


def _document_size(state: PageState) -> tuple[float, float] | None:
    """Width and height of the top document's ``<html>`` box, when the source has layout."""
    if not state.has_layout:
        return None
    for node in state.nodes:
        if node.tag == "html" and node.frame == 0:
            return (node.bounds[2], node.bounds[3]) if node.bounds else None
    return None
