"""Actions on a live page by backend node id: click, type, select (an option, or a slider's number:
``pipeline.live.sliders``), press, scroll, hover, drag, clear; and select_text, which finds its
passage by its text (``pipeline.live.selection``). The page-side checks are in ``element_js``.

The executor resolves a ref to the backend node id the capture recorded; this module finds that
node in the live page through CDP (``DOM.resolveNode``), checks it the way a person would (still
in the document, visible, enabled, not covered by something else at the point it aims at: the
centre, or where the centre is covered another point of its box that the mouse reaches) and then acts
with trusted input (Playwright's mouse and keyboard). A problem comes back as an
``ActionOutcome`` with ``error`` set, written for the model to read — never as an exception::

    actions = LiveActions(playwright_page)       # async Playwright page
    outcome = await actions.click(backend_id)    # ActionOutcome(ok, message, error)
    outcome = await actions.press("Enter", backend_id)   # Enter in that field
    outcome = await actions.scroll("down")       # the page; scroll("down", backend_id): a box
    outcome = await actions.drag(backend_id, to_backend_id=other)   # or offset=(40, 0)
    outcome = await actions.select_text("Lorem ipsum")   # outcome.backend_id: the element holding it
    backend_id = await actions.backend_id_of("() => document.querySelector('#ok')")
    await actions.close()                        # release the CDP session
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from pipeline.live import element_js, sliders
from pipeline.live.browser import detach_cdp
from pipeline.live.cdp import cdp_send
from pipeline.live.field_values import FORMATS, wire_value
from pipeline.live.selection import (
    FACTS_JS,
    HOLDER_JS,
    LOCATE_JS,
    SELECTION_JS,
    outcome_problem,
    selected_message,
    selected_problem,
)

ActionError = Literal["stale", "hidden", "disabled", "covered", "not_editable", "not_a_select",
                      "no_option", "bad_value", "at_edge", "no_text", "not_selected", "failed"]

# Where in a box ``probe_points`` looks for a reachable point, as fractions of its sides: the
# centre, then a ring half-way out, then one near the edges.
PROBE_FRACTIONS = ((0.5, 0.5), (0.25, 0.5), (0.75, 0.5), (0.5, 0.25), (0.5, 0.75),
                   (0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75),
                   (0.1, 0.5), (0.9, 0.5), (0.5, 0.1), (0.5, 0.9))
SPIN_BUTTONS_PX = 18  # the right end of a number field its spin buttons take (Chromium: ~15)
DETACH_TIMEOUT_S = 1.0
DRAG_STEPS = 8  # mouse moves between press and release (drag libraries want several)
DROP_PAST = 0.3  # how far past the centre of the element it is dropped on (``drop_point``)
HOLDS = 2.0  # a drop target this many times the dragged element's size each way holds it
_GROUP = "pagescout-select-text"  # remote objects select_text holds, released together
_VALUE_SET_TYPES = frozenset({"date", "time", "datetime-local", "month", "week", "color", "range"})


@dataclass(slots=True)
class ActionOutcome:
    ok: bool
    message: str  # what happened, or what is wrong and what to do instead
    error: ActionError | None = None
    backend_id: int | None = None  # the element select_text found the passage in


def probe_points(quads: list[list[float]], width: float, height: float
                 ) -> list[tuple[float, float]]:
    """Points inside the content quads ``DOM.getContentQuads`` gives (each x1, y1, ... x4, y4,
    in viewport pixels, possibly rotated) that lie in the ``width`` x ``height`` viewport: every
    quad's centre first, then each quad's other ``PROBE_FRACTIONS`` (bilinear in the quad, so a
    rotated box is probed inside itself). Empty when no point of any quad is in view."""
    points = []
    for u, v in PROBE_FRACTIONS:
        for quad in quads:
            corners = [(quad[i], quad[i + 1]) for i in range(0, 8, 2)]
            top = [(1 - u) * a + u * b for a, b in zip(corners[0], corners[1], strict=True)]
            bottom = [(1 - u) * a + u * b for a, b in zip(corners[3], corners[2], strict=True)]
            x, y = ((1 - v) * t + v * b for t, b in zip(top, bottom, strict=True))
            if 0 <= x < width and 0 <= y < height:
                points.append((x, y))
    return points


def without_spin_buttons(quad: list[float]) -> list[float]:
    """A number field's content quad without the spin buttons at its right end, where a click
    steps the value (the centre of a 30 px field is on them): its left part, at least a third
    of it, as a person clicks a field to put the caret in it."""
    width = math.dist(quad[0:2], quad[2:4])
    if width <= 0:
        return quad
    keep = max(width - SPIN_BUTTONS_PX, width / 3) / width
    top_right = [a + (b - a) * keep for a, b in zip(quad[0:2], quad[2:4], strict=True)]
    bottom_right = [a + (b - a) * keep for a, b in zip(quad[6:8], quad[4:6], strict=True)]
    return [*quad[0:2], *top_right, *bottom_right, *quad[6:8]]


def drop_point(start: tuple[float, float], quad: list[float],
               dragged: list[float]) -> tuple[float, float]:
    """Where a drag from ``start`` of the element with box ``dragged`` onto the box ``quad`` is
    released: at the box's centre when it can hold the element (``HOLDS`` times its size each
    way: a box shapes go into, where the centre keeps the whole element inside), else past the
    centre by ``DROP_PAST`` of its size along each axis the drag travels, still inside it (a
    sortable list swaps two items of a size once the pointer crosses the other's middle)."""
    xs, ys = quad[0::2], quad[1::2]
    centre = (sum(xs) / 4, sum(ys) / 4)
    sizes = (max(xs) - min(xs), max(ys) - min(ys))
    held = (max(dragged[0::2]) - min(dragged[0::2]), max(dragged[1::2]) - min(dragged[1::2]))
    if all(size >= HOLDS * side for size, side in zip(sizes, held, strict=True)):
        return centre
    return tuple(c + DROP_PAST * size * ((c > s) - (c < s))
                 for c, s, size in zip(centre, start, sizes, strict=True))


class LiveActions:
    """Acts on one async Playwright page through a CDP session opened on first use."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self._cdp: Any = None

    async def _send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if self._cdp is None:
            self._cdp = await self.page.context.new_cdp_session(self.page)
        return await cdp_send(self._cdp, method, params)

    async def _call(self, object_id: str, function: str, *args: Any) -> Any:
        arguments = [a if isinstance(a, dict) and "objectId" in a else {"value": a} for a in args]
        result = await self._send("Runtime.callFunctionOn", {
            "objectId": object_id, "functionDeclaration": function, "arguments": arguments,
            "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text", "script failed"))
        return result["result"].get("value")

    async def _resolve(self, backend_id: int) -> tuple[str | None, dict[str, Any] | None]:
        """(objectId, state) of the live element, or (None, None) when it is gone."""
        from playwright.async_api import Error as PlaywrightError

        try:
            resolved = await self._send("DOM.resolveNode", {"backendNodeId": backend_id})
        except PlaywrightError:
            return None, None
        object_id = resolved["object"]["objectId"]
        state = await self._call(object_id, element_js.STATE_JS)
        return (object_id, state) if state and state["connected"] else (None, None)

    async def _ready(self, backend_id: int, what: str, enabled: bool = True
                     ) -> tuple[str, dict[str, Any], None] | tuple[None, None, ActionOutcome]:
        """(objectId, state, None) for an element one can act on, else (None, None, problem);
        ``enabled=False`` accepts a disabled element (a disabled text area still scrolls)."""
        object_id, state = await self._resolve(backend_id)
        if object_id is None:
            return None, None, ActionOutcome(False, f"{what} is no longer on the page (the page "
                                             "changed); look the element up again", "stale")
        if not state["visible"]:
            return None, None, ActionOutcome(False, f"{what} is not visible now; it may sit in "
                                             "a closed menu or tab — open that first", "hidden")
        if state["disabled"] and enabled:
            return None, None, ActionOutcome(False, f"{what} is disabled; something else must "
                                             "be done first (fill the required fields?)",
                                             "disabled")
        return object_id, state, None

    async def _covering(self, object_id: str, x: float, y: float,
                        viewport: dict[str, Any]) -> str | None:
        """Description of what lies on top at viewport point (x, y) when it is not the element
        itself. ``DOM.getNodeForLocation`` takes page coordinates: add the scroll offset."""
        hit = await self._send("DOM.getNodeForLocation", {
            "x": round(x + viewport["pageX"]), "y": round(y + viewport["pageY"]),
            "includeUserAgentShadowDOM": False, "ignorePointerEventsNone": True})
        hit_object = (await self._send("DOM.resolveNode", {
            "backendNodeId": hit["backendNodeId"]}))["object"]["objectId"]
        if await self._call(object_id, element_js.CONTAINS_JS, {"objectId": hit_object}):
            return None
        return await self._call(hit_object, element_js.DESCRIBE_JS)

    async def click(self, backend_id: int, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._click(backend_id, what))

    async def _click(self, backend_id: int, what: str) -> ActionOutcome:
        centre = await self._pointable(backend_id, what)
        if isinstance(centre, ActionOutcome):
            return centre
        await self.page.mouse.click(*centre)
        return ActionOutcome(True, f"clicked {what}")

    async def type(self, backend_id: int, text: str, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._type(backend_id, text, what))

    async def _type(self, backend_id: int, text: str, what: str) -> ActionOutcome:
        object_id, state, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        if state["type"] in _VALUE_SET_TYPES and state["tag"] == "input":
            return await self._set_value(object_id, state["type"], text, what)
        through_focus = False
        if not state["editable"] or state["readonly"]:
            through_focus = await self._call(object_id, element_js.HIDDEN_FOCUS_JS)
            if not through_focus:
                return ActionOutcome(False, f"{what} does not take typed text; click it or use "
                                     "select for a dropdown", "not_editable")
        else:
            await self._call(object_id, "function () { this.focus(); }")
        await self.page.keyboard.press("ControlOrMeta+A")
        await self.page.keyboard.press("Delete")
        await self.page.keyboard.type(text)
        how = " (through the hidden field that has the focus)" if through_focus else ""
        return ActionOutcome(True, f"typed {text!r} into {what}{how}")

    async def _set_value(self, object_id: str, kind: str, text: str, what: str) -> ActionOutcome:
        """Set an input the keyboard cannot fill (date, time, colour, ...) to ``text``, written
        the way people write it (``field_values``); refused when the browser drops the value."""
        value = await self._call(object_id, element_js.SET_VALUE_JS, wire_value(kind, text))
        if value is None:
            return ActionOutcome(False, f"{what} is a {kind} field and does not take {text!r}; "
                                 f"write it as {FORMATS[kind]}", "bad_value")
        read = f" (from {text!r})" if value != text else ""
        return ActionOutcome(True, f"set {what} to {value!r}{read}")

    async def select(self, backend_id: int, option: str, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._select(backend_id, option, what))

    async def _select(self, backend_id: int, option: str, what: str) -> ActionOutcome:
        object_id, state, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        if state["tag"] == "input" and state["type"] == "range":
            return await self._set_value(object_id, "range", option, what)
        if state["tag"] != "select":
            return await self._slide(object_id, option, what)
        chosen = await self._call(object_id, element_js.SELECT_JS, option)
        if not chosen["ok"]:
            listed = " | ".join(chosen["options"])
            return ActionOutcome(False, f"{what} has no option {option!r}; options: {listed}",
                                 "no_option")
        return ActionOutcome(True, f"selected {chosen['text']!r} in {what}")

    async def _slide(self, object_id: str, option: str, what: str) -> ActionOutcome:
        """Set the slider ``object_id`` is (or holds) to the number ``option`` with its keys
        (``pipeline.live.sliders``); an element that is no slider is refused as no select."""
        found = await self._send("Runtime.callFunctionOn", {
            "objectId": object_id, "functionDeclaration": sliders.FIND_HANDLE_JS,
            "arguments": [{"value": sliders.HANDLE_SELECTOR}], "objectGroup": _GROUP})
        handle = found.get("result", {}).get("objectId")
        if handle is None:
            many = await self._call(object_id, sliders.COUNT_HANDLES_JS,
                                   sliders.HANDLE_SELECTOR)
            hint = (f" it holds {many} slider handles: select on one of them" if many > 1 else
                    " click it to open its options, then click the option")
            return ActionOutcome(False, f"{what} is not a <select> or a slider;{hint}",
                                 "not_a_select")
        try:
            wanted = sliders.number_of(option)
            if wanted is None:
                return ActionOutcome(False, f"{what} is a slider: select a number on it, not "
                                     f"{option!r}", "bad_value")
            await self._call(handle, "function () { this.focus(); }")

            async def read() -> sliders.Reading | None:
                return sliders.Reading.of(await self._call(handle, sliders.READ_JS))

            slid = await sliders.slide_to(read, self.page.keyboard.press, wanted)
        finally:
            await self._send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
        if not slid.ok:
            return ActionOutcome(False, f"{what} is a slider and was not set to {option}: "
                                 f"{slid.problem}", "no_option")
        if not slid.keys:
            return ActionOutcome(True, f"{what} already shows {sliders.shown(slid.after)}")
        return ActionOutcome(True, f"set {what} (a slider) from {sliders.shown(slid.before)} to "
                             f"{sliders.shown(slid.after)}")

    async def press(self, key: str, backend_id: int | None = None,
                    what: str = "the element") -> ActionOutcome:
        """Press ``key`` where the focus is, or in the element ``backend_id`` (focused first)."""
        async def press() -> ActionOutcome:
            if backend_id is not None:
                _, _, problem = await self._ready(backend_id, what)
                if problem:
                    return problem
                await self._send("DOM.focus", {"backendNodeId": backend_id})
            await self.page.keyboard.press(key)
            return ActionOutcome(True, f"pressed {key}" + (f" in {what}" if backend_id else ""))

        return await self._guard(press())

    async def scroll(self, direction: str, backend_id: int | None = None,
                     what: str = "the element", to_end: bool = False) -> ActionOutcome:
        """Scroll the page, or the scrollable box holding ``backend_id``, by most of its height
        (width for left/right) or ``to_end``; refused at the edge, where nothing would move."""
        async def scroll() -> ActionOutcome:
            if backend_id is None:
                found = await self._send("Runtime.evaluate", {"expression": "document"})
                object_id, where = found["result"]["objectId"], "the page"
            else:
                object_id, _, problem = await self._ready(backend_id, what, enabled=False)
                if problem:
                    return problem
                where = what
            try:
                moved = await self._call(object_id, element_js.SCROLL_BY_JS, direction, to_end)
            finally:
                if backend_id is None:
                    await self._send("Runtime.releaseObject", {"objectId": object_id})
            if backend_id is not None and moved["page"]:
                where = f"the page (no box around {what} scrolls)"
            if moved["before"] == moved["after"]:
                return ActionOutcome(False, f"{where} cannot scroll further {direction}; it is "
                                     "at its edge", "at_edge")
            return ActionOutcome(True, f"scrolled {where} {direction}: now at {moved['after']} "
                                 f"of {moved['end']} px")

        return await self._guard(scroll())

    async def hover(self, backend_id: int, what: str = "the element") -> ActionOutcome:
        """Move the mouse to the element's centre (refused like click when it is not there)."""
        async def hover() -> ActionOutcome:
            point = await self._pointable(backend_id, what)
            if isinstance(point, ActionOutcome):
                return point
            await self.page.mouse.move(*point)
            return ActionOutcome(True, f"hovered over {what}")

        return await self._guard(hover())

    async def drag(self, backend_id: int, what: str = "the element", *,
                   to_backend_id: int | None = None, to_what: str = "the target",
                   offset: tuple[float, float] | None = None) -> ActionOutcome:
        """Press the mouse on the element, move onto ``to_backend_id`` (a little past its
        centre: ``drop_point``) or by ``offset`` pixels in DRAG_STEPS moves, and release."""
        if (to_backend_id is None) == (offset is None):
            raise ValueError("drag needs exactly one of to_backend_id and offset")

        async def drag() -> ActionOutcome:
            start = await self._pointable(backend_id, what)
            if isinstance(start, ActionOutcome):
                return start
            if offset is not None:
                end, where = (start[0] + offset[0], start[1] + offset[1]), f"by {offset}"
            else:
                _, _, problem = await self._ready(to_backend_id, to_what)
                if problem:
                    return problem
                quads, dragged = await self._quads(to_backend_id), await self._quads(backend_id)
                if not quads or not dragged:
                    return ActionOutcome(False, f"{to_what} has no box to drop on", "hidden")
                end, where = drop_point(start, quads[0], dragged[0]), f"onto {to_what}"
            await self.page.mouse.move(*start)
            await self.page.mouse.down()
            await self.page.mouse.move(*end, steps=DRAG_STEPS)
            await self.page.mouse.up()
            return ActionOutcome(True, f"dragged {what} {where}")

        return await self._guard(drag())

    async def clear(self, backend_id: int, what: str = "the element") -> ActionOutcome:
        """Empty a text field with the keyboard (select all, delete)."""
        async def clear() -> ActionOutcome:
            object_id, state, problem = await self._ready(backend_id, what)
            if problem:
                return problem
            if state["type"] in _VALUE_SET_TYPES and state["tag"] == "input":
                await self._call(object_id, element_js.SET_VALUE_JS, "")
                return ActionOutcome(True, f"cleared {what}")
            if not state["editable"] or state["readonly"]:
                return ActionOutcome(False, f"{what} is not a text field one can clear",
                                     "not_editable")
            await self._call(object_id, "function () { this.focus(); }")
            await self.page.keyboard.press("ControlOrMeta+A")
            await self.page.keyboard.press("Delete")
            return ActionOutcome(True, f"cleared {what}")

        return await self._guard(clear())

    async def select_text(self, text: str) -> ActionOutcome:
        """Drag the mouse across the first visible occurrence of ``text`` (whitespace aside),
        from inside its first character's left edge to inside its last one's right edge, then
        check what the page reports selected."""
        async def select_text() -> ActionOutcome:
            document = await self._send("Runtime.evaluate", {"expression": "document",
                                                              "objectGroup": _GROUP})
            located = await self._object(document["result"]["objectId"], LOCATE_JS, text)
            try:
                facts = await self._call(located, FACTS_JS)
                problem = outcome_problem(facts, text)
                if problem:
                    return ActionOutcome(False, *problem)
                holder = await self._backend_id(await self._object(located, HOLDER_JS))
            finally:
                await self._send("Runtime.releaseObjectGroup", {"objectGroup": _GROUP})
            await self.page.mouse.move(*facts["start"])
            await self.page.mouse.down()
            await self.page.mouse.move(*facts["end"], steps=DRAG_STEPS)
            await self.page.mouse.up()
            selected = await self._send("Runtime.evaluate", {
                "expression": SELECTION_JS, "returnByValue": True})
            wrong = selected_problem(selected["result"].get("value") or "", text)
            if wrong:
                return ActionOutcome(False, wrong, "not_selected", holder)
            return ActionOutcome(True, selected_message(text, facts["what"]), backend_id=holder)

        return await self._guard(select_text())

    async def _object(self, object_id: str, function: str, *args: Any) -> str:
        """The objectId of what ``function`` returns on ``object_id`` (in ``_GROUP``)."""
        result = await self._send("Runtime.callFunctionOn", {
            "objectId": object_id, "functionDeclaration": function,
            "arguments": [{"value": a} for a in args], "objectGroup": _GROUP})
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"].get("text", "script failed"))
        return result["result"]["objectId"]

    async def _backend_id(self, object_id: str) -> int:
        return (await self._send("DOM.describeNode", {"objectId": object_id}))["node"][
            "backendNodeId"]

    async def _pointable(self, backend_id: int, what: str) -> tuple[float, float] | ActionOutcome:
        """A point of the element (scrolled into view) where the mouse reaches the element
        itself, or why there is none (as click). The centre of its box comes first (a number
        field's box without its spin buttons: ``without_spin_buttons``); when something lies on
        top there (a label over a pie slice, an overlapping button), the other probe points of
        its boxes (``probe_points``) are tried, as a person clicks the part of a half-covered
        button they can see. Covered everywhere: the first cover is named."""
        object_id, state, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        await self._call(object_id, element_js.SCROLL_JS)
        quads = await self._quads(backend_id)
        if state["tag"] == "input" and state["type"] == "number":
            quads = [without_spin_buttons(quad) for quad in quads]
        metrics = await self._send("Page.getLayoutMetrics")
        viewport = metrics["cssLayoutViewport"]
        points = probe_points(quads, viewport["clientWidth"], viewport["clientHeight"])
        if not points:
            return ActionOutcome(False, f"{what} has no box to point at", "hidden")
        first_cover = None
        for point in points:
            cover = await self._covering(object_id, *point, viewport)
            if cover is None:
                return point
            first_cover = first_cover or cover
        return ActionOutcome(False, f"{what} is covered by {first_cover}; close or answer that "
                             "first", "covered")

    async def _quads(self, backend_id: int) -> list[list[float]]:
        """The element's content boxes in viewport pixels (``DOM.getContentQuads``)."""
        return (await self._send("DOM.getContentQuads", {"backendNodeId": backend_id}))["quads"]

    async def backend_id_of(self, expression: str) -> int | None:
        """Backend node id of the element the JS function expression returns (None: it returned
        no element or threw)."""
        found = await self._send("Runtime.evaluate", {"expression": f"({expression})()"})
        handle = found.get("result", {})
        if "exceptionDetails" in found or handle.get("subtype") != "node":
            return None
        try:
            return await self._backend_id(handle["objectId"])
        finally:
            await self._send("Runtime.releaseObject", {"objectId": handle["objectId"]})

    async def close(self) -> None:
        """Release the CDP session (without waiting long on a crashed page)."""
        cdp, self._cdp = self._cdp, None
        if cdp is not None:
            await detach_cdp(cdp, DETACH_TIMEOUT_S)

    async def _guard(self, action) -> ActionOutcome:
        """Run an action; a browser-side failure becomes a readable ``failed`` outcome."""
        from playwright.async_api import Error as PlaywrightError

        try:
            return await action
        except (PlaywrightError, RuntimeError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            return ActionOutcome(False, f"the action failed in the browser: {first}", "failed")
