"""The key a rich-text editor takes next (pipeline/query/editor_keys.py), beside the editor
that leads the planned step's candidates."""

from __future__ import annotations

from query_helpers import html_page

from pipeline.agent.observe import step_candidates
from pipeline.query import index_for
from pipeline.query.editor_keys import editor_colour, editor_keys

EDITOR = """<div id="query">Using the text editor, give everything the style bold and press
Submit.</div><div id="toolbar"><button class="ql-bold"></button><button class="ql-italic">
</button></div><div id="editor"><div class="ql-editor" contenteditable="true">
<p>Eros sodales. Odio.</p></div></div><button id="subbtn">Submit</button>"""
EVERYTHING = "Using the text editor, give everything the style bold and press Submit."
WORD = "Using the text editor, give the text Odio. the style underlined and press Submit."
CLICKED = "[div]  Eros sodales. Odio. -> CLICK"


def test_select_everything_then_the_styles_shortcut_once_the_editor_was_clicked():
    index = index_for(html_page(EDITOR))
    editor = next(ref for ref, entry in index.entries.items()
                  if "contenteditable" in entry.node.attributes)
    assert editor_keys(index, EVERYTHING, []) is None  # the editor takes the keys once focused
    assert editor_keys(index, EVERYTHING, [CLICKED]) == (editor, "ControlOrMeta+a",
                                                        "select everything")
    selected = [CLICKED, "[key]  ControlOrMeta+a -> PRESS"]
    assert editor_keys(index, EVERYTHING, selected) == (editor, "ControlOrMeta+b", "bold")
    assert editor_keys(index, EVERYTHING, [*selected, "[key]  ControlOrMeta+b -> PRESS"]) is None
    by_hand = [CLICKED, "[key]  Control+A -> PRESS", "[key]  Control+B -> PRESS"]
    assert editor_keys(index, EVERYTHING, by_hand) is None  # either key, either case, counts
    assert editor_keys(index, WORD, [CLICKED]) is None  # a word: nothing selected yet
    word = [CLICKED, "[key]  ControlOrMeta+End -> PRESS",
            "[key]  Control+Shift+ArrowLeft -> PRESS"]
    assert editor_keys(index, WORD, word) == (editor, "ControlOrMeta+u", "underlined")
    colour = "Using the text editor, make everything the color red and press Submit."
    assert editor_keys(index, colour, selected) is None  # a colour comes from the toolbar
    assert editor_keys(index, "Click the Submit button.", [CLICKED]) is None


def test_the_editor_leads_the_planned_step_with_the_key_beside_it():
    page = html_page(EDITOR)
    lines = step_candidates(EVERYTHING, [CLICKED], page).splitlines()[1:]
    assert lines[0].endswith(" — press ControlOrMeta+a: select everything"), lines
    assert "contenteditable" not in lines[1] and "press" not in " ".join(lines[1:]), lines


PICKER = """<div id="query">Using the text editor, make everything the color green and press
Submit.</div><div id="toolbar"><button class="ql-bold"></button><span class="ql-color ql-picker">
<span class="ql-picker-label" tabindex="0"></span><span class="ql-picker-options"{shut}>
<span class="ql-picker-item" tabindex="0" style="background-color: rgb(230, 0, 0)"></span>
<span class="ql-picker-item" tabindex="0" style="background-color: rgb(0, 138, 0)"></span>
</span></span></div><div id="editor"><div class="ql-editor" contenteditable="true">
<p>Eros sodales. Odio.</p></div></div><button id="subbtn">Submit</button>"""
GREEN = "Using the text editor, make everything the color green and press Submit."


def test_a_colour_opens_the_picker_then_takes_its_swatch_once_the_text_is_selected():
    # Quill's colour picker (MiniWoB++ text-editor): the swatches hide until the label is
    # clicked, and only their paint names them
    closed = index_for(html_page(PICKER.format(shut=' style="display:none"')))
    label = next(ref for ref, entry in closed.entries.items()
                 if entry.node.attributes.get("class") == "ql-picker-label")
    selected = [CLICKED, "[key]  ControlOrMeta+a -> PRESS"]
    assert editor_colour(closed, GREEN, [CLICKED]) is None  # nothing selected yet
    assert editor_colour(closed, GREEN, selected) == label
    lines = step_candidates(GREEN, selected, html_page(PICKER.format(shut=' style="display:none"')))
    assert lines.splitlines()[1].startswith(f"[{label}]<span class=ql-picker-label"), lines
    shown = index_for(html_page(PICKER.format(shut="")))
    opened = [*selected, "[span]   -> CLICK"]
    green = next(ref for ref, entry in shown.entries.items()
                 if entry.dnode.attrs.get("color") == "green")
    assert editor_colour(shown, GREEN, opened) == green
    assert editor_colour(shown, GREEN, [*opened, "[span]   -> CLICK"]) is None  # picked
    assert editor_colour(closed, EVERYTHING, selected) is None  # a style: a key, no picker
