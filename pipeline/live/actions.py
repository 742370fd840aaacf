"""Actions on a live page by backend node id: click, type, select, press.

The executor resolves a ref to the backend node id the capture recorded; this module finds that
node in the live page through CDP (``DOM.resolveNode``), checks it the way a person would (still
in the document, visible, enabled, not covered by something else at its centre) and then acts
with trusted input (Playwright's mouse and keyboard). A problem comes back as an
``ActionOutcome`` with ``error`` set, written for the model to read — never as an exception::

    actions = LiveActions(playwright_page)       # async Playwright page
    outcome = await actions.click(backend_id)    # ActionOutcome(ok, message, error)
    outcome = await actions.press("Enter", backend_id)   # Enter in that field
    backend_id = await actions.backend_id_of("() => document.querySelector('#ok')")
    await actions.close()                        # release the CDP session
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pipeline.live.browser import detach_cdp

ActionError = Literal["stale", "hidden", "disabled", "covered", "not_editable", "not_a_select",
                      "no_option", "failed"]

# Facts about the element the checks need, computed in its own frame.
_STATE_JS = """function () {
  const el = this;
  const style = el.ownerDocument.defaultView.getComputedStyle(el);
  const rect = el.getBoundingClientRect();
  const visible = el.isConnected && rect.width > 0 && rect.height > 0 &&
    (el.checkVisibility ? el.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})
                        : style.visibility !== 'hidden');
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') || '').toLowerCase();
  const disabled = (el.matches && el.matches(':disabled')) ||
    el.getAttribute('aria-disabled') === 'true';
  const editable = el.isContentEditable || tag === 'textarea' ||
    (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file',
                          'hidden', 'range', 'color'].includes(type));
  return {connected: el.isConnected, visible, disabled, editable, tag, type,
          readonly: !!el.readOnly};
}"""
_SCROLL_JS = "function () { this.scrollIntoView({block: 'center', inline: 'center'}); }"
_CONTAINS_JS = """function (other) {
  for (let n = other; n; n = n.parentNode || n.host) { if (n === this) return true; }
  return false;
}"""
_DESCRIBE_JS = """function () {
  const el = this, tag = el.tagName.toLowerCase();
  const id = el.id ? '#' + el.id : '';
  const text = (el.innerText || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40).trim();
  return `<${tag}${id}>${text}`;
}"""
# Set a value the way a user's input would end (for inputs the keyboard cannot fill: date...).
_SET_VALUE_JS = """function (value) {
  this.focus();
  const proto = Object.getPrototypeOf(this);
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  setter.call(this, value);
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return this.value;
}"""
_SELECT_JS = """function (wanted) {
  const norm = s => (s || '').trim().replace(/\\s+/g, ' ').toLowerCase();
  const options = Array.from(this.options || []);
  let match = options.find(o => o.text.trim() === wanted || o.value === wanted);
  if (!match) match = options.find(o => norm(o.text) === norm(wanted) || norm(o.value) === norm(wanted));
  if (!match) return {ok: false, options: options.slice(0, 30).map(o => o.text.trim())};
  this.value = match.value;
  match.selected = true;
  this.dispatchEvent(new Event('input', {bubbles: true}));
  this.dispatchEvent(new Event('change', {bubbles: true}));
  return {ok: true, text: match.text.trim()};
}"""
DETACH_TIMEOUT_S = 1.0
_VALUE_SET_TYPES = frozenset({"date", "time", "datetime-local", "month", "week", "color", "range"})


@dataclass(slots=True)
class ActionOutcome:
    ok: bool
    message: str  # what happened, or what is wrong and what to do instead
    error: ActionError | None = None


class LiveActions:
    """Acts on one async Playwright page through a CDP session opened on first use."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self._cdp: Any = None

    async def _send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        if self._cdp is None:
            self._cdp = await self.page.context.new_cdp_session(self.page)
        return await self._cdp.send(method, params or {})

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
        state = await self._call(object_id, _STATE_JS)
        return (object_id, state) if state and state["connected"] else (None, None)

    async def _ready(self, backend_id: int, what: str) -> tuple[str, dict[str, Any], None] | tuple[
        None, None, ActionOutcome
    ]:
        """(objectId, state, None) for an element one can act on, else (None, None, problem)."""
        object_id, state = await self._resolve(backend_id)
        if object_id is None:
            return None, None, ActionOutcome(False, f"{what} is no longer on the page (the page "
                                             "changed); look the element up again", "stale")
        if not state["visible"]:
            return None, None, ActionOutcome(False, f"{what} is not visible now; it may sit in "
                                             "a closed menu or tab — open that first", "hidden")
        if state["disabled"]:
            return None, None, ActionOutcome(False, f"{what} is disabled; something else must "
                                             "be done first (fill the required fields?)",
                                             "disabled")
        return object_id, state, None

    async def _centre(self, backend_id: int, object_id: str) -> tuple[float, float] | None:
        await self._call(object_id, _SCROLL_JS)
        quads = (await self._send("DOM.getContentQuads", {"backendNodeId": backend_id}))["quads"]
        if not quads:
            return None
        quad = quads[0]
        return sum(quad[0::2]) / 4, sum(quad[1::2]) / 4

    async def _covering(self, object_id: str, x: float, y: float) -> str | None:
        """Description of what lies on top at viewport point (x, y) when it is not the element
        itself. ``DOM.getNodeForLocation`` takes page coordinates: add the scroll offset."""
        viewport = (await self._send("Page.getLayoutMetrics"))["cssLayoutViewport"]
        hit = await self._send("DOM.getNodeForLocation", {
            "x": round(x + viewport["pageX"]), "y": round(y + viewport["pageY"]),
            "includeUserAgentShadowDOM": False, "ignorePointerEventsNone": True})
        hit_object = (await self._send("DOM.resolveNode", {
            "backendNodeId": hit["backendNodeId"]}))["object"]["objectId"]
        if await self._call(object_id, _CONTAINS_JS, {"objectId": hit_object}):
            return None
        return await self._call(hit_object, _DESCRIBE_JS)

    async def click(self, backend_id: int, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._click(backend_id, what))

    async def _click(self, backend_id: int, what: str) -> ActionOutcome:
        object_id, _, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        centre = await self._centre(backend_id, object_id)
        if centre is None:
            return ActionOutcome(False, f"{what} has no box to click", "hidden")
        cover = await self._covering(object_id, *centre)
        if cover is not None:
            return ActionOutcome(False, f"{what} is covered by {cover}; close or answer that "
                                 "first", "covered")
        await self.page.mouse.click(*centre)
        return ActionOutcome(True, f"clicked {what}")

    async def type(self, backend_id: int, text: str, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._type(backend_id, text, what))

    async def _type(self, backend_id: int, text: str, what: str) -> ActionOutcome:
        object_id, state, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        if state["type"] in _VALUE_SET_TYPES and state["tag"] == "input":
            value = await self._call(object_id, _SET_VALUE_JS, text)
            return ActionOutcome(True, f"set {what} to {value!r}")
        if not state["editable"] or state["readonly"]:
            return ActionOutcome(False, f"{what} does not take typed text; click it or use "
                                 "select for a dropdown", "not_editable")
        await self._call(object_id, "function () { this.focus(); }")
        await self.page.keyboard.press("ControlOrMeta+A")
        await self.page.keyboard.press("Delete")
        await self.page.keyboard.type(text)
        return ActionOutcome(True, f"typed {text!r} into {what}")

    async def select(self, backend_id: int, option: str, what: str = "the element") -> ActionOutcome:
        return await self._guard(self._select(backend_id, option, what))

    async def _select(self, backend_id: int, option: str, what: str) -> ActionOutcome:
        object_id, state, problem = await self._ready(backend_id, what)
        if problem:
            return problem
        if state["tag"] != "select":
            return ActionOutcome(False, f"{what} is not a <select>; click it to open its "
                                 "options, then click the option", "not_a_select")
        chosen = await self._call(object_id, _SELECT_JS, option)
        if not chosen["ok"]:
            listed = " | ".join(chosen["options"])
            return ActionOutcome(False, f"{what} has no option {option!r}; options: {listed}",
                                 "no_option")
        return ActionOutcome(True, f"selected {chosen['text']!r} in {what}")

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

    async def backend_id_of(self, expression: str) -> int | None:
        """Backend node id of the element the JS function expression returns (None: it returned
        no element or threw)."""
        found = await self._send("Runtime.evaluate", {"expression": f"({expression})()"})
        handle = found.get("result", {})
        if "exceptionDetails" in found or handle.get("subtype") != "node":
            return None
        try:
            described = await self._send("DOM.describeNode", {"objectId": handle["objectId"]})
        finally:
            await self._send("Runtime.releaseObject", {"objectId": handle["objectId"]})
        return described["node"]["backendNodeId"]

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
