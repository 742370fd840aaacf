"""The tool registry: the single source of tool names, kinds, functional tokens, descriptions and
argument models. Datagen, training (new tokens and their embedding init), the codec, the executor
and the server all read this table; nothing else spells a tool name or a token.

    >>> spec("query_elements").token
    '<bu_query>'
    >>> openai_tools(kind="action")[0]["function"]["name"]
    'click'

Exported schemas follow OpenAI function calling (non-strict): ``additionalProperties: false``,
optional arguments left out of ``required`` and written without a ``null`` branch, no pydantic
``title`` keys. Strict mode is not claimed: ``query_elements`` takes free-form maps
(``attributes``, ``keyword_weights``), which strict mode cannot express.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel

from pipeline.tools import schemas

ToolKind = Literal["query", "action"]

END_TOKEN = "<bu_end>"
END_TOKEN_DESCRIPTION = "end of the tool call arguments"


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: ``description`` is what a model reads in the tool list; ``token_description``
    is a few plain words whose embeddings initialise the functional token's row; ``example``
    is a valid argument object shown in error messages and prompts."""

    name: str
    kind: ToolKind
    token: str
    description: str
    token_description: str
    args_model: type[BaseModel]
    example: dict[str, Any]

    def parameters(self) -> dict[str, Any]:
        """The argument schema as OpenAI expects it under ``function.parameters`` (a copy of a
        cached schema: building it from the pydantic model costs milliseconds)."""
        return copy.deepcopy(_parameters(self.args_model))

    def signature(self) -> str:
        """A one-line usage for prompts and error messages, e.g. ``click(index: int)``;
        ``?`` marks an optional argument, ``= v`` its default."""
        params = self.parameters()
        required = set(params.get("required", ()))
        parts = []
        for key, prop in params["properties"].items():
            part = f"{key}{'' if key in required else '?'}: {_type_text(prop)}"
            if prop.get("default") not in (None, ""):
                part += f" = {json.dumps(prop['default'])}"
            parts.append(part)
        return f"{self.name}({', '.join(parts)})"

    def openai_tool(self) -> dict[str, Any]:
        """``{"type": "function", "function": {"name", "description", "parameters"}}``."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters(),
            },
        }


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "get_page_summary", "query", "<bu_summary>",
        "Overview of the page: URL, title, scroll position, landmark regions with element "
        "counts, and the headings. Call it first to see where things are.",
        "page summary overview of landmarks and headings", schemas.GetPageSummaryArgs, {}),
    ToolSpec(
        "query_elements", "query", "<bu_query>",
        "Search the page for elements and get their indices. Combine text with role, landmark "
        "or heading to narrow the search.",
        "query search find elements by text and role", schemas.QueryElementsArgs,
        {"text": "add to cart", "role": "button"}),
    ToolSpec(
        "get_region", "query", "<bu_region>",
        "List one landmark region from the page summary, optionally only the section under a "
        "heading: its elements, its text, or both.",
        "region section list landmark contents", schemas.GetRegionArgs, {"landmark": "MAIN"}),
    ToolSpec(
        "get_element_details", "query", "<bu_details>",
        "All details of one element: tag, role, name, value, attributes, states, the options "
        "of a select, and where it sits on the page.",
        "element details attributes options", schemas.GetElementDetailsArgs,
        {"index": 3}),
    ToolSpec(
        "click", "action", "<bu_click>",
        "Click the element with this index.",
        "click press button link", schemas.ClickArgs, {"index": 3}),
    ToolSpec(
        "type", "action", "<bu_type>",
        "Type text into the input with this index, replacing what it holds.",
        "type text into input field", schemas.TypeArgs, {"index": 3, "text": "hello"}),
    ToolSpec(
        "select", "action", "<bu_select>",
        "Choose an option of the select element with this index, or set the slider with this "
        "index to a number.",
        "select choose option dropdown slider", schemas.SelectArgs, {"index": 3, "option": "Large"}),
    ToolSpec(
        "press", "action", "<bu_press>",
        "Press a key, e.g. Enter to submit a form or Escape to close a dialog.",
        "press keyboard key enter", schemas.PressArgs, {"key": "Enter"}),
    ToolSpec(
        "scroll", "action", "<bu_scroll>",
        "Scroll the page, or the scrollable element with this index, up, down, left or right "
        "to reveal what lies beyond its edge.",
        "scroll page up down", schemas.ScrollArgs, {"direction": "down"}),
    ToolSpec(
        "hover", "action", "<bu_hover>",
        "Move the mouse over the element with this index, e.g. to open a menu that shows on "
        "hover.",
        "hover mouse over menu", schemas.HoverArgs, {"index": 3}),
    ToolSpec(
        "drag", "action", "<bu_drag>",
        "Drag the element with this index and drop it on another element, or move it by an "
        "offset in pixels.",
        "drag drop move element", schemas.DragArgs, {"index": 3, "to_index": 5}),
    ToolSpec(
        "clear", "action", "<bu_clear>",
        "Empty the text field with this index.",
        "clear empty erase text field", schemas.ClearArgs, {"index": 3}),
    ToolSpec(
        "select_text", "action", "<bu_select_text>",
        "Select (highlight) a passage of the page's text, quoted word for word, as dragging the "
        "mouse across it does.",
        "select highlight text passage", schemas.SelectTextArgs,
        {"text": "The quick brown fox"}),
    ToolSpec(
        "done", "action", "<bu_done>",
        "Finish the task. Give the answer when the task asks for information.",
        "done finish task answer", schemas.DoneArgs, {"answer": "42"}),
)

_BY_NAME: dict[str, ToolSpec] = {t.name: t for t in TOOLS}
_BY_TOKEN: dict[str, ToolSpec] = {t.token: t for t in TOOLS}


def tool_names(kind: ToolKind | None = None) -> list[str]:
    """Tool names in registry order, optionally only queries or only actions."""
    return [t.name for t in TOOLS if kind is None or t.kind == kind]


def functional_tokens() -> list[str]:
    """Every functional token, one per tool in registry order, then ``<bu_end>``."""
    return [t.token for t in TOOLS] + [END_TOKEN]


def token_descriptions() -> dict[str, str]:
    """Token -> the words used to initialise its embedding row (``<bu_end>`` included)."""
    return {t.token: t.token_description for t in TOOLS} | {END_TOKEN: END_TOKEN_DESCRIPTION}


def spec(name: str) -> ToolSpec:
    """The spec of a tool by name; ``KeyError`` lists the known tools."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}; tools: {', '.join(_BY_NAME)}") from None


