"""The OpenAI chat-completions protocol, without I/O: a request in, the model's conversation out;
the model's text in, a completion (or its stream chunks) out.

    request = parse_chat_request(body, limits, served_name)     # ApiError (400/404) when bad
    messages = conversation(request)                             # the TRL-style messages
    completion = completion_body(request, text, usage, position=calls_before(messages))
    for chunk in stream_chunks(completion, include_usage=True): ...

The model's functional-token output goes through the agent runtime's ``turn_from_text`` (the
codec's tolerant parser): valid calls become ``tool_calls`` (JSON-text arguments, the same
deterministic ids the in-process policy gives) with the rationale as ``content`` and
``finish_reason: "tool_calls"``; anything the codec cannot use comes back as text with
``finish_reason: "stop"``.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from pipeline.agent.policy import turn_from_text
from pipeline.serve.config import Limits
from pipeline.serve.errors import ApiError
from pipeline.tools import ToolCall, from_openai, resolve_name, tool_names

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant",
         "tool": "tool"}


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    n: int = 1
    temperature: float | None = None  # decoding is greedy whatever is asked
    seed: int | None = None


def parse_chat_request(body: Any, limits: Limits, served_name: str) -> ChatRequest:
    """The validated request, or an ApiError naming the field and the fix."""
    try:
        request = ChatRequest.model_validate(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "body"
        kind = "missing_field" if first["type"] == "missing" else "invalid_value"
        raise ApiError(400, f"{where}: {first['msg']} ({len(exc.errors())} problem(s) in the "
                       "request)", kind, where) from None
    if request.model != served_name:
        raise ApiError(404, f"The model {request.model!r} does not exist; this server serves "
                       f"{served_name!r} (GET /v1/models)", "model_not_found", "model")
    if not request.messages:
        raise ApiError(400, "messages: give at least one message", "invalid_value", "messages")
    if len(request.messages) > limits.max_messages:
        raise ApiError(400, f"messages: {len(request.messages)} given, at most "
                       f"{limits.max_messages}", "too_many_messages", "messages")
    if request.n != 1:
        raise ApiError(400, "n: only n=1 is supported", "invalid_value", "n")
    asked = request.max_completion_tokens or request.max_tokens
    if asked is not None and not 0 < asked <= limits.max_tokens:
        raise ApiError(400, f"max_tokens: {asked} is outside 1..{limits.max_tokens}",
                       "invalid_value", "max_tokens")
    _check_tools(request.tools or [], limits)
    return request


def _check_tools(tools: list[dict[str, Any]], limits: Limits) -> None:
    if len(tools) > limits.max_tools:
        raise ApiError(400, f"tools: {len(tools)} given, at most {limits.max_tools}",
                       "too_many_tools", "tools")
    for i, tool in enumerate(tools):
        function = tool.get("function") if tool.get("type", "function") == "function" else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(name, str):
            raise ApiError(400, f"tools[{i}]: expected {{\"type\": \"function\", \"function\": "
                           "{\"name\": ...}}", "invalid_value", f"tools.{i}")
        if resolve_name(name) is None:
            raise ApiError(400, f"tools[{i}]: this model calls only pagescout's tools "
                           f"({', '.join(tool_names())}), not {name!r}", "unsupported_tool",
                           f"tools.{i}")


def conversation(request: ChatRequest) -> list[dict[str, Any]]:
    """The request's messages as the runtime's conversation (text content, checked calls)."""
    out = []
    for i, message in enumerate(request.messages):
        role = ROLES.get(message.get("role"))
        if role is None:
            raise ApiError(400, f"messages[{i}].role: {message.get('role')!r} is not one of "
                           f"{', '.join(ROLES)}", "invalid_value", f"messages.{i}.role")
        item = {"role": role, "content": _text(message.get("content"), i)}
        if role == "tool" and message.get("name"):
            item["name"] = message["name"]
        if role == "assistant" and message.get("tool_calls"):
            item["tool_calls"] = _calls(message["tool_calls"], i)
        out.append(item)
    return out


def _text(content: Any, i: int) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list) and all(isinstance(p, dict) and p.get("type") == "text"
                                         and isinstance(p.get("text"), str) for p in content):
        return "".join(p["text"] for p in content)
    raise ApiError(400, f"messages[{i}].content: give text, or a list of {{\"type\": \"text\", "
                   "\"text\": ...}} parts (images and audio are not supported)",
                   "invalid_value", f"messages.{i}.content")


def _calls(entries: Any, i: int) -> list[dict[str, Any]]:
    if not isinstance(entries, list):
        raise ApiError(400, f"messages[{i}].tool_calls: must be a list", "invalid_value",
                       f"messages.{i}.tool_calls")
    for j, entry in enumerate(entries):
        call = from_openai(entry)
        if not isinstance(call, ToolCall):
            raise ApiError(400, f"messages[{i}].tool_calls[{j}]: {call.message}",
                           "invalid_tool_call", f"messages.{i}.tool_calls.{j}")
    return entries


def completion_body(request: ChatRequest, text: str, prompt_tokens: int, completion_tokens: int,
                    position: int = 0) -> dict[str, Any]:
    """A ``chat.completion`` for the model's raw ``text``."""
    message, finish = reply_message(text, position, tools_allowed=request.tool_choice != "none")
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion",
        "created": int(time.time()), "model": request.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish,
                     "logprobs": None}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def reply_message(text: str, position: int = 0, tools_allowed: bool = True
                  ) -> tuple[dict[str, Any], str]:
    """(assistant message, finish reason) of the model's text."""
    turn = turn_from_text(text, position)
    entries = turn.message.get("tool_calls") if tools_allowed else None
    if not entries:
        return {"role": "assistant", "content": turn.message["content"]}, "stop"
    calls = [{**e, "function": {**e["function"],
                                "arguments": json.dumps(e["function"]["arguments"],
                                                        ensure_ascii=False)}} for e in entries]
    return {"role": "assistant", "content": turn.message["content"] or None,
            "tool_calls": calls}, "tool_calls"


def stream_chunks(completion: dict[str, Any], include_usage: bool = False) -> list[str]:
    """The completion as server-sent events, the way the OpenAI API streams one: the role,
    the content, each tool call, the finish reason, the usage when asked, then ``[DONE]``."""
    choice = completion["choices"][0]
    message = choice["message"]
    head = {k: completion[k] for k in ("id", "created", "model")}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish,
                                     "logprobs": None}]}

    events = [chunk({"role": "assistant", "content": ""})]
    if message.get("content"):
        events.append(chunk({"content": message["content"]}))
    for i, call in enumerate(message.get("tool_calls") or []):
        events.append(chunk({"tool_calls": [{"index": i, **call}]}))
    events.append(chunk({}, choice["finish_reason"]))
    if include_usage:
        events.append({**head, "choices": [], "usage": completion["usage"]})
    return [f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events] + ["data: [DONE]\n\n"]
