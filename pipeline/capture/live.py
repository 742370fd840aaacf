"""Capture a live Playwright page into a PageState through one CDP session.

``capture_page`` runs, concurrently and each under ``capture_timeout_ms``: ``DOM.getDocument``
(the real tree, piercing shadow roots and same-process iframes; in slices when the page nests too
deep for one answer, see ``deep_dom``), ``DOMSnapshot.captureSnapshot``
(layout, paint order, computed styles, live form state) and ``Accessibility.getFullAXTree`` for
the page and then for every inlined iframe. A small script reads title, viewport, scroll and
document size first. The accessibility tree is optional: if it fails or times out the capture
degrades (``has_ax=False``, a warning in ``meta``) and ``pipeline.aria.fill_accessibility``
provides roles and names; it also fills whatever the AX tree left unset. A page that never
answers, a crashed browser or an oversized page raise ``CaptureError``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from time import perf_counter
from typing import Any

from pipeline.aria import fill_accessibility
from pipeline.capture.ax import apply_ax_tree
from pipeline.capture.build import build_nodes, fill_select_values
from pipeline.capture.deep_dom import fetch_dom
from pipeline.capture.snapshot import SNAPSHOT_STYLES, SnapshotIndex
from pipeline.errors import CaptureError
from pipeline.live.browser import BrowserConfig, detach_cdp
from pipeline.live.cdp import cdp_send
from pipeline.page_state import PageState, link_children

DETACH_TIMEOUT_S = 5.0
NAVIGATED = "execution context was destroyed"  # Playwright's words for a navigation mid-call

# Images still loading size their elements only once they arrive: an <img> or an element drawn by
# a CSS ``content: url(...)`` (MiniWoB++'s social-media icons) is 0x0 until then and would be
# dropped as invisible. So the page first waits, at most ``settle_timeout_ms``, for the images that
# still lack a size; background images do not size their element and are not waited for.
PAGE_INFO_JS = """async (settleMs) => {
  const waits = [];
  if (settleMs > 0) {
    for (const img of document.images) if (!img.complete) waits.push(img.decode().catch(() => {}));
    for (const el of document.querySelectorAll("body *")) {
      if (!(el instanceof HTMLElement) || el instanceof HTMLImageElement || el.offsetWidth) continue;
      if (!el.getClientRects().length) continue;  // not rendered (display: none, or inside one)
      const style = getComputedStyle(el);
      if (!style.content.includes("url(")) continue;
      for (const [, src] of style.content.matchAll(/url\\("?([^")]+)"?\\)/g)) {
        const image = new Image();
        image.src = src;
        if (!image.complete) waits.push(image.decode().catch(() => {}));
      }
    }
  }
  let pending = waits.length;
  if (pending) {
    waits.forEach((wait) => wait.then(() => { pending -= 1; }));
    await Promise.race([Promise.all(waits), new Promise((done) => setTimeout(done, settleMs))]);
  }
  const root = document.documentElement, body = document.body;
  return {
    title: document.title,
    width: window.innerWidth, height: window.innerHeight,
    scrollX: window.scrollX, scrollY: window.scrollY,
    docWidth: Math.max(root ? root.scrollWidth : 0, body ? body.scrollWidth : 0),
    docHeight: Math.max(root ? root.scrollHeight : 0, body ? body.scrollHeight : 0),
    elements: document.getElementsByTagName("*").length,
    imagesLoading: pending,
  };
}"""

AX_METHOD = "Accessibility.getFullAXTree"
SNAPSHOT_PARAMS = {
    "computedStyles": list(SNAPSHOT_STYLES),
    "includePaintOrder": True,
    "includeDOMRects": True,
}


async def capture_page(page: Any, config: BrowserConfig) -> PageState:
    """PageState of the page as it is now: no navigation; the only wait is for images that still
    lack a size, at most ``config.settle_timeout_ms``."""
    started = perf_counter()
    timings: dict[str, float] = {}
    warnings: list[str] = []
    calls = _Calls(config, timings)
    info = await calls.run("page_info", page.evaluate(PAGE_INFO_JS, config.settle_timeout_ms))
    if info["imagesLoading"]:
        warnings.append(f"{info['imagesLoading']} images were still loading after "
                        f"settle_timeout_ms={config.settle_timeout_ms}; their elements may be "
                        "missing from the capture")
    if info["elements"] > config.max_nodes:
        raise CaptureError(
            f"{page.url} has {info['elements']} elements, over max_nodes={config.max_nodes}; "
            "raise browser.max_nodes to capture it anyway"
        )
    use_ax, why_no_ax = _use_ax(config, info["elements"])
    cdp = await calls.run("cdp_session", page.context.new_cdp_session(page))
    try:
        snap = asyncio.ensure_future(
            calls.run("snapshot", cdp_send(cdp, "DOMSnapshot.captureSnapshot", SNAPSHOT_PARAMS))
        )
        dom, snapshot, ax_nodes = await _gather(
            fetch_dom(lambda name, method, params: calls.run(name,
                                                             cdp_send(cdp, method, params)),
                      warnings),
            snap,
            _ax_tree(cdp, calls, warnings, snap) if use_ax else _skipped(warnings, why_no_ax),
        )
    finally:
        await detach_cdp(cdp, DETACH_TIMEOUT_S)
    t = perf_counter()
    nodes, frames = build_nodes(dom, SnapshotIndex(snapshot), config.max_nodes)
    link_children(nodes)
    fill_select_values(nodes)
    timings["build"] = _ms(t)
    has_ax = ax_nodes is not None
    if has_ax:
        t = perf_counter()
        apply_ax_tree(nodes, ax_nodes)
        timings["ax_apply"] = _ms(t)
    t = perf_counter()
    fill_accessibility(nodes)
    timings["aria_fill"] = _ms(t)
    timings["total"] = _ms(started)
    return PageState(
        url=page.url, title=info["title"], nodes=nodes, source="live",
        viewport=(int(info["width"]), int(info["height"])),
        scroll=(float(info["scrollX"]), float(info["scrollY"])),
        document_size=(float(info["docWidth"]), float(info["docHeight"])),
        frames=frames, has_layout=True, has_ax=has_ax, has_paint_order=True,
        meta={"timings_ms": timings, "warnings": warnings, "browser": _version(page)},
    )  # fmt: skip


class _Calls:
    """Runs one capture's calls under the capture timeout, recording each one's time."""

    def __init__(self, config: BrowserConfig, timings: dict[str, float]) -> None:
        self.config = config
        self.timings = timings

    async def run(self, name: str, call: Awaitable[Any]) -> Any:
        from playwright.async_api import Error as PlaywrightError

        limit = self.config.capture_timeout_ms
        t = perf_counter()
        try:
            return await asyncio.wait_for(call, timeout=limit / 1000)
        except TimeoutError as exc:
            raise CaptureError(
                f"{name} did not answer within capture_timeout_ms={limit}; the page may be hung "
                "(a script in an endless loop) or too large: raise browser.capture_timeout_ms"
            ) from exc
        except PlaywrightError as exc:
            raise CaptureError(describe_playwright_error(name, exc)) from exc
        finally:
            self.timings[name] = _ms(t)


async def _ax_tree(
    cdp: Any, calls: _Calls, warnings: list[str], snapshot: Awaitable[dict]
) -> list[dict] | None:
    """AX nodes of the page and of the iframe documents in ``snapshot`` (the same-process ones);
    None, with a warning, if the page's tree is unavailable."""
    try:
        result = await calls.run("ax", cdp_send(cdp, AX_METHOD, {}))
    except CaptureError as exc:
        warnings.append(f"accessibility tree unavailable, roles and names from HTML rules: {exc}")
        return None
    nodes: list[dict] = result.get("nodes", [])
    for i, frame_id in enumerate(_child_frame_ids(await snapshot)):
        try:
            sub = await calls.run(f"ax_frame_{i + 1}", cdp_send(
                cdp, AX_METHOD, {"frameId": frame_id}))  # fmt: skip
        except CaptureError as exc:
            warnings.append(f"accessibility tree of frame {frame_id} unavailable: {exc}")
            continue
        nodes.extend(sub.get("nodes", []))
    return nodes


