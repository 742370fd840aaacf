"""Oracle policy for text-editor (a Quill editor): select everything (Control+A) or one word,
then press the editor's bold / italic / underline shortcut (Control+B, I, U) or pick the colour
from the toolbar, and submit.

The styles go by keyboard, not by the toolbar's buttons: BrowserGym writes a ``value`` attribute
("" for a button) on every element with a value property, and a Quill button with a ``value``
attribute reads as active when the format is absent and applies "no format" when clicked, so
there the buttons do nothing. Quill's shortcuts toggle the format of the selection itself. The
keys are those the planned step shows beside the editor (``pipeline.query.editor_keys``).

A word is selected with word jumps from the nearer end of the text: Control+Home (End), then
Control+arrows until the caret is in the space before (after) the word, then Control+Shift+arrows
until the selection covers it; the caret is read after each key, since Chromium also stops at
punctuation ("magna." is two jumps). The page ignores whitespace around the styled word, so the
space a jump takes along does no harm.

Restartable from any state (DAgger asks it where a student left the editor): the focusing click
only while the editor is not focused, the selection only while it is not the text to style, the
colour picker opened only while closed, nothing once the text shows the format (in the colour)."""

from __future__ import annotations

import colorsys
import json
import re

from datagen.miniwob.policies.base import PolicyError, after, click, css, press
from pipeline.query.editor_keys import SELECT_ALL, STYLE_KEYS

HUES = {"red": 0, "orange": 36, "yellow": 60, "green": 120, "blue": 210, "purple": 270}
_EDITOR = css("#editor .ql-editor")
SELECTION_SETTLE_MS = 250
MAX_JUMPS = 20  # word jumps to reach a word of a 3-5 word text; more means the keys do not move
# Where the selection's moving end (the caret) is, in characters of the editor's text.
_CARET_JS = """() => { const root = document.querySelector('#editor .ql-editor');
  const selection = getSelection(); if (!selection.rangeCount) return -1;
  const before = document.createRange(); before.setStart(root, 0);
  before.setEnd(selection.focusNode, selection.focusOffset); return before.toString().length; }"""


async def text_editor(page, episode):
    match = after(episode.utterance, r"^Using the text editor, (?:give|make) (?:the text (.+?)|"
                                     r"everything) the (style|color) (\w+)")
    word, kind, value = match.groups()
    swatch = None
    if kind == "color":
        swatches = await page.eval_on_selector_all(
            "#area .ql-color .ql-picker-item.ql-primary[data-value]",
            "(ss) => ss.map((s) => s.getAttribute('data-value'))")
        swatch = _closest(swatches, value)
    # restartable (DAgger asks from any state): nothing done twice that the page shows done
    selector = _FORMAT_SELECTORS[value] if kind == "style" else "[style*=color]"
    if not await page.evaluate(_FORMATTED_JS, {"word": word, "selector": selector,
                                               "colour": _rgb(swatch) if swatch else None}):
        if swatch is None or not await page.evaluate(_PICKER_OPEN_JS):
            async for act in _select(page, word):
                yield act
        async for act in _format(page, kind, value, swatch):
            yield act
    yield click(css("#subbtn"))


async def _select(page, word: str | None):
    """Focus the editor and select everything (``word`` None) or the word, unless done."""
    if not await page.evaluate(_FOCUSED_JS):
        yield click(_EDITOR)
    if await page.evaluate(_SELECTED_JS, word):
        return
    if word is None:
        yield press(_EDITOR, SELECT_ALL)  # the keys the planned step names
    else:
        async for act in _select_word(page, word):
            yield act


async def _format(page, kind: str, value: str, swatch: str | None):
    """The style's shortcut, or the colour picked from the toolbar (opened unless open)."""
    if kind == "style":
        yield press(_EDITOR, f"ControlOrMeta+{STYLE_KEYS[value]}")
        return
    if not await page.evaluate(_PICKER_OPEN_JS):
        # the editor takes the new selection from the browser's selectionchange event, which
        # arrives after the key press: a toolbar click before it would format an empty range
        await page.wait_for_timeout(SELECTION_SETTLE_MS)
        yield click(css("#area .ql-color .ql-picker-label"))
    yield click(css(f"#area .ql-color .ql-picker-item[data-value={json.dumps(swatch)}]"))


