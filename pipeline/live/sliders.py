"""Setting a slider to a number the way a keyboard user does: focus its handle and press Page
Up/Down while the value is far, then the arrow keys, reading the value after every key.

A model that reads the page as text cannot know how many pixels a number lies along a track, so
``select(index, option)`` on a slider takes the number and this module finds the keys. Sliders
are recognised by what they are, not by a page: ``<input type=range>``, an ARIA ``role=slider``
(value in ``aria-valuenow``), and jQuery UI's slider handles (value from the widget). The
element named may be the handle, the slider around it, or a box holding exactly one handle."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

MAX_KEYS = 80  # key presses at most; a slider that needs more is refused, not half set
PAGES = 5  # Page Up/Down moves about (max - min) / PAGES in jQuery UI and most ARIA sliders
HANDLE_SELECTOR = "input[type=range], [role=slider], .ui-slider-handle"

# The slider handle (HANDLE_SELECTOR) for the element: itself, the handle it sits in, or its
# only handle inside; null when there is none or several (the caller names them).
FIND_HANDLE_JS = """function (selector) {
  if (this.matches(selector)) return this;
  const up = this.closest(selector);
  if (up) return up;
  const inside = this.querySelectorAll(selector);
  return inside.length === 1 ? inside[0] : null;
}"""
# How many handles the element holds (to say why it names no single slider).
COUNT_HANDLES_JS = "function (selector) { return this.querySelectorAll(selector).length; }"
# The handle's {value, min, max} as numbers, or null when the widget does not say.
READ_JS = """function () {
  const num = (v) => (v === null || v === undefined || v === '' || isNaN(Number(v)))
    ? null : Number(v);
  if (this.matches('input[type=range]'))
    return {value: num(this.value), min: num(this.min) ?? 0, max: num(this.max) ?? 100};
  if (this.getAttribute('role') === 'slider' && num(this.getAttribute('aria-valuenow')) !== null)
    return {value: num(this.getAttribute('aria-valuenow')),
            min: num(this.getAttribute('aria-valuemin')),
            max: num(this.getAttribute('aria-valuemax'))};
  const jq = this.ownerDocument.defaultView.jQuery;
  const box = this.closest('.ui-slider');
  if (!jq || !box || !jq(box).slider) return null;
  const widget = jq(box).slider('instance');
  if (!widget) return null;
  const index = jq(this).data('ui-slider-handle-index') || 0;
  const many = widget.options.values && widget.options.values.length;
  return {value: num(many ? widget.values(index) : widget.value()),
          min: num(widget.options.min), max: num(widget.options.max)};
}"""


@dataclass(frozen=True, slots=True)
class Reading:
    value: float
    low: float | None
    high: float | None

    @classmethod
    def of(cls, raw: dict) -> Reading | None:
        if not raw or raw.get("value") is None:
            return None
        return cls(raw["value"], raw.get("min"), raw.get("max"))


@dataclass(frozen=True, slots=True)
class Slid:
    """Where the keys left the slider: ``ok`` when it shows the number, else ``problem``."""

    ok: bool
    before: float
    after: float
    keys: int
    problem: str = ""


def number_of(option: str) -> float | None:
    """The number an option names ("42", "-7", "3.5"), or None."""
    try:
        return float(option.strip().replace("\u2212", "-"))
    except ValueError:
        return None


def shown(value: float) -> str:
    return f"{value:g}"


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


async def slide_to(read: Callable[[], Awaitable[Reading | None]],
                   press: Callable[[str], Awaitable[None]], wanted: float) -> Slid:
    """Press keys on the focused handle until ``read`` gives ``wanted``: Page Up/Down while the
    gap is at least one page (measured by the first page key), then the arrows; refused when the
    number lies outside the range, the keys stop moving it, or it steps over the number."""
    start = await read()
    if start is None:
        return Slid(False, float("nan"), float("nan"), 0, "the slider does not say its value")
    if None not in (start.low, start.high) and not start.low <= wanted <= start.high:
        return Slid(False, start.value, start.value, 0, f"{shown(wanted)} is outside the "
                    f"slider's range {shown(start.low)} to {shown(start.high)}")
    now, keys = start, 0
    page = (start.high - start.low) / PAGES if None not in (start.low, start.high) else None
    while keys < MAX_KEYS and not _same(now.value, wanted):
        gap = wanted - now.value
        by_page = page is not None and abs(gap) >= page
        key = (("PageUp", "PageDown") if by_page else ("ArrowRight", "ArrowLeft"))[gap < 0]
        await press(key)
        keys += 1
        after = await read()
        if after is None:
            return Slid(False, start.value, now.value, keys, "the slider stopped saying its value")
        moved = after.value - now.value
        if by_page:
            page = abs(moved) if moved else None  # no page keys here: the arrows do it all
        elif moved == 0:
            return Slid(False, start.value, now.value, keys,
                        f"the arrow keys do not move it past {shown(now.value)}")
        elif (wanted - after.value) * gap < 0 and not _same(after.value, wanted):
            return Slid(False, start.value, after.value, keys, f"it moves in steps of "
                        f"{shown(abs(moved))} and steps over {shown(wanted)}")
        now = after
    if not _same(now.value, wanted):
        return Slid(False, start.value, now.value, keys,
                    f"{MAX_KEYS} key presses took it only to {shown(now.value)}")
    return Slid(True, start.value, now.value, keys)
