"""Oracle policy for text-editor (a Quill editor): select everything (Control+A) or one word
(the caret walked to it with the arrow keys, then Shift+arrows over it), then press the toolbar's
bold / italic / underline button or pick the colour, and submit."""

from __future__ import annotations

import colorsys
import json
import re

from datagen.miniwob.policies.base import PolicyError, after, click, css, press

STYLE_BUTTONS = {"bold": "bold", "italics": "italic", "underlined": "underline"}
HUES = {"red": 0, "orange": 36, "yellow": 60, "green": 120, "blue": 210, "purple": 270}
_EDITOR = css("#editor .ql-editor")
SELECTION_SETTLE_MS = 250


async def text_editor(page, episode):
    match = after(episode.utterance, r"^Using the text editor, (?:give|make) (?:the text (.+?)|"
                                     r"everything) the (style|color) (\w+)")
    word, kind, value = match.groups()
    yield click(_EDITOR)
    if word is None:
        yield press(_EDITOR, "ControlOrMeta+a")
    else:
        async for act in _select_word(page, word):
            yield act
    # the editor takes the new selection from the browser's selectionchange event, which
    # arrives after the key press: a toolbar click before it would format an empty range
    await page.wait_for_timeout(SELECTION_SETTLE_MS)
    if kind == "style":
        yield click(css(f"#area .ql-toolbar button.ql-{STYLE_BUTTONS[value]}"))
    else:
        yield click(css("#area .ql-color .ql-picker-label"))
        swatches = await page.eval_on_selector_all(
            "#area .ql-color .ql-picker-item.ql-primary[data-value]",
            "(ss) => ss.map((s) => s.getAttribute('data-value'))")
        yield click(css(f"#area .ql-color .ql-picker-item[data-value="
                        f"{json.dumps(_closest(swatches, value))}]"))
    yield click(css("#subbtn"))


async def _select_word(page, word: str):
    """Caret to the start of the text, right to the word, Shift+right over it."""
    text = await page.evaluate("() => document.querySelector('#editor .ql-editor').innerText")
    found = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", text)
    if found is None:
        raise PolicyError(f"text-editor: no word {word!r} in {text!r}")
    yield press(_EDITOR, "ControlOrMeta+Home")
    for _ in range(found.start()):
        yield press(_EDITOR, "ArrowRight")
    for _ in range(len(word)):
        yield press(_EDITOR, "Shift+ArrowRight")


def _closest(swatches: list[str], colour: str) -> str:
    """The saturated swatch whose hue is nearest the named colour's."""
    if colour not in HUES or not swatches:
        raise PolicyError(f"text-editor: no swatch for the colour {colour!r}")

    def distance(value: str) -> float:
        r, g, b = (int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
        hue, _, saturation = colorsys.rgb_to_hls(r, g, b)
        gap = abs(hue * 360 - HUES[colour])
        return min(gap, 360 - gap) + (1000 if saturation < 0.3 else 0)

    return min(swatches, key=distance)


POLICIES = {
    "text-editor": text_editor,
}
