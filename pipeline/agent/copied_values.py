"""Values an action copies (a ``type`` text, a ``select`` option), re-decoded as copies when the
model's greedy value is none.

    source = copy_source(messages)              # the task, the page's listings, tool results
    value = uncopied_value(turn, source)        # ("type", "text", "terrel") or None
    prefix = value_prefix(generation.text, "type", "text")   # '<bu_type>{"index": 1, "text": "'

``ModelPolicy.next_turn`` (with ``GenerationSettings.copy_values``) decodes the answer again from
``prefix``, each id chosen by ``pipeline.model.copy_span.CopySpan``, and takes that call when its
value is a whole-word span of ``source`` and still spelt much like the value the model wrote
(``close_copy``): "terrel" becomes the most likely copy the model writes ("terry" of the task's
"Terry"), "11/20/20" "11/20/2013". A value that already is a span is never touched, so a task
that asks for a copy in another case gets the model's casing; nor is a number, which the model
may have worked out ("10" for 4 + 6); nor a value whose copy reads otherwise ("wPs", which the
page drew and no message shows, would have become "w").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz

from pipeline.agent.policy import Turn
from pipeline.model.copy_span import is_span
from pipeline.tools import ToolCall
from pipeline.tools.codec import dumps_arguments
from pipeline.tools.registry import spec

COPIED = {"type": "text", "select": "option"}  # each action's argument that copies a value
CLOSE = 60.0  # least rapidfuzz ratio (0-100, case aside) of a copy to the value it replaces
_NUMBER = re.compile(r"^\s*[+-]?\d+(?:[.,]\d+)?\s*$")


def copy_source(messages: Sequence[Mapping[str, Any]]) -> str:
    """The text a value may be copied from: every user and tool message of the conversation."""
    return "\n".join(str(m.get("content") or "") for m in messages
                     if m.get("role") in ("user", "tool"))


def uncopied_value(turn: Turn, source: str) -> tuple[str, str, str] | None:
    """``(action, argument, value)`` of the turn's first call whose copied argument is a
    non-empty string, no number, that is no whole-word span of ``source``; None when there is
    none."""
    for call in turn.calls:
        if not isinstance(call, ToolCall) or call.name not in COPIED:
            continue
        value = call.arguments.get(COPIED[call.name])
        if isinstance(value, str) and value.strip() and not _NUMBER.match(value) \
                and not is_span(value, source):
            return call.name, COPIED[call.name], value
    return None


def close_copy(written: str, copy: str) -> bool:
    """Whether ``copy`` is spelt much like the value the model ``written`` (case aside): a
    garbled copy of it, not another value."""
    return fuzz.ratio(written.lower(), copy.lower()) >= CLOSE


def value_prefix(text: str, action: str, argument: str) -> str | None:
    """``text`` up to and including the opening quote of ``argument``'s value (the canonical
    ``"text": "`` of the codec) in the first call of ``action``, written with its functional
    token or as JSON naming it; None when the answer wrote it another way."""
    call = text.find(spec(action).token)
    if call < 0:
        call = text.find(f'"{action}"')
    if call < 0:
        return None
    opening = dumps_arguments({argument: ""})[1:-2]  # '"text": "'
    start = text.find(opening, call)
    return None if start < 0 else text[:start + len(opening)]
