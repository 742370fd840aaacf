"""Oracle policies for the jQuery UI slider tasks. A slider shows its value beside it and its
handle's place along the track, but not its range, so the policy finds the range the way a person
does: it drags the handle to the end of the track farther away and reads the value there; two
places and their values give the range. Then it drags the handle to the wanted value's place and
corrects the last steps with the arrow keys (each moves one step; the drag leaves the focus on the
handle), reading the value after each act. A slider already at the wanted value is left alone."""

from __future__ import annotations

import json
import re

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    drag,
    ordinal,
    press,
    text_of,
)

MAX_ARROWS = 12  # corrections after the drag; more means the drag went badly wrong
END_OVERSHOOT_PX = 20  # a drag to an end goes this far past it (the slider stops at its end)
# The slider's length along its axis, where its handle sits (0: the low end, 1: the high end: the
# handle's offset, a percentage of the track) and whether it stands vertically (low end at the
# bottom).
_GEOMETRY_JS = """(selector) => { const slider = document.querySelector(selector);
  const vertical = slider.classList.contains('ui-slider-vertical');
  const offset = slider.querySelector('.ui-slider-handle').style[vertical ? 'bottom' : 'left'];
  const box = slider.getBoundingClientRect();
  return {length: vertical ? box.height : box.width, place: parseFloat(offset) / 100,
          vertical}; }"""


async def set_slider(page, slider: str, shown: str, wanted: int):
    """The acts that set the slider ``slider`` (a CSS selector) to ``wanted``; its value shows
    in the element ``shown``."""
    handle = css(f"{slider} .ui-slider-handle")
    now = await _value(page, shown)
    if now == wanted:
        return
    geometry = await page.evaluate(_GEOMETRY_JS, slider)
    end = 0.0 if geometry["place"] > 0.5 else 1.0
    yield drag(handle, by=_offset(geometry, end - geometry["place"], END_OVERSHOOT_PX))
    at_end = await _value(page, shown)
    per_length = (at_end - now) / (end - geometry["place"])  # the range's span
    low = at_end - end * per_length
    if not min(low, low + per_length) <= wanted <= max(low, low + per_length):
        raise PolicyError(f"{wanted} is outside the slider's range {low:g}..{low + per_length:g}")
    if wanted != at_end:
        yield drag(handle, by=_offset(geometry, (wanted - at_end) / per_length))
    for _ in range(MAX_ARROWS):
        now = await _value(page, shown)
        if now == wanted:
            return
        yield press(handle, "ArrowRight" if now < wanted else "ArrowLeft")
    raise PolicyError(f"the slider did not reach {wanted} (shows {await _value(page, shown)})")


def _offset(geometry: dict, share: float, overshoot: int = 0) -> tuple[int, int]:
    """The drag (dx, dy) in pixels that moves the handle by ``share`` of the slider's length
    (negative: towards the low end), ``overshoot`` pixels further."""
    pixels = share * geometry["length"] + (overshoot if share > 0 else -overshoot)
    return (0, -round(pixels)) if geometry["vertical"] else (round(pixels), 0)


async def _value(page, shown: str) -> int:
    text = await text_of(page, shown)
    if not re.fullmatch(r"-?\d+", text):
        raise PolicyError(f"the slider's value {text!r} is not a number")
    return int(text)


async def use_slider(page, episode):
    wanted = int(after(episode.utterance, r"^Select (-?\d+) with the slider").group(1))
    async for act in set_slider(page, "#slider", "#val", wanted):
        yield act
    yield click(css("#subbtn"))


async def use_slider_2(page, episode):
    combination = json.loads(after(episode.utterance, r"combination (\[[^\]]*\])").group(1))
    for number, wanted in enumerate(combination, start=1):
        async for act in set_slider(page, f"#slider-{number}", f"#val-{number}", wanted):
            yield act
    yield click(css("#subbtn"))


async def form_sequence(page, episode):
    match = after(episode.utterance, r"^Select (-?\d+) with the slider, click the (\w+) checkbox")
    async for act in set_slider(page, "#slider", "#val", int(match.group(1))):
        yield act
    yield click(css(f"#checkbox-{ordinal(match.group(2)) + 1}"))
    yield click(css("#subbtn"))


POLICIES = {
    "use-slider": use_slider,
    "use-slider-2": use_slider_2,
    "form-sequence": form_sequence,
}
