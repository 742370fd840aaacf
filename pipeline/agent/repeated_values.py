"""A typed value that another text field of the form already holds, decoded again as another copy.

    repeated = repeated_value(turn, page, task)   # ("thriller", "Genre") or None
    source = without_value(values_source(task, messages), "thriller")   # the copies left

A form takes each value of its task once. The 135M student, filling "Search for thriller movies
directed by Terry from year 1987." field by field, typed "thriller" into Genre and then into
Director too; so it typed one city into book-flight's From and To, and one cell of the table
into read-table-2's First name and Country (9 of the 64 failed validation episodes of the s51
recipe's student repeated a value so). ``repeated_value`` finds such a ``type`` call: its field
is a text field, another text field of the page holds the same value (case aside; a password's
value is hidden and never compared), the task does not name the value twice, and neither field's
name holds all the words of the other's -- a field that confirms another is named after it
("Password", "Verify password"), and a value typed into both is what the form asks for.
``ModelPolicy.next_turn`` (with ``GenerationSettings.distinct_values``) then decodes the value
again from its opening quote as a copy (``pipeline.model.copy_span.CopySpan``) of the task and
the tools' results (``values_source``; the whole conversation offered the step's own scaffolding,
and the model wrote "actions" of "Previous actions" for "action") with the repeated value's
occurrences taken out (``without_value``): the model's most likely other copy.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pipeline.agent.copied_values import copy_source
from pipeline.agent.policy import Turn
from pipeline.distill.attributes import REDACTED
from pipeline.distill.model import DistilledPage
from pipeline.query.index import Entry, index_for
from pipeline.query.text import STOP_WORDS, words
from pipeline.render.elements import element_kind
from pipeline.tools import ToolCall


def repeated_value(turn: Turn, page: DistilledPage | None, task: str) -> tuple[str, str] | None:
    """``(value, name of the field that holds it)`` when the turn's ``type`` call writes into a
    text field a value another text field already holds, the task names it once at most and
    neither field confirms the other (module doc); None otherwise, or without a page."""
    call = turn.call
    if page is None or not isinstance(call, ToolCall) or call.name != "type":
        return None
    value, target = call.arguments.get("text"), call.arguments.get("index")
    if not isinstance(value, str) or not value.strip() or len(_whole_word(value).findall(task)) > 1:
        return None
    index = index_for(page)
    field = index.entries.get(target) if isinstance(target, int) else None
    if field is None or element_kind(index.state, field.dnode) != "input":
        return None
    for ref, other in index.entries.items():
        held = other.dnode.attrs.get("value")
        if ref == target or not held or held == REDACTED \
                or element_kind(index.state, other.dnode) != "input":
            continue
        if held.strip().lower() == value.strip().lower() and not _confirms(field, other):
            return value, other.shown_name
    return None


def values_source(task: str, messages: Sequence[Mapping[str, Any]]) -> str:
    """What a form's values are copied from: the task and what the tools answered -- not the
    step's page listing and tool list, whose own words (the "actions" of "Previous actions")
    the model took for the next most likely value once its own was taken out."""
    return "\n".join([task, copy_source(messages, roles=("tool",))])


def without_value(source: str, value: str) -> str:
    """``source`` with every whole-word occurrence of ``value`` (case aside) replaced by a line
    break: a copy of it can then neither be the value nor run through it."""
    return _whole_word(value).sub("\n", source)


def _whole_word(value: str) -> re.Pattern[str]:
    """``value`` (stripped, case aside) between word bounds."""
    return re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.IGNORECASE)


def _confirms(field: Entry, other: Entry) -> bool:
    """Whether one field's name holds every word of the other's ("Verify password" and
    "Password"), or either has no name to tell them apart by."""
    first, second = _name_words(field), _name_words(other)
    return first <= second or second <= first


def _name_words(entry: Entry) -> set[str]:
    return {word for word in words(entry.shown_name) if word not in STOP_WORDS}
