"""The tool registry and its exported schemas: names, tokens, OpenAI shapes, argument models."""

from __future__ import annotations

import json

import pytest
from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionToolParam
from pydantic import TypeAdapter

from pipeline.errors import FormatError
from pipeline.tools import (
    END_TOKEN,
    TOOLS,
    ToolCall,
    functional_tokens,
    make_call,
    openai_tools,
    spec,
    spec_for_token,
    token_descriptions,
    tool_names,
    validate_call,
)
from pipeline.tools.keys import KNOWN_KEYS, PRINTABLE, normalize_key

REQUIRED = {
    "get_page_summary": [], "query_elements": [], "get_region": ["landmark"],
    "get_element_details": ["index"], "click": ["index"], "type": ["index", "text"],
    "select": ["index", "option"], "press": ["key"], "scroll": ["direction"],
    "hover": ["index"], "drag": ["index"], "clear": ["index"], "select_text": ["text"],
    "done": [],
}


def test_tokens_as_design_fixes_them_plus_the_added_actions():
    assert functional_tokens() == [
        "<bu_summary>", "<bu_query>", "<bu_region>", "<bu_details>", "<bu_click>", "<bu_type>",
        "<bu_select>", "<bu_press>", "<bu_scroll>", "<bu_hover>", "<bu_drag>", "<bu_clear>",
        "<bu_select_text>", "<bu_done>", "<bu_end>",
    ]
    assert [spec_for_token(t).name for t in functional_tokens()[:-1]] == list(REQUIRED)
    assert spec_for_token(END_TOKEN) is None


def test_names_tokens_unique_and_kinds():
    assert len(set(tool_names())) == len(TOOLS) == 14
    assert len(set(functional_tokens())) == len(functional_tokens())
    assert tool_names("query") == ["get_page_summary", "query_elements", "get_region",
                                   "get_element_details"]
    assert tool_names("action") == ["click", "type", "select", "press", "scroll", "hover",
                                    "drag", "clear", "select_text", "done"]
    assert set(token_descriptions()) == set(functional_tokens())
    assert all(d.strip() for d in token_descriptions().values())


def test_every_tool_exported_with_required_fields():
    tools = openai_tools()
    assert [t["function"]["name"] for t in tools] == tool_names()
    for tool in tools:
        params = tool["function"]["parameters"]
        assert tool["type"] == "function" and tool["function"]["description"]
        assert params["type"] == "object"
        assert params["additionalProperties"] is False
        assert params.get("required", []) == REQUIRED[tool["function"]["name"]]
        assert set(params.get("required", [])) <= set(params["properties"])
        for prop in params["properties"].values():
            assert prop.get("description"), prop
    assert [t["function"]["name"] for t in openai_tools("action")] == tool_names("action")


def test_schema_has_no_pydantic_noise():
    text = json.dumps(openai_tools())
    for noise in ('"title"', '"$defs"', '"$ref"', '"null"', '"anyOf"'):
        assert noise not in text, noise
    query = spec("query_elements").parameters()["properties"]
    assert query["max_results"] == {"type": "integer", "description": "Most results to return.",
                                    "default": 20, "minimum": 1, "maximum": 100}
    assert query["attributes"]["additionalProperties"] == {"type": "string"}
    assert query["keyword_weights"]["additionalProperties"] == {"type": "number"}
    region = spec("get_region").parameters()["properties"]["content_type"]
    assert region["enum"] == ["interactive", "text", "full"] and region["default"] == "interactive"


def test_openai_types_accept_exported_tools():
    adapter = TypeAdapter(ChatCompletionToolParam)
    for tool in openai_tools():
        assert adapter.validate_python(tool) == tool
        parsed = ChatCompletionFunctionTool.model_validate(tool)
        assert parsed.function.name == tool["function"]["name"]
        assert len(parsed.function.name) <= 64


def test_signatures_and_examples():
    assert spec("click").signature() == "click(index: int)"
    assert spec("get_region").signature() == (
        'get_region(landmark: str, heading_scope?: str, '
        'content_type?: "interactive"|"text"|"full" = "interactive")')
    for tool in TOOLS:
        call = validate_call(tool.name, tool.example)
        assert isinstance(call, ToolCall), call


def test_spec_unknown_names_the_tools():
    with pytest.raises(KeyError, match="tools: get_page_summary"):
        spec("clik")


def test_make_call_canonical_and_errors():
    call = make_call("query_elements", text="add to cart", role="button", max_results=20)
    assert call.arguments == {"text": "add to cart", "role": "button"}
    assert call.kind == "query" and call.args().max_results == 20
    assert make_call("done").arguments == {}
    assert make_call("get_region", landmark="MAIN", content_type="text").arguments == {
        "landmark": "MAIN", "content_type": "text"}
    with pytest.raises(FormatError, match="missing argument 'index'"):
        make_call("click")
    with pytest.raises(FormatError, match="unknown tool 'clik' \\(did you mean 'click'\\?\\)"):
        make_call("clik", index=1)


def test_query_needs_a_criterion():
    assert validate_call("query_elements", {"max_results": 5}).kind == "bad_arguments"
    assert validate_call("query_elements", {"text": ""}).kind == "bad_arguments"
    assert isinstance(validate_call("query_elements", {"attributes": {"type": "email"}}), ToolCall)


@pytest.mark.parametrize("given,canonical", [
    ("Enter", "Enter"), ("enter", "Enter"), ("RETURN", "Enter"), ("esc", "Escape"),
    ("Tab", "Tab"), ("arrowdown", "ArrowDown"), ("down", "ArrowDown"), ("PageDown", "PageDown"),
    ("a", "a"), ("A", "A"), (" ", " "), ("space", "Space"), ("Control+A", "Control+A"),
    ("ctrl+a", "Control+a"), ("Ctrl + Shift + z", "Control+Shift+z"), ("Control++", "Control++"),
    ("+", "+"), ("Meta+ArrowLeft", "Meta+ArrowLeft"), ("ControlOrMeta+c", "ControlOrMeta+c"),
    ("F5", "F5"), ("KeyQ", "KeyQ"), ("Digit7", "Digit7"),
])
def test_normalize_key(given, canonical):
    assert normalize_key(given) == canonical


@pytest.mark.parametrize("bad", ["", "Enterr", "é", "a+b", "Control+", "Enter+Control", "\n"])
def test_normalize_key_rejects(bad):
    with pytest.raises(ValueError, match="key|modifier"):
        normalize_key(bad)


def test_every_known_key_is_canonical():
    for key in KNOWN_KEYS | PRINTABLE:
        assert normalize_key(key) == key
