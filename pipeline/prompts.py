"""The prompt an agent sees: one system prompt per mode and the user turn of a step.

Datagen's teachers, the trainer and the evaluator all build conversations with these functions, so
a model is trained on exactly what it is later asked::

    messages = [
        {"role": "system", "content": system_prompt("query_only")},
        {"role": "user", "content": user_turn(task, history, observation.text)},
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

from pipeline.observe import Mode

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
}
_ACTIONS = (
    " End each step with exactly one action: click, type (replaces the field's text), select (an "
    "option of a dropdown), press (a key), or done when the task is complete."
)
_BRIEF: dict[str, str] = {
    "query_only": "Web agent. Find elements with the query tools, then act on an index a tool "
                  "returned.",
    "hybrid": "Web agent. Act on an index from the page outline, or query for elements it leaves "
              "out.",
    "full": "Web agent. Act on an index of the listed elements.",
}


def system_prompt(mode: Mode) -> str:
    if mode not in _BY_MODE:
        raise ValueError(f"unknown agent mode {mode!r}; use one of {', '.join(_BY_MODE)}")
    return _COMMON + _BY_MODE[mode] + _ACTIONS


_BRIEF_OF = {system_prompt(mode): brief for mode, brief in _BRIEF.items()}


def brief_system_prompt(text: str) -> str:
    """The student's short form of a ``system_prompt(mode)`` text; any other text as it is."""
    return _BRIEF_OF.get(text, text)


def user_turn(task: str, history: Sequence[str], observation: str) -> str:
    """The task, the actions taken so far (oldest first), and what the page shows now."""
    done = "\n".join(f"- {action}" for action in history) if history else "- none"
    return f"Task: {task}\nPrevious actions:\n{done}\n\nCurrent page:\n{observation}"
