"""The Policy protocol: given the conversation of a step so far, the next assistant turn.

    turn = await policy.next_turn(situation)
    turn.call        # the parsed ToolCall, or the codec's ToolError for output it cannot use
    turn.message     # the assistant message as recorded (rationale + the call(s) as written)

A policy sees a ``Situation``: the task, the history, the agent mode, the step's conversation
(``messages``: system, user, then assistant/tool turns) and the distilled page. Model policies
read only the messages; the random baseline reads the page to pick an element; oracles read
``gold``, which the harness fills (offline: the recorded Step; live: the scripted task policy).
Implementations: ``pipeline.agent.model_policy`` (a local model, batched), ``openai_policy``
(any OpenAI-compatible endpoint), and eval's oracle and random baselines. ``next_turn`` is async
so that policies serving many episodes at once can batch them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pipeline.agent.modes import Mode
from pipeline.distill.model import DistilledPage
from pipeline.tools import ToolCall, ToolError, parse_calls, strip_special, to_openai


@dataclass(slots=True)
class Situation:
    task: str
    history: Sequence[str]  # earlier actions, oldest first (Mind2Web action_reprs)
    mode: Mode
    messages: list[dict[str, Any]]  # the step's conversation so far
    page: DistilledPage
    gold: Any = None  # what an oracle may read: the recorded Step, or the live task's oracle


@dataclass(slots=True)
class Turn:
    """One assistant reply. ``calls`` holds every call the reply wrote (parsed or not);
    ``call`` is the one the loop acts on, or the error that makes the reply unusable."""

    message: dict[str, Any]
    calls: list[ToolCall | ToolError]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    meta: dict[str, Any] = field(default_factory=dict)  # policy-specific (latency, attempts ...)

    @property
    def call(self) -> ToolCall | ToolError:
        if not self.calls:
            return ToolError("no_call", "the reply holds no tool call; end each turn with one "
                             "call such as <bu_query>{\"text\": \"...\"}<bu_end>")
        if len(self.calls) > 1:
            return ToolError("multiple_calls", f"{len(self.calls)} calls given; give exactly one "
                             "call per turn and wait for its result")
        return self.calls[0]

    @property
    def rationale(self) -> str:
        return self.message.get("content") or ""


class Policy(Protocol):
    name: str

    async def next_turn(self, situation: Situation) -> Turn:
        """The next assistant turn of the step (never raises on what a model writes)."""
        ...


def turn_from_text(text: str, position: int = 0, **usage: Any) -> Turn:
    """A Turn from a model's raw text (rationale, then functional-token or JSON calls): the
    message keeps the rationale and the calls when all are valid, else the text as written.
    ``position`` is the number of calls earlier in the conversation (``calls_before``), which
    keeps call ids unique."""
    calls = parse_calls(text)
    valid = [c for c in calls if isinstance(c, ToolCall)]
    if calls and len(valid) == len(calls):
        message = {"role": "assistant", "content": rationale_of(text),
                   "tool_calls": [to_openai(c, position + i, string_arguments=False)
                                  for i, c in enumerate(valid)]}
    else:
        message = {"role": "assistant", "content": strip_special(text)}
    return Turn(message, calls, **usage)


def rationale_of(text: str) -> str:
    """The text before the first call (the model's reasoning), without chat markers."""
    clean = strip_special(text)
    cut = [i for i in (clean.find("<bu_"), clean.find("<BU_"), clean.find("{")) if i >= 0]
    return clean[:min(cut)].strip() if cut else clean


def turn_from_calls(calls: Sequence[ToolCall], rationale: str = "", position: int = 0) -> Turn:
    """A Turn that writes the given calls (oracles and baselines)."""
    message = {"role": "assistant", "content": rationale,
               "tool_calls": [to_openai(c, position + i, string_arguments=False)
                              for i, c in enumerate(calls)]}
    return Turn(message, list(calls))


def calls_before(messages: Sequence[Mapping[str, Any]]) -> int:
    """How many tool calls the conversation's assistant turns hold so far."""
    return sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")
