"""What an oracle policy yields, and the helpers policies share.

A policy is an async generator ``policy(page, episode)`` over ``Act``s: it reads the episode's
utterance and fields and the live page (it is an oracle: any Playwright query is fair) and yields
the next action. The recorder captures the page, performs the act and resumes the generator only
while the episode is still running, so a policy can look at the page again between acts (guess
the number, close a popup, open a folder)::

    async def enter_text(page, episode):
        yield type_(css("#tt"), quoted(episode.utterance)[0])
        yield click(css("#subbtn"))

An act names its target as a JavaScript function expression returning the element (``css`` builds
the common ones); the recorder resolves it to a CDP backend node id.

Policies are restartable: run afresh on a page some other agent has half done, a policy yields
only acts the page does not already show (``restart.next_label``). Where a click's effect is
visible (a tab open, a folder expanded, an email open, a date chosen, results listed) the policy
checks the page before yielding it; typed text, a selected option and a checkbox's state are
checked for every policy by ``restart.effect_shown`` (a checkbox click says the state it wants
with ``check``).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pipeline.live.miniwob import Episode
from pipeline.tools.keys import normalize_key

Op = Literal["CLICK", "TYPE", "SELECT"]
OriginalOp = Literal["CLICK", "TYPE", "SELECT", "ENTER", "HOVER", "SCROLL", "DRAG", "CLEAR",
                     "PRESS", "SELECT_TEXT"]
Direction = Literal["up", "down", "left", "right"]
Policy = Callable[[Any, Episode], AsyncIterator["Act"]]

_QUOTED = re.compile(r'"([^"]*)"')
_NORM_JS = "const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();"


@dataclass(frozen=True, slots=True)
class Act:
    """One action: ``target`` is a JS function expression ``() => Element | null``; ``drop``
    the same for a drag's drop target. HOVER, SCROLL, DRAG, CLEAR and SELECT_TEXT are op CLICK
    in the Mind2Web record with ``value`` the direction, ``by:dx,dy`` or the passage (a drop
    target's value is written by the recorder, which knows its backend id)."""

    target: str
    op: Op = "CLICK"
    value: str = ""
    original_op: OriginalOp = "CLICK"  # ENTER: press Enter in the target (Mind2Web: op CLICK)
    checked: bool | None = None  # a click on a checkbox or radio: the state it is meant to leave
    drop: str = ""


def click(target: str) -> Act:
    return Act(target, "CLICK", "", "CLICK")


def check(target: str, on: bool = True) -> Act:
    """A click on a checkbox or radio button meant to leave it checked (``on``) or not."""
    return Act(target, "CLICK", "", "CLICK", checked=on)


def type_(target: str, text: str) -> Act:
    return Act(target, "TYPE", text, "TYPE")


def select(target: str, option: str) -> Act:
    return Act(target, "SELECT", option, "SELECT")


def enter(target: str) -> Act:
    """Press Enter in ``target`` (a text field): Mind2Web's ``original_op`` ENTER, op CLICK."""
    return Act(target, "CLICK", "", "ENTER")


def hover(target: str) -> Act:
    return Act(target, "CLICK", "", "HOVER")


def scroll(target: str, direction: Direction, to_end: bool = False) -> Act:
    """Scroll the scrollable box ``target`` (or the box around it) in ``direction``, by about
    its height or ``to_end``."""
    return Act(target, "CLICK", direction + (":end" if to_end else ""), "SCROLL")


def press(target: str, key: str) -> Act:
    """Press ``key`` where the focus is; ``target`` is the focused element (the step's
    element in the record)."""
    return Act(target, "CLICK", normalize_key(key), "PRESS")


def drag(target: str, onto: str | None = None, by: tuple[int, int] | None = None) -> Act:
    """Drag ``target`` onto the element ``onto`` (a JS target), or ``by`` (dx, dy) pixels."""
    if (onto is None) == (by is None):
        raise ValueError("drag needs exactly one of onto and by")
    if by is not None:
        return Act(target, "CLICK", f"by:{by[0]},{by[1]}", "DRAG")
    return Act(target, "CLICK", "", "DRAG", drop=onto)


def clear(target: str) -> Act:
    return Act(target, "CLICK", "", "CLEAR")


def select_text(target: str, passage: str) -> Act:
    """Select ``passage`` with the mouse; ``target`` is the smallest element holding it (the
    step's element in the record)."""
    return Act(target, "CLICK", passage, "SELECT_TEXT")


def css(selector: str, text: str | None = None, nth: int = 0) -> str:
    """The ``nth`` element matching ``selector`` (whose whitespace-collapsed text is ``text``)."""
    keep = "true" if text is None else f"norm(e.textContent) === {json.dumps(text)}"
    return (f"() => {{ {_NORM_JS} const found = Array.from(document.querySelectorAll("
            f"{json.dumps(selector)})).filter((e) => {keep}); return found[{nth}] || null; }}")


def quoted(utterance: str) -> list[str]:
    """The double-quoted strings of an utterance, in order."""
    return _QUOTED.findall(utterance)


def field(episode: Episode, name: str) -> str:
    """A field miniwob's extractor read from the utterance; names the task when it is missing."""
    fields = dict(episode.fields)
    if name not in fields:
        raise PolicyError(f"{episode.task}: no field {name!r} in {episode.utterance!r}")
    return fields[name]


def ordinal(word: str) -> int:
    """``"1st"`` -> 0, ``"12th"`` -> 11 (0-based)."""
    match = re.match(r"(\d+)(st|nd|rd|th)$", word)
    if match is None:
        raise PolicyError(f"{word!r} is not an ordinal like 3rd")
    return int(match.group(1)) - 1


def after(utterance: str, pattern: str) -> re.Match[str]:
    """``re.search(pattern, utterance)``, raising a PolicyError naming both when it fails."""
    match = re.search(pattern, utterance)
    if match is None:
        raise PolicyError(f"the utterance {utterance!r} does not match {pattern!r}")
    return match


async def text_of(page: Any, selector: str) -> str:
    """Whitespace-collapsed text of the first element matching ``selector`` ("" if none)."""
    return await page.evaluate(
        "(s) => { const e = document.querySelector(s); "
        "return e ? e.textContent.replace(/\\s+/g, ' ').trim() : ''; }", selector)


async def is_visible(page: Any, target: str) -> bool:
    """Whether the target element exists and has a box (not inside a closed panel)."""
    return await page.evaluate(
        f"() => {{ const e = ({target})(); if (!e) return false; const r = e.getBoundingClientRect();"
        " return r.width > 0 && r.height > 0 && e.checkVisibility(); }")


class PolicyError(Exception):
    """A policy could not read the episode or the page (the episode is counted as failed)."""
