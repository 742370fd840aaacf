"""The call parser: model text -> ToolCall or ToolError. It never raises on model output.

``parse_calls(text)`` returns every call in the text in order (at least one item: a call or an
error); ``parse_call(text)`` the first. Two written forms are read:

1. Functional tokens: ``<bu_click>{"index": 3}<bu_end>``. Tolerated where the meaning stays
   unambiguous: spaces and newlines around tokens and inside the JSON; a missing ``<bu_end>``
   (end of text, the next call, or any trailing text follows instead); ``</bu_click>`` as the end
   marker; tokens in any case; a code fence between the token and the JSON or around the call;
   no arguments at all for tools that need none (``<bu_summary><bu_end>``); text before, between
   and after calls (reasoning); tokens inside JSON strings (``"text": "<bu_end>"``).
2. JSON calls, when the text holds no functional token: ``{"name": "click", "arguments":
   {"index": 3}}``, ``"arguments"`` as a JSON string (OpenAI style) or named ``"parameters"``,
   a ``tool_calls`` entry ``{"type": "function", "function": {...}}``, a message
   ``{"tool_calls": [...]}``, a list of calls, inside code fences or tags such as
   ``<tool_call>...</tool_call>``.

In both forms the JSON itself may use single quotes, ``True/False/None``, unquoted simple keys
and a trailing comma (see ``jsonish``), and the arguments are validated by the tool's model
(``"5"`` is read as 5 for an index, key names are normalised). Everything else is a ToolError:
``empty``, ``no_call``, ``unknown_tool``, ``bad_json``, ``bad_arguments``, ``truncated`` (the
text ends inside a call's arguments), ``too_long`` (over MAX_OUTPUT_CHARS, or more than
MAX_CALLS calls), or ``multiple_calls`` from ``parse_call(single=True)``.

The work is linear in the text (``benchmarks/codec_benchmark.py``: 1 MB of adversarial text in
well under 100 ms with the limit lifted): one bracket scanner per text, a call's arguments end
at the next functional token outside a string, and JSON repair is bounded (``jsonish``).
"""

from __future__ import annotations

import re

from pipeline.tools import jsonish
from pipeline.tools.calls import (
    RAW_LIMIT,
    ToolCall,
    ToolError,
    quote,
    unknown_tool,
    usage,
    validate_call,
)
from pipeline.tools.codec import JSON_EXAMPLE, calls_in_object
from pipeline.tools.registry import END_TOKEN, ToolSpec, spec_for_token

_TOKEN = re.compile(r"<(/?)(?P<name>bu_[A-Za-z_]+)>", re.IGNORECASE)
_START = re.compile(r"<(?P<name>bu_(?!end>)[A-Za-z_]+)>", re.IGNORECASE)
_FENCE = re.compile(r"\s*(?:```[A-Za-z]*\s*)?")
_SPECIAL = re.compile(
    r"<(?:\|im_start\|>(?:system|user|assistant|tool)?\n?|\|[^|<>\s]{1,40}\|>|/?s>"
    r"|(?:eos|bos|pad|unk|start_of_turn|end_of_turn)>)"
)
_NOTHING = re.compile(rf"(?:\s++|{_SPECIAL.pattern})*+")  # whitespace and chat markers only
_CALL_KEY = re.compile(r"""\b(?:name|function|tool_calls)["']?\s*:""")
_NAME_VALUE = re.compile(r"""["']?name["']?\s*:\s*["']([^"']+)""")
MAX_JSON_CANDIDATES = 64  # '{' positions tried in a text without tokens (bounds the work)
MAX_OUTPUT_CHARS = 65_536  # a longer turn is an error (``too_long``), not a minute of CPU
MAX_CALLS = 32  # more calls than this in one turn is a runaway generation (``too_long``)
EXAMPLE = '<bu_query>{"text": "add to cart"}<bu_end> or <bu_click>{"index": 3}<bu_end>'


def strip_special(text: str) -> str:
    """Text decoded with ``skip_special_tokens=False`` without chat/EOS markers (``<|im_end|>``,
    ``<|endoftext|>``, ``</s>``, ``<eos>``...); functional tokens are kept."""
    return _SPECIAL.sub("", text).strip()


def parse_calls(text: str, *, max_chars: int | None = MAX_OUTPUT_CHARS
                ) -> list[ToolCall | ToolError]:
    """Every call written in ``text``, in order; never empty, never raises. The work is linear
    in the text; a text over ``max_chars`` characters (None: no limit) or with more than
    MAX_CALLS calls is one ``too_long`` error."""
    if isinstance(text, str) and max_chars is not None and len(text) > max_chars:
        return [ToolError("too_long", f"the output is {len(text):,} characters, over the limit "
                          f"of {max_chars:,}; write one short tool call such as {EXAMPLE}",
                          text[:RAW_LIMIT])]
    if not isinstance(text, str) or _NOTHING.fullmatch(text):
        raw = text if isinstance(text, str) else repr(text)
        return [ToolError("empty", f"empty output; write one tool call such as {EXAMPLE}", raw)]
    whole = _whole_json_calls(text)
    if whole:
        return _capped(whole, text)
    first = _START.search(text) if "<bu_" in text.lower() else None  # (the regex tries every '<')
    if first is not None:
        return _capped(_token_calls(text, first), text)
    return _capped(_json_calls(text), text)