# Quill's tags for the styles; a colour is an inline style.
_FORMAT_SELECTORS = {"bold": "strong", "italics": "em", "underlined": "u"}
_FOCUSED_JS = "() => !!document.activeElement?.closest('#editor .ql-editor')"
_PICKER_OPEN_JS = "() => !!document.querySelector('#area .ql-color.ql-expanded')"
# The selection is everything (word null) or the word, give or take the spaces around it.
_SELECTED_JS = """(word) => { const root = document.querySelector('#editor .ql-editor');
  const shown = getSelection().toString().trim();
  return shown !== '' && shown === (word === null ? root.textContent.trim() : word); }"""
# Every text of the editor (word null), or the word, sits inside the format (in that colour).
_FORMATTED_JS = """({word, selector, colour}) => {
  const root = document.querySelector('#editor .ql-editor');
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT); const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim()) texts.push(n);
  const chosen = word === null ? texts : texts.filter((n) => n.textContent.trim() === word);
  const inside = (n) => { const e = n.parentElement.closest(selector);
    return !!e && root.contains(e) && (colour === null || getComputedStyle(e).color === colour); };
  return chosen.length > 0 && chosen.every(inside); }"""


async def _select_word(page, word: str):
    """Jump to the word from the end of the text with fewer jumps to make, then select it."""
    text = await page.evaluate("() => document.querySelector('#editor .ql-editor').textContent")
    found = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", text)
    if found is None:
        raise PolicyError(f"text-editor: no word {word!r} in {text!r}")
    start, end = found.span()
    if _jumps(text[:start]) <= _jumps(text[end:]):
        gap = len(text[:start].rstrip())  # the end of the word before
        keys = ("ControlOrMeta+Home", "Control+ArrowRight", "Control+Shift+ArrowRight")
        edge, in_gap, covered = 0, (lambda at: at >= gap), (lambda at: at >= end)
    else:
        gap = len(text) - len(text[end:].lstrip())  # the start of the word after
        keys = ("ControlOrMeta+End", "Control+ArrowLeft", "Control+Shift+ArrowLeft")
        edge, in_gap, covered = len(text), (lambda at: at <= gap), (lambda at: at <= start)
    if await page.evaluate(_CARET_JS) != edge:
        yield press(_EDITOR, keys[0])
    for key, reached in ((keys[1], in_gap), (keys[2], covered)):
        for _ in range(MAX_JUMPS):
            if reached(await page.evaluate(_CARET_JS)):
                break
            yield press(_EDITOR, key)
        else:
            raise PolicyError(f"text-editor: {key} did not reach {word!r} in {text!r}")


def _jumps(text: str) -> int:
    """How many word jumps cross ``text``: one per word and one per run of punctuation."""
    return len(re.findall(r"\w+|[^\w\s]+", text))


def _channels(swatch: str) -> tuple[int, ...]:
    """A swatch's "#e60000" as its red, green and blue: (230, 0, 0)."""
    return tuple(int(swatch[i:i + 2], 16) for i in (1, 3, 5))


def _rgb(swatch: str) -> str:
    """A swatch as computed styles write it: "rgb(230, 0, 0)"."""
    return f"rgb({', '.join(map(str, _channels(swatch)))})"


def _closest(swatches: list[str], colour: str) -> str:
    """The saturated swatch whose hue is nearest the named colour's."""
    if colour not in HUES or not swatches:
        raise PolicyError(f"text-editor: no swatch for the colour {colour!r}")

    def distance(value: str) -> float:
        r, g, b = (channel / 255 for channel in _channels(value))
        hue, _, saturation = colorsys.rgb_to_hls(r, g, b)
        gap = abs(hue * 360 - HUES[colour])
        return min(gap, 360 - gap) + (1000 if saturation < 0.3 else 0)

    return min(swatches, key=distance)


POLICIES = {
    "text-editor": text_editor,
}
