"""Verifier stage 1, format: is the conversation a well-formed tool-call trajectory?

Deterministic checks over ``Trajectory.messages`` (the ``pipeline.agent.prompts`` format): optional
system turns, one user turn, then assistant turns with exactly one tool call each, every call but
the last followed by its tool result, and the last call an action (click, type, select, press,
done). Each call must parse (arguments a dict or JSON text), name a registry tool and validate
(``validate_call``). The parsed conversation is returned for the later stages.

    verdict, conversation = check_format(trajectory.messages)   # conversation None on failure

Reason codes: ``no_user_turn``, ``bad_roles``, ``no_calls``, ``multiple_calls``,
``malformed_call``, ``unknown_tool``, ``bad_arguments``, ``missing_tool_result``,
``mismatched_tool_result``, ``query_after_action``, ``multiple_actions``, ``no_final_action``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from datagen.records import Verdict
from pipeline.tools import ToolCall, ToolError, from_openai

_ERROR_CODES = {"unknown_tool": "unknown_tool", "bad_json": "bad_arguments",
                "bad_arguments": "bad_arguments"}


@dataclass(frozen=True, slots=True)
class Turn:
    """One assistant call and the tool message that answered it (None for the final action)."""

    call: ToolCall
    result: str | None
    rationale: str = ""


@dataclass(frozen=True, slots=True)
class Conversation:
    user: str  # the user turn: task, previous actions and the observation
    turns: tuple[Turn, ...]

    @property
    def final(self) -> Turn:
        return self.turns[-1]

    @property
    def queries(self) -> tuple[Turn, ...]:
        return self.turns[:-1]


class _Reject(Exception):
    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.reason = f"{code}: {detail}"


def check_format(messages: Sequence[Mapping[str, Any]]) -> tuple[Verdict, Conversation | None]:
    """The stage-1 verdict and, when it passes, the parsed conversation."""
    try:
        conversation = parse_conversation(messages)
    except _Reject as reject:
        return Verdict("format", "fail", reject.reason), None
    return Verdict("format", "pass"), conversation


def parse_conversation(messages: Sequence[Mapping[str, Any]]) -> Conversation:
    """Parse and check the conversation; raises ``_Reject`` with the reason."""
    position = 0
    while position < len(messages) and _role(messages[position]) == "system":
        position += 1
    if position >= len(messages) or _role(messages[position]) != "user":
        raise _Reject("no_user_turn", "expected a user turn (after the system prompt) before the "
                      "first assistant turn")
    user = str(messages[position].get("content") or "")
    turns = _turns(messages, position + 1)
    _check_action_order(turns)
    return Conversation(user, tuple(turns))


def _turns(messages: Sequence[Mapping[str, Any]], start: int) -> list[Turn]:
    """Assistant calls paired with the tool message after each."""
    turns: list[Turn] = []
    position = start
    while position < len(messages):
        message = messages[position]
        if _role(message) != "assistant":
            raise _Reject("bad_roles", f"message {position} has role {_role(message)!r} where an "
                          "assistant turn was expected")
        call = _one_call(message, position)
        rationale = str(message.get("content") or "")
        position += 1
        if position == len(messages):
            turns.append(Turn(call, None, rationale))
            break
        turns.append(Turn(call, _tool_result(messages[position], call, position), rationale))
        position += 1
    if not turns:
        raise _Reject("no_calls", "the conversation has no assistant turn")
    if turns[-1].result is not None:
        raise _Reject("no_final_action", "the conversation ends with a tool message, not with "
                      "an action call")
    return turns


def _one_call(message: Mapping[str, Any], position: int) -> ToolCall:
    entries = message.get("tool_calls") or []
    if not isinstance(entries, list) or not entries:
        raise _Reject("no_calls", f"assistant message {position} has no tool call")
    if len(entries) > 1:
        raise _Reject("multiple_calls", f"assistant message {position} has {len(entries)} tool "
                      "calls; one per turn")
    call = from_openai(entries[0])
    if isinstance(call, ToolError):
        code = _ERROR_CODES.get(call.kind, "malformed_call")
        raise _Reject(code, f"message {position}: {call.message}")
    return call


def _tool_result(message: Mapping[str, Any], call: ToolCall, position: int) -> str:
    if _role(message) != "tool":
        raise _Reject("missing_tool_result", f"the {call.name} call in message {position - 1} is "
                      f"followed by a {_role(message)!r} message, not its tool result")
    name = message.get("name")
    if name is not None and name != call.name:
        raise _Reject("mismatched_tool_result", f"message {position} answers {name!r} but the "
                      f"call was {call.name!r}")
    content = message.get("content")
    if not isinstance(content, str):
        raise _Reject("missing_tool_result", f"tool message {position} has no text content")
    return content


def _check_action_order(turns: list[Turn]) -> None:
    """Queries first, exactly one action, and it comes last."""
    for index, turn in enumerate(turns[:-1]):
        if turn.call.kind == "action":
            following = turns[index + 1].call
            code = "query_after_action" if following.kind == "query" else "multiple_actions"
            raise _Reject(code, f"turn {index + 1} acts ({turn.call.name}) and turn {index + 2} "
                          f"calls {following.name}; a step ends with its one action")
    if turns[-1].call.kind != "action":
        raise _Reject("no_final_action", f"the last call is the query {turns[-1].call.name}; "
                      "a step ends with click, type, select, press or done")


def _role(message: Any) -> str:
    return str(message.get("role")) if isinstance(message, Mapping) else repr(message)