def _child_frame_ids(snapshot: dict) -> list[str]:
    """CDP frame ids of the snapshot's iframe documents (the first document is the page)."""
    strings = snapshot["strings"]
    return [
        strings[doc["frameId"]] for doc in snapshot["documents"][1:] if doc.get("frameId", -1) >= 0
    ]


def _use_ax(config: BrowserConfig, elements: int) -> tuple[bool, str]:
    """Whether to fetch the AX tree, and if not, why."""
    if not config.capture_ax:
        return False, ""  # a choice, not a problem: no warning
    if elements > config.ax_max_elements:
        return False, (
            f"accessibility tree skipped: {elements} elements > ax_max_elements="
            f"{config.ax_max_elements} (raise browser.ax_max_elements to fetch it)"
        )
    return True, ""


async def _skipped(warnings: list[str], reason: str) -> None:
    if reason:
        warnings.append(f"{reason}; roles and names from HTML rules")


async def _gather(*calls: Awaitable[Any]) -> list[Any]:
    """Run calls concurrently; if one fails, cancel the others before re-raising."""
    tasks = [asyncio.ensure_future(c) for c in calls]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


def describe_playwright_error(what: str, exc: Exception) -> str:
    """One clear line for a Playwright error during ``what``."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    lowered = text.lower()
    if NAVIGATED in lowered:
        return (f"{what} failed because the page navigated to another document meanwhile (a "
                "redirect, a reload or a script setting location); capture it once it settles")
    if "crash" in lowered or "closed" in lowered or "detached" in lowered:
        return (
            f"{what} failed because the page or browser went away ({first}); the renderer may "
            "have crashed: open a fresh page (CaptureSession does so on the next capture)"
        )
    return f"{what} failed: {first}"


def _version(page: Any) -> str:
    browser = page.context.browser
    return browser.version if browser is not None else ""


def _ms(start: float) -> float:
    return round((perf_counter() - start) * 1000, 2)
