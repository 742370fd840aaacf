"""The prompt an agent sees: one system prompt per mode and the user turn of a step.

Datagen's teachers, the trainer and the evaluator all build conversations with these functions, so
a model is trained on exactly what it is later asked::

    messages = [
        {"role": "system", "content": system_prompt("query_only")},
        {"role": "user", "content": user_turn(task, history, observation.text,
                                              effect_line(previous, page))},
        # assistant turns carry one tool call each; tool turns carry the result text
    ]

A conversation in the TRL conversational tool format: assistant messages have ``content`` (a short
rationale, may be empty) and ``tool_calls`` = ``[{"type": "function", "function": {"name",
"arguments": {...}}}]`` with one call; tool messages are ``{"role": "tool", "name", "content"}``.
The last assistant call is the step's action (click, type, select, press or done).

A fine-tuned student is trained and prompted with ``brief_system_prompt`` in place of the full
one: the mode stays, the instructions (which the student learns from the data) go -- ~130 of a
query_only conversation's ~440 tokens on SmolLM2's tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence

from pipeline.agent.modes import Mode, check_mode
from pipeline.agent.observe import tool_list
from pipeline.tools import END_TOKEN, ToolCall, functional_tokens, make_call, to_tokens

_COMMON = (
    "You are a web agent. You complete the user's task on the current web page, one action "
    "per step. Elements are referred to by their index, e.g. [12]. "
)
_BY_MODE: dict[str, str] = {
    "query_only": (
        "You do not see the page's elements: find them with the query tools (query_elements, "
        "get_region, get_element_details, get_page_summary), then act on an index that a tool "
        "returned. Prefer one precise query_elements call; never guess an index."
    ),
    "hybrid": (
        "You see an outline of the page by landmark regions. Act on an index from the outline, "
        "or use the query tools to find elements the outline collapses or leaves out."
    ),
    "full": "You see every interactive element of the page. Act on one of their indices.",
    "planned": (
        "You do not see the page's elements, but the step lists the engine's best candidates "
        "for it. Act on a candidate's index when it is the element the task needs now; "
        "otherwise find elements with the query tools and act on an index a tool returned."
    ),
}
_ACTIONS = (
    " End each step with exactly one action: click, type (replaces the field's text), select (an "
    "option of a dropdown, or a slider's number), press (a key), or done when the task is complete."
)
_BRIEF: dict[str, str] = {
    "query_only": "Web agent. Find elements with the query tools, then act on an index a tool "
                  "returned.",
    "hybrid": "Web agent. Act on an index from the page outline, or query for elements it leaves "
              "out.",
    "full": "Web agent. Act on an index of the listed elements.",
    "planned": "Web agent. Act on a listed candidate, or find elements with the query tools, "
               "then act on an index a tool returned.",
}


def system_prompt(mode: Mode) -> str:
    return _COMMON + _BY_MODE[check_mode(mode)] + _ACTIONS


_BRIEF_OF = {system_prompt(mode): brief for mode, brief in _BRIEF.items()}


_MODE_OF = {system_prompt(mode): mode for mode in _BY_MODE} | {
    brief: mode for mode, brief in _BRIEF.items()}


def mode_of(text: str) -> Mode:
    """The agent mode a system prompt (full or brief) was written for; ``query_only`` for any
    other text."""
    return _MODE_OF.get(text, "query_only")


def is_agent_prompt(text: str) -> bool:
    """Whether ``text`` is one of the agent's system prompts (full or brief), as opposed to a
    prompt of a caller's own (a judge's, a chat client's)."""
    return text in _MODE_OF


def brief_system_prompt(text: str) -> str:
    """The student's short form of a ``system_prompt(mode)`` text; any other text as it is."""
    return _BRIEF_OF.get(text, text)


def user_turn(task: str, history: Sequence[str], observation: str, effect: str = "") -> str:
    """The task, the actions taken so far (oldest first), what the last one did to the page
    (``pipeline.agent.progress.effect_line``, when there was one), and what the page shows now."""
    done = "\n".join(f"- {action}" for action in history) if history else "- none"
    effect = f"\n{effect}" if effect else ""
    return f"Task: {task}\nPrevious actions:\n{done}{effect}\n\nCurrent page:\n{observation}"


def _examples() -> list[tuple[str, list[tuple[str, ToolCall, str | None]]]]:
    """Two worked steps (task; rationale, call, tool result) for the untuned baseline."""
    return [
        ("Click the \"Submit\" button.", [
            ("Searching for the Submit button.",
             make_call("query_elements", text="submit", role="button"),
             "1 match:\n[7] <button>Submit</button> in MAIN"),
            ("Clicking the \"Submit\" button: [7].", make_call("click", index=7), None)]),
        ("Enter \"Kenda\" as the username.", [
            ("Listing the text fields.", make_call("query_elements", role="textbox"),
             ("2 matches:\n[3] <input placeholder=Username />\n"
              "[4] <input type=password placeholder=Password />")),
            ("Typing \"Kenda\" into the Username field: [3].",
             make_call("type", index=3, text="Kenda"), None)]),
    ]


def untuned_system_prompt(mode: Mode) -> str:
    """The system prompt for a model never trained on the tools (the untuned baseline): the
    mode's prompt, the tool list, the call format and two worked examples."""
    tokens = ", ".join(functional_tokens()[:-1])
    how = (f"Write one short sentence, then exactly one call: a tool token ({tokens}), its "
           f"JSON arguments, then {END_TOKEN}. Examples:")
    lines = [system_prompt(mode), "", tool_list(), "", how]
    for task, turns in _examples():
        lines.append(f"\nTask: {task}")
        for thinking, call, result in turns:
            lines.append(f"Assistant: {thinking}\n{to_tokens(call)}")
            if result:
                lines.append(f"Tool: {result}")
    return "\n".join(lines)
