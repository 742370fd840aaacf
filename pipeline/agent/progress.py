"""What the last action did to the page: one short line in the next step's user turn.

    line = effect_line(PreviousStep(page_before, make_call("type", index=1, text="kenda")), page)
    # 'Last action\'s effect: [1] Username now holds "kenda"; nothing else changed.'
    # 'Last action\'s effect: that click changed nothing on the page.'
    # 'Last action\'s effect: 2 new: [4]<button>OK</button>, Saved!; 1 gone.'
    # 'Last action\'s effect: [9] Remember me changed: <input type=checkbox checked=true />; ...'
    # 'Last action\'s effect: "Lorem ipsum dolor" is selected; nothing else changed.'
    # 'Last action\'s effect: [1] moved 30 px down; nothing else changed.'

The live loop (``pipeline.agent.loop.play_episode``) and datagen (a recorded step and the step
before it, ``datagen.build``) both write it with this function, from the page the action was taken
on and the page after it, so the model reads the same line in training and in use.

Two pages are compared by their flat rendering without refs (every element with its shown
attributes -- a field's ``value`` or ``empty`` -- and every text line) plus URL and title: the
same lines mean the action changed nothing, which the line says plainly so that a model does not
repeat it. Text lines (not elements) that tell the time are compared with their digits masked: a
clock or countdown ticks between two live steps (MiniWoB++'s "Time left: 57 / 60sec") but not
between two recorded ones taken a moment apart, and its ticking is no effect of the action. Any
other number is content: a new draw of generate-number's "9" -> "3" is what the click did. A
text cursor drawn as a block glyph ("user$ █", a terminal's) blinks on its own and is left out
of every compared line.

The element acted on (found again by its backend node id) is reported first: a text field's new
state as its value (a redacted one as "filled"), any other element's new line when it changed (a
box now checked; an element typed into that holds no value of its own, a terminal whose keys go
to a hidden field, by its line too -- with the end of a typing surface's text, where what was
typed shows). Then what else is new, with current refs: at most ``MAX_LISTED`` lines, each
cut to ``LISTED_CHARS``, so the line stays short on any page. A text selection shows in no
capture: after ``select_text`` (accepted only once the page reported the passage selected) the
line says it is selected, then what else changed. A drag says first how far and which way the
element it took hold of moved (its box's centre), which no rendered line shows: a shape dragged
the wrong way reads "moved 30 px up" against the task's "down"; a drag that moved it changed
the page.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pipeline.agent.history import element_label
from pipeline.distill.markup import typing_surface
from pipeline.distill.model import DistilledPage
from pipeline.live.selection import quote
from pipeline.query.summary import field_state
from pipeline.render.elements import text_end, trim_text
from pipeline.render.options import RenderOptions
from pipeline.render.walk import format_item, walk
from pipeline.tools import ToolCall

MAX_LISTED = 3  # new lines quoted at most
LISTED_CHARS = 60  # each cut to this
VALUE_CHARS = 40  # a field's value quoted up to this
MOVED_PX = 5  # a dragged element's centre moving less than this on an axis stayed there
HEAD = "Last action's effect: "
_REF = re.compile(r"^\*?\[\d+\]")
_DIGITS = re.compile(r"\d+")
# A text that tells the time: "Time left: 57 / 60sec", "12:04", "3 min ago", "2 hours remaining".
_CLOCK = re.compile(r"(?i)time|sec|min|hour|left|remaining|ago|elapsed|\d:\d\d")
# A text cursor drawn as a glyph that blinks ("user$ █"), with the space before it: Unicode's
# block elements.
_CARET = re.compile(r"\s*[\u2580-\u259f]")
_KEY = "progress_lines"
_VERB = {"click": "click", "type": "typing", "select": "selection", "press": "key press",
         "scroll": "scroll", "hover": "hover", "drag": "drag", "clear": "clearing"}


@dataclass(frozen=True, slots=True)
class PreviousStep:
    """The step before: the page it saw, and the action it took there (None: it took none).
    ``futile`` is an action known to have changed nothing on this page, which still shows the
    same (the live loop carries it until the page changes, ``StepLimits.refuse_futile_repeats``):
    the ``planned`` mode leaves its element out of the candidates."""

    page: DistilledPage
    action: ToolCall | None = None
    futile: ToolCall | None = None


def effect_line(previous: PreviousStep | None, page: DistilledPage) -> str:
    """The line on what ``previous.action`` changed between ``previous.page`` and ``page``;
    "" when there was no previous step, it took no action, or the action was ``done``."""
    action = previous.action if previous is not None else None
    if previous is None or action is None or action.name == "done":
        return ""
    before, after = previous.page, page
    if (before.state.url, before.state.title) != (after.state.url, after.state.title):
        title = trim_text(after.state.title or after.state.url, LISTED_CHARS)
        return f'{HEAD}a new page loaded: "{title}".'
    if action.name == "select_text":  # no capture shows a selection: the action's own word
        changes = _changes(_lines(before), _lines(after))
        return f"{HEAD}{quote(action.arguments['text'])} is selected; {changes}."
    moved = _moved(action, before, after)
    if not moved and _same_lines(before, after):
        return f"{HEAD}that {_VERB[action.name]} changed nothing on the page."
    lines_before, lines_after = _lines(before), _lines(after)
    parts = [moved] if moved else []
    target = _target_after(action, before, after)
    if target is not None:  # the element acted on first, then the rest of the page
        was, now = _own_line(lines_before, action.arguments["index"]), _own_line(lines_after, target)
        shown = after.refs[target].attrs
        if action.name in ("type", "clear") and ("value" in shown or "empty" in shown):
            parts.append(_field_state(after, target, action.name))
        elif was != now:
            label = f"[{target}] {element_label(after, target)}".rstrip()
            parts.append(f"{label} changed: {_cut_line(now, typing_surface(shown))}")
        lines_before = [line for line in lines_before if line[2] != action.arguments["index"]]
        lines_after = [line for line in lines_after if line[2] != target]
    parts.append(_changes(lines_before, lines_after))
    return HEAD + "; ".join(parts) + "."


def changed_nothing(previous: PreviousStep, page: DistilledPage) -> bool:
    """Whether ``page`` shows what ``previous.page`` showed (same URL, title and lines)."""
    before = previous.page
    if (before.state.url, before.state.title) != (page.state.url, page.state.title):
        return False
    if previous.action is not None and _moved(previous.action, before, page):
        return False
    return _same_lines(before, page)


def _same_lines(before: DistilledPage, after: DistilledPage) -> bool:
    return Counter(b for _, b, _ in _lines(before)) == Counter(b for _, b, _ in _lines(after))


def _lines(page: DistilledPage) -> list[tuple[str, str, int | None]]:
    """Every item of the flat rendering (whole page, no indent): (as rendered, as compared: an
    element without its ref, a clock's text with its digits masked, neither with a blinking
    block cursor; the element's ref). Kept on the page (``derived``): a page is compared
    twice, after one action and before the next."""
    if _KEY not in page.derived:
        page.derived[_KEY] = _render_lines(page)
    return page.derived[_KEY]


def _render_lines(page: DistilledPage) -> list[tuple[str, str, int | None]]:
    limit = RenderOptions().element_text
    out = []
    for item in walk(page.root):
        full = format_item(item, page.state, set(), limit, None)
        compared = _CARET.sub("", full)
        if item.kind == "element":
            out.append((full, _REF.sub("", compared), item.node.ref))
        else:
            masked = _DIGITS.sub("0", compared) if _CLOCK.search(compared) else compared
            out.append((full, masked, None))
    return out


def _cut_line(line: str, ends_last: bool) -> str:
    """An element's line cut to ``LISTED_CHARS``: its start (``trim_text``), or for a typing
    surface its opening tag and the end of its text, where its latest command and output are."""
    head = line.find(">") + 1
    if not ends_last or len(line) <= LISTED_CHARS or not 0 < head < LISTED_CHARS // 2:
        return trim_text(line, LISTED_CHARS)
    return line[:head] + text_end(line[head:], LISTED_CHARS - head)


def _own_line(lines: list[tuple[str, str, int | None]], ref: int) -> str:
    return next((bare for _, bare, at in lines if at == ref), "")


def _changes(lines_before: list[tuple[str, str, int | None]],
             lines_after: list[tuple[str, str, int | None]]) -> str:
    """``2 new: [4]<button>OK</button>, Saved!; 1 gone`` (new lines with their current refs)."""
    before = Counter(bare for _, bare, _ in lines_before)
    added = Counter(bare for _, bare, _ in lines_after) - before
    gone = sum((before - Counter(bare for _, bare, _ in lines_after)).values())
    if not added and not gone:
        return "nothing else changed"
    shown: list[str] = []
    remaining = Counter(added)
    for full, bare, _ in lines_after:
        if remaining[bare] > 0 and len(shown) < MAX_LISTED:
            remaining[bare] -= 1
            shown.append(trim_text(full, LISTED_CHARS))
    count = sum(added.values())
    out = []
    if count:
        more = f", and {count - len(shown)} more" if count > len(shown) else ""
        out.append(f"{count} new: " + ", ".join(shown) + more)
    if gone:
        out.append(f"{gone} gone")
    return "; ".join(out)


def _target_after(action: ToolCall, before: DistilledPage, after: DistilledPage) -> int | None:
    """The ref on ``after`` of the element ``action`` acted on (found by its backend id)."""
    index = action.arguments.get("index")
    return after.ref_of(before.backend_id(index) if index in before.refs else None)


def _moved(action: ToolCall, before: DistilledPage, after: DistilledPage) -> str:
    """How a drag moved the element it took hold of: ``[1] moved 30 px down`` (its box's centre;
    a resize handle moves as the box it resizes grows). An axis counts when it moved
    ``MOVED_PX`` or more and a quarter of the other axis's move at least (the mouse's few pixels
    of wobble across a straight drag are no move); "" for any other action, or when it stayed."""
    if action.name != "drag":
        return ""
    target = _target_after(action, before, after)
    if target is None:
        return ""
    was = before.state.nodes[before.refs[action.arguments["index"]].node_id].bounds
    now = after.state.nodes[after.refs[target].node_id].bounds
    if was is None or now is None:
        return ""
    deltas = [(now[axis] + now[axis + 2] / 2) - (was[axis] + was[axis + 2] / 2) for axis in (0, 1)]
    largest = max(abs(delta) for delta in deltas)
    steps = [f"{round(abs(delta))} px {forth if delta > 0 else back}"
             for delta, (back, forth) in zip(deltas, (("left", "right"), ("up", "down")))
             if abs(delta) >= max(MOVED_PX, largest / 4)]
    return f"[{target}] moved " + " and ".join(steps) if steps else ""


def _field_state(page: DistilledPage, ref: int, tool: str) -> str:
    """``[1] Username now holds "kenda"`` / ``is filled (hidden)`` (a redacted value) / ``is
    still empty`` after typing / ``is now empty`` after ``clear``."""
    name = f"[{ref}] {element_label(page, ref)}".rstrip()
    state = field_state(page.refs[ref].attrs.get("value"), VALUE_CHARS)
    if state == "empty":
        return f"{name} is {'now' if tool == 'clear' else 'still'} empty"
    if state == "filled":
        return f"{name} is filled (hidden)"
    return f"{name} now {state}"
