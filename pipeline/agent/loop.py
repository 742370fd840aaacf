"""The step loop and the episode loop: a policy queries the page, then acts.

    outcome = await play_step(policy, situation, act, limits)       # one step
    record = await play_episode(policy, env, task, mode, limits)     # until done or max_steps

``play_step`` asks the policy for turns. A query tool call runs on the page state and its result
comes back as a tool message; the step ends with the first action the executor accepts (``act``
runs it: ``execute`` on a live page, ``execute_offline`` for recorded steps). With
``limits.feedback_errors`` (eval, serve) an unusable reply (no call, several calls, bad
arguments) or a refused action (unknown index, hidden, covered ...) is answered with a tool
message saying what is wrong and counts against ``max_tool_calls``, like a query; without it
(datagen's teachers) the step ends there with the reply recorded as it came. A step that uses
up its calls without an accepted action ends with stop ``max_tool_calls``; one in which the
policy repeats an action the page already refused in that step ends with stop
``repeated_refusal`` (at the second refusal: a policy going round in circles would spend its
remaining calls repeating itself, as browser-use stops at ``max_failures``). With
``limits.refuse_futile_repeats`` an action that changed nothing on the page is refused like
that too when the policy proposes it again before the page changes (it is not run: a second
time would change nothing either; browser-use's loop detection nudges its model the same way).
One whose last ``max_invalid_replies`` replies in a row held no usable call ends with stop
``invalid_replies`` (a policy that cannot write the call format -- an untuned base model --
would only spend the rest of its calls writing more of the same; browser-use's
``max_failures`` plays this part).
Model output never raises; a policy that raises ends the step with ``policy_error``.

``play_episode`` runs steps on an ``Environment`` (the live MiniWoB++ harness, BrowserGym, the
server's browser sessions): each step observes a fresh page, plays the step, executes the action,
adds its Mind2Web-style history line (the next user turn also says what the action changed on
the page, or that it changed nothing: ``pipeline.agent.progress``), and stops -- ``stop`` says
why -- when the environment says the episode is over (``finished``), the policy calls ``done``,
``max_steps`` steps were taken, ``max_idle_steps`` steps in a row ended without an accepted
action (``idle``: a policy that cannot act would only burn the step budget), or a step ended
with ``invalid_replies`` (the episode stops with that reason).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from pipeline.agent.conversation import tool_message
from pipeline.agent.execute import ToolResult, run_query
from pipeline.agent.modes import Mode
from pipeline.agent.policy import Policy, Situation, Turn
from pipeline.agent.progress import PreviousStep, changed_nothing
from pipeline.distill.model import DistilledPage
from pipeline.tools import ToolCall, ToolError

ActionRunner = Callable[[ToolCall, DistilledPage], Awaitable[ToolResult]]
FUTILE = ("Error: this is the action of the step before, which changed nothing on the page; "
          "doing it again will not help. Choose another element or action.")


@dataclass(frozen=True, slots=True)
class StepLimits:
    max_tool_calls: int = 6  # query calls (and, with feedback, rejected replies) per step
    feedback_errors: bool = True  # answer bad replies / refused actions instead of stopping
    max_steps: int = 10  # steps per episode
    max_idle_steps: int = 3  # an episode stops after this many steps in a row without an action
    max_invalid_replies: int = 3  # unusable replies in a row that end the step and the episode
    refuse_futile_repeats: bool = False  # refuse the previous action again when it did nothing


@dataclass(slots=True)
class StepOutcome:
    messages: list[dict[str, Any]]
    stop: str  # "action", "max_tool_calls", "invalid_call: <kind>", "refused: <error>", ...
    action: ToolCall | None = None
    result: ToolResult | None = None  # the executed action's result
    turns: list[Turn] = field(default_factory=list)
    queries: int = 0  # query tool calls run
    rejected: int = 0  # replies that were unusable or actions that were refused
    seconds: float = 0.0
    error: BaseException | None = None  # what the policy raised (stop "policy_error: ...")
    refused_calls: list[ToolCall] = field(default_factory=list)  # refused actions in this step
    futile: ToolCall | None = None  # the step before's action, which changed nothing (refused)

    @property
    def prompt_tokens(self) -> int:
        return sum(t.prompt_tokens for t in self.turns)

    @property
    def completion_tokens(self) -> int:
        return sum(t.completion_tokens for t in self.turns)

    @property
    def valid_calls(self) -> int:
        return sum(1 for t in self.turns if isinstance(t.call, ToolCall))

    def to_dict(self) -> dict[str, Any]:
        return {"stop": self.stop, "messages": self.messages,
                "action": None if self.action is None else
                {"name": self.action.name, "arguments": self.action.arguments},
                "result": None if self.result is None else
                {"ok": self.result.ok, "text": self.result.text, "error": self.result.error},
                "turns": len(self.turns), "valid_calls": self.valid_calls,
                "queries": self.queries, "rejected": self.rejected,
                "forked": sum(1 for t in self.turns if t.meta.get("fork")),
                "copied": sum(1 for t in self.turns if "copied" in t.meta),
                "repeated": sum(1 for t in self.turns if "repeated" in t.meta),
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "seconds": round(self.seconds, 4)}


async def play_step(policy: Policy, situation: Situation, act: ActionRunner,
                    limits: StepLimits, out: StepOutcome | None = None) -> StepOutcome:
    """One step: turns until an accepted action or the call limit (see module doc). ``out``,
    when given, is the outcome filled turn by turn (a caller whose step may be cancelled keeps
    what it did so far)."""
    started = time.perf_counter()
    out = out if out is not None else StepOutcome(situation.messages, "max_tool_calls")
    invalid = 0  # unusable replies in a row
    for _ in range(limits.max_tool_calls + 1):
        try:
            turn = await policy.next_turn(situation)
        except Exception as exc:  # noqa: BLE001 -- a policy bug or a dead endpoint ends the step
            out.stop, out.error = f"policy_error: {type(exc).__name__}: {exc}"[:300], exc
            break
        out.turns.append(turn)
        out.messages.append(turn.message)
        stop = await _take(turn, situation, act, limits, out)
        if stop:
            out.stop = stop
            break
        invalid = invalid + 1 if isinstance(turn.call, ToolError) else 0
        if invalid >= limits.max_invalid_replies:
            out.stop = "invalid_replies"
            break
    out.seconds = time.perf_counter() - started
    return out


async def _take(turn: Turn, situation: Situation, act: ActionRunner, limits: StepLimits,
                out: StepOutcome) -> str | None:
    """Handle one turn; returns why the step stops, or None to ask for another turn."""
    call = turn.call
    if isinstance(call, ToolError):
        if not limits.feedback_errors:
            return f"invalid_call: {call.kind}"
        out.rejected += 1
        out.messages.append(tool_message(call.name or "error", f"Error: {call.message}"))
        return None
    if call.kind == "query":
        result = run_query(call, situation.page)
        out.queries += 1
        out.messages.append(tool_message(call.name, result.text))
        return None
    if call == out.futile and limits.feedback_errors:
        out.rejected += 1
        out.messages.append(tool_message(call.name, FUTILE))
        if call in out.refused_calls:
            return "repeated_refusal"
        out.refused_calls.append(call)
        return None
    result = await act(call, situation.page)
    if result.ok or not limits.feedback_errors:
        out.action, out.result = call, result
        return "action" if result.ok else f"refused: {result.error}"
    out.rejected += 1
    text = result.text if result.text.startswith("Error") else f"Error: {result.text}"
    out.messages.append(tool_message(call.name, text))
    if call in out.refused_calls:  # the page refused this very call (==: canonical arguments)
        return "repeated_refusal"
    out.refused_calls.append(call)
    return None


class Environment(Protocol):
    """A live page an episode plays on (the MiniWoB++ harness, BrowserGym, a served session)."""

    async def observe(self) -> DistilledPage:
        """A fresh capture of the page, distilled."""
        ...

    async def act(self, call: ToolCall, page: DistilledPage) -> ToolResult:
        """Execute an action on the live page."""
        ...

    async def finished(self) -> bool:
        """Whether the episode is over (the task judged it)."""
        ...


@dataclass(slots=True)
class EpisodeRecord:
    task: str
    mode: Mode
    steps: list[StepOutcome] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    stop: str = "max_steps"  # "finished", "done", "max_steps", "idle", "invalid_replies"
    answer: str | None = None  # done's answer
    seconds: float = 0.0
    current: StepOutcome | None = None  # the step being played (None between steps)

    def interrupt(self, reason: str) -> None:
        """Keep the step being played, as far as it got, with stop ``reason`` (an episode
        stopped from outside: a time limit, a crashed browser)."""
        if self.current is not None:
            self.current.stop = reason
            self.steps.append(self.current)
            self.current = None
        self.stop = reason

    def to_dict(self) -> dict[str, Any]:
        return {"task": self.task, "mode": self.mode, "stop": self.stop, "answer": self.answer,
                "history": self.history, "steps": [s.to_dict() for s in self.steps],
                "seconds": round(self.seconds, 4)}


HistoryLine = Callable[[ToolCall, DistilledPage], str]


async def play_episode(policy: Policy, env: Environment, task: str, mode: Mode,
                       limits: StepLimits, history_line: HistoryLine,
                       opening: Callable[..., list[dict[str, Any]]], gold: Any = None,
                       on_step: Callable[[StepOutcome], Awaitable[None]] | None = None,
                       record: EpisodeRecord | None = None) -> EpisodeRecord:
    """Steps until the environment is finished, the policy says done, or ``max_steps``.

    ``opening(task, history, page, mode, previous)`` builds a step's first messages
    (``pipeline.agent.conversation.opening``; ``previous``: the step before, its page and
    accepted action, whose effect the user turn states); ``history_line(action, page)`` the line the
    action adds to the history, from the page it acted on; ``on_step(outcome)``, when given,
    hears of each step as it ends (the server streams agent runs with it). ``record``, when
    given, is filled as the episode goes, the step in progress included (``current``): a caller
    that stops the episode from outside keeps what it did (``EpisodeRecord.interrupt``)."""
    started = time.perf_counter()
    record = record if record is not None else EpisodeRecord(task, mode)
    previous: PreviousStep | None = None
    futile: ToolCall | None = None  # an action that changed nothing, until the page changes
    idle = 0
    for _ in range(limits.max_steps):
        page = await env.observe()
        checks_futile = limits.refuse_futile_repeats and previous is not None
        if checks_futile:
            if previous.action is not None:  # what the last action did
                futile = previous.action if changed_nothing(previous, page) else None
            elif futile is not None and not changed_nothing(previous, page):
                futile = None  # the page moved on its own since
            previous = replace(previous, futile=futile)
        messages = opening(task, record.history, page, mode, previous)
        situation = Situation(task, list(record.history), mode, messages, page, gold)
        record.current = StepOutcome(messages, "max_tool_calls")
        if checks_futile:
            record.current.futile = futile
        outcome = await play_step(policy, situation, env.act, limits, record.current)
        record.current = None
        record.steps.append(outcome)
        if on_step is not None:
            await on_step(outcome)
        acted = outcome.action is not None and outcome.result is not None and outcome.result.ok
        previous = PreviousStep(page, outcome.action if acted else None)
        if not acted:
            record.history.append(f"(no action: {outcome.stop})")
            idle += 1
            if await env.finished():
                record.stop = "finished"
                break
            if outcome.stop == "invalid_replies":
                record.stop = "invalid_replies"
                break
            if idle >= limits.max_idle_steps:
                record.stop = "idle"
                break
            continue
        idle = 0
        if outcome.result.done:
            record.stop, record.answer = "done", outcome.result.answer
            break
        record.history.append(history_line(outcome.action, page))
        if await env.finished():
            record.stop = "finished"
            break
    record.seconds = time.perf_counter() - started
    return record