def spec_for_token(token: str) -> ToolSpec | None:
    """The tool a functional token starts, or None (``<bu_end>`` and unknown tokens)."""
    return _BY_TOKEN.get(token)


def openai_tools(kind: ToolKind | None = None) -> list[dict[str, Any]]:
    """The tools as OpenAI function schemas (the ``tools`` request field, TRL's tools column)."""
    return [t.openai_tool() for t in TOOLS if kind is None or t.kind == kind]


@cache
def _parameters(args_model: type[BaseModel]) -> dict[str, Any]:
    return _clean_parameters(args_model.model_json_schema())


def _clean_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic object schema without titles, top-level description or null branches."""
    properties = {key: _clean_property(value) for key, value in schema["properties"].items()}
    cleaned: dict[str, Any] = {"type": "object", "properties": properties}
    if schema.get("required"):
        cleaned["required"] = list(schema["required"])
    cleaned["additionalProperties"] = False
    return cleaned


def _clean_property(prop: dict[str, Any]) -> dict[str, Any]:
    """Drop ``title`` and ``default: null``; ``anyOf: [X, null]`` becomes X (the argument is
    optional because it is not required, which is how non-strict function calling reads it)."""
    out = {k: v for k, v in prop.items() if k != "title" and not (k == "default" and v is None)}
    branches = [b for b in out.pop("anyOf", []) if b.get("type") != "null"]
    if len(branches) > 1:
        out["anyOf"] = [_clean_property(b) for b in branches]
    elif branches:
        out = {**_clean_property(branches[0]), **out}
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _clean_property(out["additionalProperties"])
    return dict(sorted(out.items(), key=lambda kv: _KEY_ORDER.get(kv[0], len(_KEY_ORDER))))


def _type_text(prop: dict[str, Any]) -> str:
    """``str``, ``int``, ``number``, ``{str: number}`` or ``'a'|'b'`` for a cleaned property."""
    if "enum" in prop:
        return "|".join(json.dumps(v) for v in prop["enum"])
    if prop.get("type") == "object":
        return f"{{str: {_type_text(prop.get('additionalProperties', {}))}}}"
    return {"string": "str", "integer": "int"}.get(prop.get("type", ""), prop.get("type", "any"))


_KEY_ORDER = {k: i for i, k in enumerate(("type", "enum", "anyOf", "description", "default"))}
