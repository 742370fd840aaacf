"""Oracle policies for the jQuery UI slider tasks. A slider shows its value beside it but not its
range, so the policy reads the range the way a person finds it: focus the handle, press Home and
End and read the value shown. Then it drags the handle to the wanted value's place and corrects
the last steps with the arrow keys (each moves one step), reading the value after each act."""

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


async def set_slider(page, slider: str, shown: str, wanted: int):
    """The acts that set the slider ``slider`` (a CSS selector) to ``wanted``; its value shows
    in the element ``shown``."""
    handle = css(f"{slider} .ui-slider-handle")
    yield click(handle)
    yield press(handle, "Home")
    low = await _value(page, shown)
    yield press(handle, "End")
    high = await _value(page, shown)
    if not low <= wanted <= high:
        raise PolicyError(f"{wanted} is outside the slider's range {low}..{high}")
    if wanted != high:
        box = await page.evaluate(
            f"() => {{ const r = document.querySelector({json.dumps(slider)})"
            ".getBoundingClientRect(); return [r.width, r.height]; }")
        vertical = await page.evaluate(
            f"() => document.querySelector({json.dumps(slider)}).classList"
            ".contains('ui-slider-vertical')")
        share = (high - wanted) / (high - low)
        by = (0, round(share * box[1])) if vertical else (-round(share * box[0]), 0)
        yield drag(handle, by=by)
    for _ in range(MAX_ARROWS):
        now = await _value(page, shown)
        if now == wanted:
            return
        yield press(handle, "ArrowRight" if now < wanted else "ArrowLeft")
    raise PolicyError(f"the slider did not reach {wanted} (shows {await _value(page, shown)})")


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