def _capped(results: list[ToolCall | ToolError], text: str) -> list[ToolCall | ToolError]:
    if len(results) <= MAX_CALLS:
        return results
    return [ToolError("too_long", f"more than {MAX_CALLS} calls in one turn; write one call "
                      f"at a time such as {EXAMPLE}", text[:RAW_LIMIT])]


def parse_call(text: str, *, single: bool = False) -> ToolCall | ToolError:
    """The first call in ``text``; with ``single=True`` more than one is a ``multiple_calls``
    error (for turns that must hold exactly one action)."""
    results = parse_calls(text)
    if single and len(results) > 1:
        return ToolError("multiple_calls", f"{len(results)} calls given; give exactly one call "
                         "per turn and wait for its result", text)
    return results[0]


def _token_calls(text: str, first: re.Match) -> list[ToolCall | ToolError]:
    """Calls from the start token ``first`` on, at most MAX_CALLS + 1 of them (the last one
    says "too many")."""
    results: list[ToolCall | ToolError] = []
    scanner = jsonish.BracketScanner(text)
    m: re.Match | None = first
    while m is not None and len(results) <= MAX_CALLS:
        result, pos = _token_call(text, m, scanner)
        results.append(result)
        m = _START.search(text, pos)
    return results


def _token_call(text: str, m: re.Match, scanner: jsonish.BracketScanner
                ) -> tuple[ToolCall | ToolError, int]:
    """One call starting at token ``m``, and the index where the next call may start."""
    token = f"<{m.group('name').lower()}>"
    body = _FENCE.match(text, m.end()).end()
    braced = text.startswith("{", body)
    close = scanner.find_end(body) if braced else None
    stop, after = _segment_end(text, body if close is None else close)
    raw = text[m.start():after]
    tool = spec_for_token(token)
    if tool is None:
        return unknown_tool(token, raw), after
    if close is None and braced and stop == len(text):
        return ToolError("truncated", f"the {tool.name} call ends before its arguments close; "
                         f"write the whole call; {usage(tool)}", raw, tool.name), after
    if close is None and not braced:
        rest = strip_special(text[body:stop]).strip("`").strip()
        if rest:
            return _bad_json(tool, f"expected a JSON object after {tool.token}, got "
                             f"{quote(rest)}", raw), after
        return validate_call(tool.name, {}, raw=raw), after
    json_text = text[body:stop].rstrip().rstrip("`") if close is None else text[body:close]
    try:
        arguments = jsonish.loads(json_text)
    except ValueError as exc:
        return _bad_json(tool, str(exc), raw), after
    return validate_call(tool.name, arguments, raw=raw), after


def _segment_end(text: str, start: int) -> tuple[int, int]:
    """Where a call's text stops (the next token at or after ``start``) and where the next
    call may start (past an end marker, or at the next start token)."""
    m = _TOKEN.search(text, start)
    if m is None:
        return len(text), len(text)
    is_end = bool(m.group(1)) or m.group("name").lower() == "bu_end"
    return m.start(), (m.end() if is_end else m.start())


def _bad_json(tool: ToolSpec, problem: str, raw: str) -> ToolError:
    return ToolError("bad_json", f"the arguments of {tool.name} are not a JSON object: "
                     f"{problem}; {usage(tool)}", raw, tool.name)


def _whole_json_calls(text: str) -> list[ToolCall | ToolError] | None:
    """Calls when the whole text is one JSON call or a list of them (so a functional token
    inside one of its strings is just text); None otherwise."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        value = jsonish.loads(stripped)
    except ValueError:
        return None
    found = [calls_in_object(item) for item in (value if isinstance(value, list) else [value])]
    if not found or any(group is None for group in found):
        return None
    return [call for group in found for call in group]


def _json_calls(text: str) -> list[ToolCall | ToolError]:
    """Calls written as JSON objects (no functional tokens in the text)."""
    results: list[ToolCall | ToolError] = []
    scanner = jsonish.BracketScanner(text)
    i = text.find("{")
    key = _CALL_KEY.search(text, i) if i >= 0 else None  # the first call key after the candidate
    for _ in range(MAX_JSON_CANDIDATES):
        if i < 0:
            break
        if key is not None and key.start() < i:
            key = _CALL_KEY.search(text, i)
        end = scanner.find_end(i)
        if end is None:
            if key is not None:
                results.append(_json_truncated(text[i:]))
                break
            i = text.find("{", i + 1)
            continue
        try:
            found = calls_in_object(jsonish.loads(text[i:end]))
        except ValueError as exc:
            found = ([ToolError("bad_json", f"the call is not valid JSON: {exc}; write it like "
                                f"{JSON_EXAMPLE}", text[i:end])]
                     if key is not None and key.start() < end else None)
        results.extend(found or [])
        i = text.find("{", end if found is not None else i + 1)
    return results or [ToolError("no_call", f"no tool call found; write one call such as "
                                 f"{EXAMPLE}, or JSON {JSON_EXAMPLE}",
                                 text)]


def _json_truncated(raw: str) -> ToolError:
    name = _NAME_VALUE.search(raw)
    what = f"the {name.group(1)} call" if name else "the call"
    return ToolError("truncated", f"{what} ends before its JSON closes; write the whole call "
                     f"and end it with }} (or use the form <bu_...>{{...}}{END_TOKEN})", raw,
                     name.group(1) if name else None)
