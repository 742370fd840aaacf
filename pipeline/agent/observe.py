"""What the model sees of the page at each step, for the agent modes.

    full        the flat rendering of the whole page (browser-use style): no query tools needed
    hybrid      the landmark outline (unchanged regions collapsed against the previous step)
                plus the tool list
    query_only  URL, title, scroll, element counts, text fields (what each holds) and landmark
                names, plus the tool list: the model finds elements with the query tools
    planned     query_only plus the step's candidates (``step_candidates``: the top results of
                what ``query_for_step`` plans from the task and the history), so a step
                whose target the engine already ranks first takes no query

    obs = observe(page, "query_only")          # Observation(mode, text, tokens)
    obs = observe(page, "hybrid", previous=last_page)
    obs = observe(page, "planned", candidates=step_candidates(task, history, page))

Token counts come from ``pipeline.model.token_count`` (the real SmolLM2 tokenizer when installed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.agent.modes import Mode, check_mode
from pipeline.distill.model import DistilledPage
from pipeline.model.token_count import count_tokens
from pipeline.query import QueryResult, index_for, query_elements
from pipeline.query.asked_passage import asked_passage
from pipeline.query.counted import counted
from pipeline.query.dates import page_months, year_jump
from pipeline.query.editor_keys import editor_colour, editor_keys
from pipeline.query.filters import role_test
from pipeline.query.format import result_line
from pipeline.query.given_values import given_value
from pipeline.query.guesses import guess_hint
from pipeline.query.index import PageIndex
from pipeline.query.instruction import InstructionQuery, query_for_step
from pipeline.query.listed_values import listed_value, shown_number
from pipeline.query.places import drop_places
from pipeline.query.shown_values import asked_value
from pipeline.query.summary import page_overview, scroll_line
from pipeline.query.text import HISTORY_LINE
from pipeline.render import render_flat, render_outline
from pipeline.tools.registry import TOOLS, ToolKind

CANDIDATES = 3  # elements the ``planned`` mode lists for a step
_TEXT_FIELD = role_test("textbox")
CANDIDATES_HEADER = "Candidates for this step (the engine's reading of the task, best first):"


@dataclass(slots=True)
class Observation:
    mode: Mode
    text: str
    tokens: int


def observe(page: DistilledPage, mode: Mode, previous: DistilledPage | None = None,
            candidates: str = "") -> Observation:
    """The observation text of ``page`` in ``mode`` and its token count; ``candidates`` (the
    ``planned`` mode's block) goes before the tool list."""
    mode = check_mode(mode)
    if mode == "full":
        text = full_observation(page, previous)
    elif mode == "hybrid":
        text = hybrid_observation(page, previous)
    else:
        text = query_only_observation(page, candidates if mode == "planned" else "")
    return Observation(mode, text, count_tokens(text))


def full_observation(page: DistilledPage, previous: DistilledPage | None = None) -> str:
    state = page.state
    head = [f'Page: "{state.title}" {state.shown_url}'.rstrip(), scroll_line(page), "Elements:"]
    return "\n".join([line for line in head if line] + [render_flat(page, previous=previous)])


def hybrid_observation(page: DistilledPage, previous: DistilledPage | None = None) -> str:
    return "\n".join([render_outline(page, previous=previous), "", tool_list()])


def query_only_observation(page: DistilledPage, candidates: str = "") -> str:
    parts = [page_overview(page), candidates] if candidates else [page_overview(page)]
    return "\n\n".join([*parts, tool_list()])


def planned_search(task: str, history: Sequence[str],
                   page: DistilledPage) -> tuple[InstructionQuery, QueryResult]:
    """What ``query_for_step`` plans for the step (the task's clause at its position) and what
    ``query_elements`` finds for it: the planner's reading of the step, which the ``planned``
    mode lists and eval's planner baseline acts on."""
    plan = query_for_step(task, list(history))
    return plan, query_elements(page, **plan.arguments)


def step_candidates(task: str, history: Sequence[str], page: DistilledPage,
                    count: int = CANDIDATES, avoid: int | None = None) -> str:
    """The ``planned`` mode's block: the first ``count`` results of ``planned_search``, as
    ``query_elements`` prints them, ``avoid`` (an element whose action just changed nothing:
    the next result takes its place) last -- a click that focuses a terminal changes nothing
    the page shows, and its keys go to it next; when the task drags the first, a list's item
    or a drawn shape, the first and then where it can go (``drop_places``: the other items of
    its list, the boxes of its drawing); a text field or a slider shows after it what the
    page or the task says of its value (``_shown_value``); until the history selected text,
    the passage the task asks to highlight follows the candidates (``asked_passage``); an
    editor whose key is due (``editor_keys``: select everything, a style's shortcut) leads,
    the key beside it, and so does the colour picker's part due (``editor_colour``)."""
    plan, found = planned_search(task, history, page)
    refs = [ref for ref in found.refs if ref != avoid]
    if avoid in found.refs[:count]:
        refs = [*refs[:count - 1], avoid]
    index = index_for(page)
    keys = editor_keys(index, task, history)
    lead = keys[0] if keys else editor_colour(index, task, history)
    if lead is not None:
        refs = [lead, *(ref for ref in refs if ref != lead)]
    if not refs:
        return "Candidates for this step: none; find elements with the query tools."
    places = drop_places(index, task, refs[0])
    hint = _field_hint(page, task, history, plan.arguments.get("calendar_date"))
    lines = [result_line(index, ref) + _shown_value(index, ref, task, hint)
             + (f" — press {keys[1]}: {keys[2]}" if keys and ref == keys[0] else "")
             for ref in ([refs[0], *places] if places else refs[:count])]
    passage = asked_passage(page, task)
    if passage and not _selected_text(history):
        lines.append(f'The text of {passage[0]}: "{passage[1]}"')
    return CANDIDATES_HEADER + "\n" + "\n".join(lines)


def _selected_text(history: Sequence[str]) -> bool:
    """Whether a line of ``history`` selected text (``-> SELECT_TEXT: ...``)."""
    return any((line_read := HISTORY_LINE.match(line)) and line_read["op"] == "SELECT_TEXT"
               for line in history)


def _field_hint(page: DistilledPage, task: str, history: Sequence[str],
                date: str | None) -> str:
    """What the page tells of the value any text field of the step takes: `` — the number
    lies in 0-3: guess 1`` when the task has a number guessed (``guesses.guess_hint``),
    `` — press Control+PageUp: a year back`` when the task's ``date`` is a year's jump away on
    the calendar shown (``dates.year_jump``), `` — the page shows 7 blocks`` when the task asks
    for a count (``counted.counted``); else ""."""
    guess = guess_hint(page, task, history)
    if guess:
        return f" — the number lies in {guess[0]}-{guess[1]}: guess {guess[2]}"
    jump = year_jump(date, page_months(page)) if date else None
    if jump:
        return f" — press {jump}: a year {'back' if jump.endswith('Up') else 'ahead'}"
    count = counted(page, task)
    return f" — the page shows {count[0]} {count[1]}" if count else ""


def _shown_value(index: PageIndex, ref: int, task: str, field_hint: str) -> str:
    """`` — the page shows Language: Punjabi`` after a text field the page's record pairs with
    a value (``shown_values.asked_value``), `` — the task gives To: PAK`` after a text field
    whose label the task follows with a value (``given_values.given_value``), the step's
    ``field_hint`` after any other text field (``_field_hint``), `` — the task's 2nd value: 3
    (now 0)`` after a slider the task's list gives one (``listed_values.listed_value``), with
    what it shows (``(set)`` once that is its value), else ""."""
    pair = asked_value(index, ref, task)
    if pair:
        return f" — the page shows {pair[0]}: {pair[1]}"
    given = given_value(index, ref, task)
    if given:
        return f" — the task gives {given[0].rstrip(':')}: {given[1]}"
    if field_hint and _TEXT_FIELD(index.entries[ref]):
        return field_hint
    listed = listed_value(index, ref, task)
    if listed is None:
        return ""
    shown = shown_number(index, ref)
    now = "" if shown is None else " (set)" if shown == float(listed[1]) else f" (now {shown:g})"
    return f" — the task's {listed[0]} value: {listed[1]}{now}"


def tool_list(kind: ToolKind | None = None) -> str:
    """One line per tool: its signature and what it is for."""
    tools = [t for t in TOOLS if kind is None or t.kind == kind]
    return "Tools:\n" + "\n".join(f"- {t.signature()}: {t.description}" for t in tools)


_TOOL_LIST_AT_END = re.compile(r"\n\nTools:\n(?:- [^\n]*(?:\n|\Z))+\Z")  # any tool_list()


def without_tool_list(text: str) -> str:
    """An observation (or a user turn ending with one) without the tool list at its end, of
    this registry or an older one."""
    return _TOOL_LIST_AT_END.sub("", text)


def observation_tokens(messages: list[dict]) -> int:
    """Tokens of a step's user turn as a trained model reads it (the tool list cut): what the
    page costs in the prompt of the mode."""
    return count_tokens(without_tool_list(messages[1]["content"]))
