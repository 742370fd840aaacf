"""A policy behind any OpenAI-compatible chat endpoint (vLLM, llama.cpp's server, OpenAI ...).

    policy = OpenAIPolicy(OpenAIClient(ClientConfig(base_url=..., model=...)))
    turn = await policy.next_turn(situation)

The step's messages go out in the API's form (``api_messages``: JSON-text arguments,
``tool_call_id``s) with the tool schemas; the reply's ``tool_calls`` are decoded by the codec.
A reply without ``tool_calls`` is read as a local model's text is (``turn_from_text``): calls
written in its content (functional tokens or JSON) count, and one that holds none, or a broken
one, gets the same error a local model would -- so pagescout's own server behind this policy
plays exactly the episodes the in-process model plays.
The reply is recorded as it came: valid calls with dict arguments, invalid ones with their raw
arguments (a dict when they parse as JSON, else the text). ``turn.meta`` holds the usage,
latency, attempts and finish reason; a request that fails for good raises ``LLMError`` (the
loop ends the step with it).
"""

from __future__ import annotations

import asyncio
import json
from functools import cache
from typing import Any

from pipeline.agent.conversation import api_messages
from pipeline.agent.openai_client import ChatResult, OpenAIClient
from pipeline.agent.policy import Situation, Turn, calls_before, turn_from_text
from pipeline.tools import ToolCall, ToolError, from_openai_message, openai_tools, to_openai


class OpenAIPolicy:
    def __init__(self, client: OpenAIClient, seed: int | None = None) -> None:
        self.client = client
        self.seed = seed
        self.name = f"openai:{client.config.model}"

    async def next_turn(self, situation: Situation) -> Turn:
        params = {} if self.seed is None else {"seed": self.seed}
        reply = await asyncio.to_thread(self.client.chat, api_messages(situation.messages),
                                        tools=tool_schemas(), **params)
        usage = {"prompt_tokens": reply.usage.prompt_tokens,
                 "completion_tokens": reply.usage.completion_tokens, "seconds": reply.latency,
                 "meta": turn_meta(reply)}
        if not reply.message.get("tool_calls"):  # calls written as text, or none at all
            return turn_from_text(reply.message.get("content") or "",
                                  calls_before(situation.messages), **usage)
        decoded = from_openai_message(reply.message)
        return Turn(recorded(reply.message, decoded), decoded, **usage)


def recorded(message: dict[str, Any], decoded: list[ToolCall | ToolError]) -> dict[str, Any]:
    """The reply as it came: valid calls with dict arguments, invalid ones with their raw
    arguments (a dict when they parsed as JSON, else the text)."""
    entries = []
    for raw, call in zip(message.get("tool_calls") or [], decoded, strict=False):
        if isinstance(call, ToolCall):
            entries.append(to_openai(call, len(entries), string_arguments=False))
        else:
            entries.append(_parsed_arguments(raw))
    out = {"role": "assistant", "content": message.get("content") or ""}
    if entries:
        out["tool_calls"] = entries
    return out


def _parsed_arguments(entry: Any) -> Any:
    """A raw tool_calls entry with its arguments as a dict when they are a JSON object."""
    function = entry.get("function") if isinstance(entry, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("arguments"), str):
        return entry
    try:
        arguments = json.loads(function["arguments"])
    except ValueError:
        return entry
    if not isinstance(arguments, dict):
        return entry
    return {**entry, "function": {**function, "arguments": arguments}}


def turn_meta(reply: ChatResult) -> dict[str, Any]:
    return {**reply.usage.to_dict(), "latency": round(reply.latency, 4),
            "attempts": reply.attempts, "finish_reason": reply.finish_reason}


def tool_schemas() -> list[dict[str, Any]]:
    """A fresh copy of ``openai_tools()`` (building the schemas costs milliseconds per call)."""
    return json.loads(_tool_schemas_text())


@cache
def _tool_schemas_text() -> str:
    return json.dumps(openai_tools())
