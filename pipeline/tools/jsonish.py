"""Tolerant reading of the JSON objects small models write, used by the call parser.

``find_end(text, start)`` finds where a ``{...}`` starting at ``start`` closes (string-aware,
both quote kinds), or None when the text ends first. ``loads(text)`` is ``json.loads`` with a
repair pass for the slips whose meaning is unambiguous:

- single-quoted strings (Python-literal style; each string is read by ``ast.literal_eval`` on
  that one string literal, nothing is ever evaluated),
- ``True``/``False``/``None`` for ``true``/``false``/``null``,
- unquoted keys that are plain identifiers (``{index: 3}``),
- a trailing comma before ``}`` or ``]``,
- raw newlines and tabs inside strings.

Anything else raises ValueError with the reason. ``NaN``/``Infinity`` are rejected. Text over
MAX_REPAIR_CHARS is not repaired (it must be strict JSON), so the work stays bounded.
"""

from __future__ import annotations

import ast
import json
import re
import warnings
from typing import Any

_PY_CONSTANTS = {"True": "true", "False": "false", "None": "null",
                 "true": "true", "false": "false", "null": "null"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[-+0-9.eE]+")
_SPACE = re.compile(r"\s*")


MAX_REPAIR_CHARS = 16_384  # longer JSON must be strict: no call's arguments come near it
MAX_DEPTH = 64  # brackets nested deeper than this end a scan: no tool's arguments go near it

# What a scan reads in one regex match (linear, possessive: no backtracking): characters that
# neither open nor close anything, whole string literals, and a '<' that starts no token.
_PLAIN = re.compile(
    r"""(?:[^"'{}\[\]<]++|"(?:[^"\\]++|\\.)*+"|'(?:[^'\\]++|\\.)*+'|<(?!/?bu_))*+""",
    re.IGNORECASE | re.DOTALL,
)
_EVENT = re.compile(r"""["'{}\[\]]|</?bu_""", re.IGNORECASE)


def find_end(text: str, start: int) -> int | None:
    """Index just past the bracket closing the one at ``text[start]``; None if unclosed."""
    return BracketScanner(text).find_end(start)


class BracketScanner:
    """``find_end`` over one text for many starts (the calls of one model turn).

    The text between brackets is read by one regex match, so the Python loop runs once per
    bracket. A scan stops (None) at the end of the text, at a functional token outside any
    string (a call's arguments never run past the next token), in a string that never closes,
    or deeper than MAX_DEPTH. A string that never closes is remembered: every quote of the same
    kind further on also opens a string that never closes (it lies inside the first one, escaped),
    so no later scan reads that tail again.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._unclosed: dict[str, int] = {}  # quote -> where a string that never closes opens
        self._next: dict[str, tuple[int, int]] = {}  # quote -> (searched from, found at)

    def find_end(self, start: int) -> int | None:
        text, depth, pos = self.text, 0, start
        while True:
            pos = _PLAIN.match(text, pos, self._limit(pos)).end()
            event = _EVENT.match(text, pos)
            if event is None:
                return None  # the end of the text
            ch = event.group()
            if ch in "\"'":
                closed = None if pos >= self._unclosed.get(ch, len(text)) else \
                    _STRINGS[ch].match(text, pos)
                if closed is None:
                    self._unclosed[ch] = min(pos, self._unclosed.get(ch, pos))
                    return None
                pos = closed.end()
                continue
            if ch in "{[":
                depth += 1
                if depth > MAX_DEPTH:
                    return None
            elif ch in "}]":
                depth -= 1
                if depth == 0:
                    return event.end()
            else:
                return None  # a functional token outside strings
            pos = event.end()

    def _limit(self, pos: int) -> int:
        """Where a plain run from ``pos`` must stop: the next quote known to open a string that
        never closes."""
        limit = len(self.text)
        for quote, first in self._unclosed.items():
            searched, found = self._next.get(quote, (-1, -1))
            if not searched <= max(pos, first) <= found:
                searched = max(pos, first)
                found = self.text.find(quote, searched)
                found = len(self.text) if found < 0 else found
                self._next[quote] = (searched, found)
            limit = min(limit, found)
        return limit


_STRINGS = {
    '"': re.compile(r'"(?:[^"\\]++|\\.)*+"', re.DOTALL),
    "'": re.compile(r"'(?:[^'\\]++|\\.)*+'", re.DOTALL),
}


def loads(text: str) -> Any:
    """Parse JSON, repairing the slips listed in the module docstring; ValueError otherwise."""
    try:
        return _strict_loads(text)
    except ValueError as first:
        if len(text) > MAX_REPAIR_CHARS:
            raise ValueError(f"{first}; {len(text):,} characters is too long to repair (limit "
                             f"{MAX_REPAIR_CHARS:,}): write strict JSON") from None
        try:
            repaired = _repair(text)
        except ValueError as exc:
            raise ValueError(f"{first}; repair failed: {exc}") from None
        return _strict_loads(repaired)


def _strict_loads(text: str) -> Any:
    try:
        return json.loads(text, strict=False, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a valid JSON number")


def _repair(text: str) -> str:
    """Rewrite JSON-like text into JSON (see module docstring); ValueError when it cannot."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            end = _string_end(text, i)
            out.append(_string_token(text[i:end]))
            i = end
        elif ch == ",":
            after = _SPACE.match(text, i + 1).end()
            if after >= len(text) or text[after] not in "}]":
                out.append(ch)
            i += 1
        elif word := _WORD.match(text, i):
            i = word.end()
            out.append(_word_token(word.group(), text, i))
        elif ch in "-+0123456789.":
            number = _NUMBER.match(text, i).group()
            out.append(number)
            i += len(number)
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """Index just past the string literal opening at ``start``; ValueError if unterminated."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == quote:
            return i + 1
        i += 1
    raise ValueError(f"unterminated string starting at character {start}")


def _string_token(literal: str) -> str:
    """A single- or double-quoted string literal as a JSON string literal."""
    escaped = literal.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    if literal[0] == '"':
        try:
            json.loads(escaped)
            return escaped
        except ValueError:
            pass
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes such as '\d' warn, then read as-is
            value = ast.literal_eval(escaped)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"bad string literal {literal[:40]!r}: {exc}") from None
    return json.dumps(value, ensure_ascii=False)  # a lone quoted literal is always a str


def _word_token(word: str, text: str, after: int) -> str:
    """A bare word: a JSON/Python constant, or a key when a colon follows."""
    if word in _PY_CONSTANTS:
        return _PY_CONSTANTS[word]
    colon = _SPACE.match(text, after).end()
    if colon < len(text) and text[colon] == ":":
        return json.dumps(word)
    raise ValueError(f"unquoted value {word!r}; put strings in double quotes")
