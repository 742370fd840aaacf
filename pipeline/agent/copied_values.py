"""Values an action copies (a ``type`` text, a ``select`` option), re-decoded as copies when the
model's greedy value is none.

    source = copy_source(messages)              # the task, the page's listings, tool results
    value = uncopied_value(turn, source)        # ("type", "text", "terrel") or None
    prefix = value_prefix(generation.text, "type", "text")   # '<bu_type>{"index": 1, "text": "'
    turn = cased(turn, source, asked_case(task), position)  # "morbi" as the source's "Morbi"

``ModelPolicy.next_turn`` (with ``GenerationSettings.copy_values``) decodes the answer again from
``prefix``, each id chosen by ``pipeline.model.copy_span.CopySpan``, and takes that call when its
value is a whole-word span of ``source`` and still spelt much like the value the model wrote
(``close_copy``): "terrel" becomes the most likely copy the model writes ("terry" of the task's
"Terry"), "11/20/20" "11/20/2013". A value that already is a span is never touched, so a task
that asks for a copy in another case gets the model's casing; nor is a number, which the model
may have worked out ("10" for 4 + 6); nor a value whose copy reads otherwise ("wPs", which the
page drew and no message shows, would have become "w").

Then the value's letter case (``cased``): a task that asks for one ("in all lower case letters",
"in capital letters") gets its typed text in it; otherwise a value the conversation holds only in
another case is written as the conversation writes it -- the model's "morbi" for the paragraph's
"Morbi". In the recipe's training data a typed value differs in case from its source only where
the task asks for a case (and in text-transform, which copies nothing).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz

from pipeline.agent.policy import Turn, turn_from_calls
from pipeline.model.copy_span import is_copy, span_as_written
from pipeline.tools import ToolCall
from pipeline.tools.codec import dumps_arguments
from pipeline.tools.registry import spec

COPIED = {"type": "text", "select": "option"}  # each action's argument that copies a value
CLOSE = 60.0  # least rapidfuzz ratio (0-100, case aside) of a copy to the value it replaces
_NUMBER = re.compile(r"^\s*[+-]?\d+(?:[.,]\d+)?\s*$")
_CASE = re.compile(r"\b(lower|upper)[\s-]?case\b|\b(capital|small)\s+letters\b", re.IGNORECASE)
_CASES = {"lower": "lower", "upper": "upper", "capital": "upper", "small": "lower"}


def copy_source(messages: Sequence[Mapping[str, Any]],
                roles: tuple[str, ...] = ("user", "tool")) -> str:
    """The text a value may be copied from: every message of the conversation in ``roles``
    (the user and tool messages)."""
    return "\n".join(str(m.get("content") or "") for m in messages if m.get("role") in roles)


def uncopied_value(turn: Turn, source: str) -> tuple[str, str, str] | None:
    """``(action, argument, value)`` of the turn's first call whose copied argument is a
    non-empty string, no number, that copies nothing of ``source`` (``is_copy``: no whole-word
    span, nor the letters of a text drawn letter by letter); None when there is none."""
    for call in turn.calls:
        if not isinstance(call, ToolCall) or call.name not in COPIED:
            continue
        value = call.arguments.get(COPIED[call.name])
        if isinstance(value, str) and value.strip() and not _NUMBER.match(value) \
                and not is_copy(value, source):
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


def asked_case(task: str) -> str | None:
    """``"lower"`` or ``"upper"`` when the task asks for a text in that letter case ("in all
    lower case letters", "in uppercase", "in capital letters"); None when it asks for none."""
    found = _CASE.search(task)
    return None if found is None else _CASES[(found.group(1) or found.group(2)).lower()]


def cased(turn: Turn, source: str, case: str | None, position: int = 0) -> Turn:
    """The turn with its first copied value in the letter case ``case`` asks for (a ``type``
    text), or else as ``source`` writes it when it holds the value only in another case; the
    turn itself when neither changes it (``meta["cased"]``: the value replaced). ``position``
    is the number of calls earlier in the conversation, as ``turn_from_text`` takes it."""
    if not all(isinstance(call, ToolCall) for call in turn.calls):
        return turn  # a reply the loop refuses anyway
    for number, call in enumerate(turn.calls):
        if call.name not in COPIED:
            continue
        value = call.arguments.get(COPIED[call.name])
        if not isinstance(value, str):
            return turn
        if case is not None and call.name == "type":
            written = value.lower() if case == "lower" else value.upper()
        else:
            written = value if value in source else span_as_written(value, source) or value
        if written == value:
            return turn
        calls = list(turn.calls)
        calls[number] = ToolCall(call.name, {**call.arguments, COPIED[call.name]: written})
        rebuilt = turn_from_calls(calls, turn.rationale, position)
        rebuilt.meta.update(turn.meta, cased=value)
        return rebuilt
    return turn
