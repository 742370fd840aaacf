"""The DOM tree of a page nested too deep for one ``DOM.getDocument`` answer.

Chromium serialises a CDP answer through CBOR, whose nesting limit (about 300 levels) a page
reaches at roughly 145 nested elements, or 60 nested open shadow roots (a shadow root and a
content document nest without counting as a depth level): ``DOM.getDocument(depth=-1)`` then
fails with "CBOR: stack limit exceeded". ``fetch_dom`` asks for the whole tree first and, only
on that failure, fetches it in slices: ``DOM.getDocument`` to ``SLICE_DEPTH`` levels, then
``DOM.describeNode`` (``SLICE_DEPTH`` more levels, shadow roots pierced) for every node the
previous slice left unexpanded -- a node without a ``children`` key -- and grafts the answers
in place. Slices are requested ``BATCH`` at a time. After ``MAX_SLICES`` requests the rest is
left out and the returned warnings say how many subtrees are missing; the fallback itself is
always reported, since the page is captured in many calls rather than one consistent answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from pipeline.errors import CaptureError

SLICE_DEPTH = 40  # levels per answer: 4 CBOR levels each at most, well under the limit
BATCH = 16  # describeNode requests in flight at once
MAX_SLICES = 2000  # requests before the rest of a deep page is given up (and reported)
_EXPANDABLE = (1, 9, 11)  # element, document, document fragment (shadow root)
_TOO_DEEP = "stack limit exceeded"

Send = Callable[[str, str, dict[str, Any]], Awaitable[dict[str, Any]]]


async def fetch_dom(send: Send, warnings: list[str]) -> dict[str, Any]:
    """The ``DOM.getDocument`` root with every level filled in; ``send(name, method, params)``
    runs one CDP call (under the capture's timeout, raising CaptureError)."""
    try:
        return (await send("dom", "DOM.getDocument", {"depth": -1, "pierce": True}))["root"]
    except CaptureError as exc:
        if _TOO_DEEP not in str(exc):
            raise
    params = {"depth": SLICE_DEPTH, "pierce": True}
    root = (await send("dom", "DOM.getDocument", params))["root"]
    pending = unexpanded(root)
    slices = 0
    while pending and slices < MAX_SLICES:
        batch, pending = pending[:BATCH], pending[BATCH:]
        batch = batch[: MAX_SLICES - slices]
        answers = await asyncio.gather(*(
            send("dom_slices", "DOM.describeNode",
                 {"backendNodeId": node["backendNodeId"], **params}) for node in batch
        ))  # fmt: skip
        slices += len(batch)
        for node, answer in zip(batch, answers, strict=True):
            graft(node, answer["node"])
            pending.extend(unexpanded(node))
    warnings.append(
        f"the page nests too deep for one DOM.getDocument answer (CBOR stack limit); its tree "
        f"was fetched in {slices + 1} slices of {SLICE_DEPTH} levels"
    )
    if pending:
        warnings.append(
            f"{len(pending)} subtrees deeper than the first {slices + 1} slices are missing "
            f"(MAX_SLICES={MAX_SLICES}); their content is not in the page state"
        )
    return root


def unexpanded(root: dict[str, Any]) -> list[dict[str, Any]]:
    """Nodes under ``root`` (itself included) whose children the answer did not include."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if "children" not in node:
            if node.get("nodeType") in _EXPANDABLE and node.get("backendNodeId"):
                out.append(node)
            continue
        stack.extend(node["children"])
        stack.extend(node.get("shadowRoots", ()))
        if "contentDocument" in node:
            stack.append(node["contentDocument"])
    return out


def graft(node: dict[str, Any], described: dict[str, Any]) -> None:
    """Fill ``node`` with what ``DOM.describeNode`` returned for it (children, shadow roots,
    content document, pseudo elements)."""
    for key in ("children", "shadowRoots", "contentDocument", "pseudoElements"):
        if key in described:
            node[key] = described[key]
    node.setdefault("children", [])
