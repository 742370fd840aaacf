"""Building a step's conversation in the TRL conversational tool format, and converting it.

    convo = Conversation.open(task, history, page, "query_only")     # system + user turn
    convo = Conversation.open(task, history, page, mode, PreviousStep(page_before, action))
    result = convo.call(make_call("query_elements", text="ok", role="button"), "Searching ...")
    convo.act(make_call("click", index=result.refs[0]), "Clicking the \"OK\" button: [3].")
    convo.messages     # system, user, assistant(tool_calls), tool, ..., assistant(action)

Assistant messages carry a short rationale as ``content`` and one call in ``tool_calls`` with
its arguments as a dict (what chat templates and TRL expect); tool messages are
``{"role": "tool", "name", "content"}`` with the real engine's result text (``execute_offline``).
The conversation ends with the action call, without a tool message after it.

``api_messages`` turns such messages into what an OpenAI-compatible endpoint accepts (arguments as
JSON text, ``tool_call_id`` on tool messages).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pipeline.agent.execute import ToolResult, execute_offline
from pipeline.agent.modes import Mode
from pipeline.agent.observe import observe, step_candidates
from pipeline.agent.progress import PreviousStep, effect_line
from pipeline.agent.prompts import system_prompt, user_turn
from pipeline.distill.model import DistilledPage
from pipeline.tools import ToolCall, to_openai


def opening(task: str, history: Sequence[str], page: DistilledPage, mode: Mode,
            previous: PreviousStep | None = None) -> list[dict[str, Any]]:
    """The system prompt of ``mode`` and the step's user turn (task, history, what the last
    action did, observation; in ``planned`` mode with the step's candidates). ``previous`` is
    the step before: its page, against which hybrid and full collapse what did not change, and
    its action, whose effect the turn states; an element whose action changed nothing on this
    page (``previous.futile``) is the last of the candidates."""
    before = previous.page if previous is not None else None
    futile = previous.futile if previous is not None else None
    avoid = futile.arguments.get("index") if futile is not None else None
    candidates = step_candidates(task, history, page, avoid=avoid) if mode == "planned" else ""
    observation = observe(page, mode, before, candidates).text
    return [
        {"role": "system", "content": system_prompt(mode)},
        {"role": "user", "content": user_turn(task, history, observation,
                                              effect_line(previous, page))},
    ]


def assistant_message(call: ToolCall, thinking: str, position: int) -> dict[str, Any]:
    """One assistant turn: the rationale and one call (arguments as a dict, a stable id)."""
    return {"role": "assistant", "content": thinking,
            "tool_calls": [to_openai(call, position, string_arguments=False)]}


def tool_message(name: str, text: str) -> dict[str, Any]:
    return {"role": "tool", "name": name, "content": text}


@dataclass
class Conversation:
    """A growing conversation over one page; queries run on the real engine as they are added."""

    page: DistilledPage
    messages: list[dict[str, Any]]
    calls: list[ToolCall] = field(default_factory=list)

    @classmethod
    def open(cls, task: str, history: Sequence[str], page: DistilledPage, mode: Mode,
             previous: PreviousStep | None = None) -> Conversation:
        return cls(page, opening(task, history, page, mode, previous))

    @property
    def observation(self) -> str:
        """The user turn (task, history and what the page shows)."""
        return self.messages[1]["content"]

    def call(self, call: ToolCall, thinking: str) -> ToolResult:
        """Add a query call and its result from the engine; returns the result."""
        result = execute_offline(call, self.page)
        self._add(call, thinking)
        self.messages.append(tool_message(call.name, result.text))
        return result

    def act(self, call: ToolCall, thinking: str) -> None:
        """Add the final action call (no tool message follows it)."""
        self._add(call, thinking)

    def _add(self, call: ToolCall, thinking: str) -> None:
        self.messages.append(assistant_message(call, thinking, len(self.calls)))
        self.calls.append(call)


def api_messages(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Messages for an OpenAI-compatible request: arguments as JSON text, and each tool message
    answering the earliest unanswered call of the same name by its ``tool_call_id``."""
    out: list[dict[str, Any]] = []
    pending: list[tuple[str, str]] = []  # (call id, name) not yet answered
    for message in messages:
        item = dict(message)
        if item.get("tool_calls"):
            item["tool_calls"] = [_string_arguments(entry) for entry in item["tool_calls"]]
            pending += [(e.get("id", ""), e.get("function", {}).get("name", ""))
                        for e in item["tool_calls"]]
        elif item.get("role") == "tool":
            match = next((p for p in pending if p[1] == item.get("name")), None)
            match = match or (pending[0] if pending else None)
            if match is not None:
                pending.remove(match)
                item["tool_call_id"] = match[0]
        out.append(item)
    return out


def _string_arguments(entry: Mapping[str, Any]) -> dict[str, Any]:
    function = dict(entry.get("function", {}))
    arguments = function.get("arguments")
    if not isinstance(arguments, str):
        function["arguments"] = json.dumps(arguments if arguments is not None else {},
                                           ensure_ascii=False)
    return {**entry, "function": function}
