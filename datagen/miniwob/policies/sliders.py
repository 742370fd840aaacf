"""Oracle policies for the jQuery UI slider tasks: select the wanted number on the slider (the
element the page names, ``#slider-2``, which holds one handle; a handle says nothing that tells
one slider's from another's). The executor sets it with the handle's keys, reading the value
after each (``pipeline.live.sliders``), as a keyboard user does; the number comes from the task,
so a student copies it, where the pixels of a drag along a track of unknown range it could not
know."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import Act, after, check, click, css, ordinal, select


def set_slider(slider: str, wanted: int) -> Act:
    """The act that sets the slider ``slider`` (a CSS selector of the element around its one
    handle) to ``wanted``."""
    return select(css(slider), str(wanted))


async def use_slider(page, episode):
    wanted = int(after(episode.utterance, r"^Select (-?\d+) with the slider").group(1))
    yield set_slider("#slider", wanted)
    yield click(css("#subbtn"))


async def use_slider_2(page, episode):
    combination = json.loads(after(episode.utterance, r"combination (\[[^\]]*\])").group(1))
    for number, wanted in enumerate(combination, start=1):
        yield set_slider(f"#slider-{number}", wanted)
    yield click(css("#subbtn"))


async def form_sequence(page, episode):
    match = after(episode.utterance, r"^Select (-?\d+) with the slider, click the (\w+) checkbox")
    yield set_slider("#slider", int(match.group(1)))
    yield check(css(f"#checkbox-{ordinal(match.group(2)) + 1}"))
    yield click(css("#subbtn"))


POLICIES = {
    "use-slider": use_slider,
    "use-slider-2": use_slider_2,
    "form-sequence": form_sequence,
}
