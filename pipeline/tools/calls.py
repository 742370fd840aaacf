"""ToolCall and ToolError records, and ``validate_call``: the one place raw (name, arguments)
from any source (model text, OpenAI ``tool_calls``, a teacher) become a validated call.

A ToolCall's ``arguments`` are canonical: validated by the tool's argument model, values
normalised (``"5"`` -> ``5``, ``"enter"`` -> ``"Enter"``), defaults left out, keys in schema
order. So two calls that mean the same thing compare equal (``id`` is not compared).

A ToolError is a value, never raised: ``kind`` says what went wrong, ``message`` is written to
be shown to the model as the tool result so it can correct itself, ``raw`` is the offending text.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from pipeline.errors import FormatError
from pipeline.tools.registry import END_TOKEN, TOOLS, ToolKind, ToolSpec, spec

ErrorKind = Literal[
    "empty",  # nothing but whitespace / special tokens
    "no_call",  # text without a functional token or a JSON call
    "unknown_tool",  # a name or token that is not in the registry
    "bad_json",  # arguments that are not a (repairable) JSON object
    "bad_arguments",  # a JSON object the tool's argument model rejects
    "truncated",  # the text ends inside a call's arguments (generation cut off)
    "multiple_calls",  # one call was expected, several were given
    "too_long",  # a turn over the parser's length limit, or with more calls than it reads
]
ERROR_KINDS: tuple[str, ...] = ErrorKind.__args__
RAW_LIMIT = 300  # characters of the offending text quoted in a message


@dataclass(frozen=True)
class ToolCall:
    """A validated call: ``name`` from the registry, canonical ``arguments``, optional ``id``
    (the OpenAI ``tool_calls`` id, kept when converting, ignored by ``==``)."""

    name: str
    arguments: dict[str, Any]
    id: str | None = field(default=None, compare=False)

    @property
    def spec(self) -> ToolSpec:
        return spec(self.name)

    @property
    def kind(self) -> ToolKind:
        return self.spec.kind

    def args(self) -> BaseModel:
        """The arguments as the tool's typed argument model (defaults filled in)."""
        return self.spec.args_model.model_validate(self.arguments)


@dataclass(frozen=True)
class ToolError:
    """Why model output is not a usable call; ``str(error)`` is the message for the model."""

    kind: ErrorKind
    message: str
    raw: str = ""
    name: str | None = None  # the tool, when it could be told

    def __str__(self) -> str:
        return self.message


_NAMES: dict[str, str] = {t.name.lower(): t.name for t in TOOLS}
_NAMES |= {t.token.lower(): t.name for t in TOOLS} | {t.token.strip("<>"): t.name for t in TOOLS}


def resolve_name(name: str) -> str | None:
    """The registry name for ``name``: exact, any case, or the tool's token with or without
    brackets (``"Click"``, ``"<bu_click>"``, ``"bu_click"`` -> ``"click"``); else None."""
    return _NAMES.get(name.strip().lower())


def unknown_tool(name: str, raw: str = "") -> ToolError:
    """The error for a name that is not a tool, suggesting the closest one in the form used
    (a token for a token, a name for a name)."""
    as_token = name.startswith("<")
    choices = [t.token if as_token else t.name for t in TOOLS]
    wanted = name.strip().lower().strip("<>")
    close = [c for c in choices if len(wanted) >= 3 and (wanted in c or c.strip("<>") in wanted)]
    close = close or difflib.get_close_matches(wanted, choices, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return ToolError("unknown_tool", f"unknown tool {quote(name)}{hint}; tools: "
                     f"{', '.join(choices)}", raw)


def validate_call(
    name: Any, arguments: Any, *, raw: str = "", id: str | None = None
) -> ToolCall | ToolError:
    """Validate a tool name and its arguments (a dict) into a canonical ToolCall, or a
    ToolError (``unknown_tool`` / ``bad_arguments``) whose message shows the right usage."""
    if not isinstance(name, str) or resolve_name(name) is None:
        return unknown_tool(name if isinstance(name, str) else repr(name), raw)
    tool = spec(resolve_name(name))
    if not isinstance(arguments, dict):
        return _bad_arguments(tool, f"arguments must be a JSON object, got {quote(arguments)}", raw)
    try:
        model = tool.args_model.model_validate(arguments)
    except ValidationError as exc:
        return _bad_arguments(tool, _describe(exc), raw)
    return ToolCall(tool.name, canonical_arguments(model), id=id)


def canonical_arguments(model: BaseModel) -> dict[str, Any]:
    """Validated arguments as plain JSON values, defaults left out, keys in schema order."""
    return model.model_dump(mode="json", exclude_defaults=True)


def make_call(name: str, **arguments: Any) -> ToolCall:
    """Build a call in code (teachers, tests): ``make_call("click", index=3)``. Raises
    FormatError with the model-facing message when the call is not valid."""
    result = validate_call(name, arguments)
    if isinstance(result, ToolError):
        raise FormatError(result.message)
    return result


def usage(tool: ToolSpec) -> str:
    """``usage: click(index: int), e.g. <bu_click>{"index": 3}<bu_end>``."""
    example = json.dumps(tool.example, ensure_ascii=False, separators=(", ", ": "))
    return f"usage: {tool.signature()}, e.g. {tool.token}{example}{END_TOKEN}"


def quote(value: Any) -> str:
    """A short quoted rendering of ``value`` for messages."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _bad_arguments(tool: ToolSpec, problem: str, raw: str) -> ToolError:
    return ToolError("bad_arguments", f"bad arguments for {tool.name}: {problem}; {usage(tool)}",
                     raw, tool.name)


def _describe(exc: ValidationError) -> str:
    """Pydantic errors as one line: ``missing argument 'index'; 'max_results': ...``."""
    problems = []
    for err in exc.errors(include_url=False):
        where = ".".join(str(p) for p in err["loc"])
        if err["type"] == "missing":
            problems.append(f"missing argument '{where}'")
        elif err["type"] == "extra_forbidden":
            problems.append(f"unexpected argument '{where}'")
        else:
            message = err["msg"].removeprefix("Value error, ")
            shown = f" (got {quote(err['input'])})" if "input" in err and where else ""
            problems.append(f"'{where}': {message}{shown}" if where else message)
    return "; ".join(problems)
