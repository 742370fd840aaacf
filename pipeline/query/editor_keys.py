"""The key a rich-text editor takes next when the task styles its text, or the colour picker's
part to click when it colours it.

    editor_keys(index, "Using the text editor, give everything the style bold ...",
                ["[div]  Eros sodales. -> CLICK"])
        -> (5, "ControlOrMeta+a", "select everything")
    editor_colour(index, "... make everything the color green ...", [..., "... -> PRESS"])
        -> 1   # the picker's label, which opens the hidden swatches

A task that styles an editor's text ("make everything bold", "give the text magna the style
underlined") is done with keys: select the text, then press the style's shortcut. Those keys
are the standard of rich-text editors (Quill, Google Docs, Word: Control+A selects everything,
Control+B, I, U toggle bold, italics and underline), and nothing on the page names them; a
small model that has focused the editor then invents a key ("Control+R" for red) or clicks the
editor again. Once the history clicked into the page's editable element (a ``contenteditable``),
``editor_keys`` names the key due: Control+A until it was pressed for "everything", then the
style's shortcut once something is selected (Control+A, or a word selected with
Control+Shift+arrows) and until it was pressed. The ``planned`` step lists the editor first
with the key beside it (``pipeline.agent.observe.step_candidates``); MiniWoB++'s oracle presses
the same keys (``datagen.miniwob.policies.editor``).

A colour has no shortcut: once the text is selected, a toolbar's picker gives it (Quill's
``ql-color``), its swatches hidden until its label is clicked and named only by their paint
(``pipeline.distill.colours``: a swatch shows ``color=green``). ``editor_colour`` names the
part due: what opens the picker that hides a swatch of the task's colour
(``hidden.hidden_openers``), then, once open, that swatch; the ``planned`` step lists it first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.query.filters import editable
from pipeline.query.hidden import hidden_openers
from pipeline.query.index import PageIndex
from pipeline.query.scoring import make_query
from pipeline.query.text import HISTORY_LINE

SELECT_ALL = "ControlOrMeta+a"
STYLE_KEYS = {"bold": "b", "italics": "i", "italic": "i", "underlined": "u", "underline": "u"}
# "give everything the style bold", "make the text magna underlined", "make all the text italic"
_STYLED = re.compile(r"\b(?:give|make|set)\s+(everything|all(?:\s+the)?\s+text|the\s+text\s+.+?)"
                     r"\s+(?:the\s+(?:style|color|colour)\s+)?(\w+)\b", re.IGNORECASE)
_MODIFIER = r"^(?:ControlOrMeta|Control|Meta)\+"  # as the oracle writes it, or either key
_SELECTED_ALL = re.compile(_MODIFIER + "a$", re.IGNORECASE)
_SELECTING = re.compile(_MODIFIER + r"(?:a|Shift\+Arrow\w+)$", re.IGNORECASE)


PICKS = 2  # clicks a colour takes after the selection: the picker's label, then the swatch


def editor_colour(index: PageIndex, task: str, history: Sequence[str]) -> int | None:
    """The ref to click next for a colour the task gives the editor's text: the first shown
    swatch of that colour (an open picker), else what opens a picker whose hidden swatch has
    it; None before the text is selected, once ``PICKS`` clicks followed the selection, or when
    the task names no colour or the page has no such swatch."""
    styled = _STYLED.search(task)
    if styled is None or styled.group(2).lower() in STYLE_KEYS:
        return None
    read = _read(history)
    selecting = [i for i, line_read in enumerate(read) if line_read["op"] == "PRESS"
                 and _SELECTING.match(line_read["name"].strip())]
    if not selecting or sum(line_read["op"] == "CLICK" for line_read in read[selecting[-1]:]) \
            >= PICKS:
        return None
    colour = styled.group(2).lower()
    swatch = next((ref for ref, entry in index.entries.items()
                   if colour in entry.dnode.attrs.get("color", "").split()), None)
    if swatch is not None:
        return swatch
    openers = hidden_openers(index, [make_query(colour)])
    return max(openers, key=openers.get, default=None)


def editor_keys(index: PageIndex, task: str,
                history: Sequence[str]) -> tuple[int, str, str] | None:
    """(the editor's ref, the key to press, what it does) or None: the task styles no text, the
    page has no editable element, the history has not clicked into it, or no key is due (a
    colour is picked from the toolbar, not by key)."""
    styled = _STYLED.search(task)
    if styled is None:
        return None
    editor = next((ref for ref, entry in index.entries.items() if editable(entry)), None)
    read = _read(history)
    if editor is None or not any(line_read["op"] == "CLICK" for line_read in read):
        return None
    pressed = [line_read["name"].strip() for line_read in read if line_read["op"] == "PRESS"]
    everything = not styled.group(1).lower().startswith("the text")
    if everything and not any(_SELECTED_ALL.match(key) for key in pressed):
        return editor, SELECT_ALL, "select everything"
    style = STYLE_KEYS.get(styled.group(2).lower())
    if style is None or not any(_SELECTING.match(key) for key in pressed):
        return None
    if any(re.match(_MODIFIER + style + "$", key, re.IGNORECASE) for key in pressed):
        return None
    return editor, f"ControlOrMeta+{style}", styled.group(2).lower()


def _read(history: Sequence[str]) -> list[re.Match]:
    """The history lines as ``HISTORY_LINE`` reads them (op, name), the unreadable left out."""
    return [line_read for line in history if (line_read := HISTORY_LINE.match(line))]
