"""Verifier stage 2, execution: do the calls do what the trajectory says, on the step's page?

Every query call is run again with the real engine (``execute_offline``) against the step's
DistilledPage, and its recorded tool result must equal the fresh one. The target (any positive's
ref) must come back within the top ``k`` of at least one query -- in ``hybrid``/``full`` mode the
observation may show it instead. The final action must act on a ref the model was shown (in a tool
result or the observation; a model must not guess indices), resolve to a positive, and match the
step's operation and value -- a drag onto the step's drop target or by an offset the step's
way -- typed text the model could write from what it read: the task, the
observation or a tool result (``grounding``; ``grounded_values=False`` lets any text pass). A
passage to select names no element: it must be the step's, on the page, and read before.

    verdict = check_execution(conversation, step, page, mode="query_only", top_k=10)

Reason codes, in the order they are checked: ``stale_tool_result``, ``no_positive``,
``wrong_operation``, ``unknown_ref``, ``unseen_ref``, ``target_not_retrieved``,
``wrong_element``, ``wrong_value`` (a drag: ``wrong_drop``, ``wrong_offset``),
``ungrounded_value``; for a passage ``wrong_operation``,
``passage_not_on_page``, ``wrong_value``, ``ungrounded_value``.
"""

from __future__ import annotations

import math
import re

from datagen.records import Mode, Operation, Step, Verdict
from datagen.verify.format_stage import Conversation
from datagen.verify.grounding import passage_grounded, value_grounded
from pipeline.agent.execute import execute_offline
from pipeline.agent.observe import without_tool_list
from pipeline.agent.progress import HEAD as EFFECT_HEAD
from pipeline.distill.model import DistilledPage
from pipeline.html.mind2web_format import parse_drag_value
from pipeline.query.passage import find_passage, same_passage
from pipeline.tools import ToolCall

ANCESTOR_LEVELS = 3  # a positive without a ref counts through its nearest ref'd ancestor
OBSERVATION_MARK = "\nCurrent page:\n"  # where ``pipeline.agent.prompts.user_turn`` puts the page
_REF = re.compile(r"\[(\d+)\]")
_CALL_FOR_OP = {"CLICK": "click", "TYPE": "type", "SELECT": "select"}
DRAG_COSINE = 0.9  # a drag by an offset points the step's way within ~25 degrees
_CALL_FOR_ORIGINAL_OP = {"HOVER": "hover", "SCROLL": "scroll", "DRAG": "drag", "CLEAR": "clear",
                         "PRESS": "press", "ENTER": "press", "SELECT_TEXT": "select_text"}
_FREE_TEXT = {"type": "type writes", "select_text": "select_text quotes"}  # an action's own text


def check_execution(conversation: Conversation, step: Step, page: DistilledPage, mode: Mode,
                    top_k: int = 10, grounded_values: bool = True) -> Verdict:
    """The stage-2 verdict for a conversation that passed stage 1."""
    reason = _first_problem(conversation, step, page, mode, top_k)
    if reason is None and grounded_values:
        reason = ungrounded_value(conversation)
    return Verdict("execution", "fail", reason) if reason else Verdict("execution", "pass")


def ungrounded_value(conversation: Conversation) -> str | None:
    """Why the final ``type`` writes text, or ``select_text`` quotes a passage, the model never
    read (None: it read it, or the action writes no free text -- a select can only choose one
    of the element's options)."""
    action = conversation.final.call
    value = action.arguments.get("text") if action.name in _FREE_TEXT else None
    if not isinstance(value, str):
        return None
    read = "\n".join([without_tool_list(conversation.user),
                      *(turn.result or "" for turn in conversation.queries)])
    grounded = passage_grounded if action.name == "select_text" else value_grounded
    if grounded(value, read):
        return None
    return (f"ungrounded_value: {_FREE_TEXT[action.name]} {value!r}, which neither the task nor "
            "the observation nor a tool result shows")


def _first_problem(conversation: Conversation, step: Step, page: DistilledPage, mode: Mode,
                   top_k: int) -> str | None:
    ranked: list[list[int]] = []
    for number, turn in enumerate(conversation.queries, start=1):
        fresh = execute_offline(turn.call, page)
        if (turn.result or "").strip() != fresh.text.strip():
            return (f"stale_tool_result: turn {number} ({turn.call.name}) recorded a result that "
                    "differs from running the call on the page")
        ranked.append(fresh.refs or refs_in(fresh.text))
    action = conversation.final.call
    key = step.operation.pressed_key
    if key is not None:  # a key press has no element to check
        return None if action == _press(key) else (
            f"wrong_operation: the step presses {key}, the action is "
            f"{action.name} {action.arguments}")
    if step.operation.original_op == "SELECT_TEXT":  # found by its text, not by a ref
        return passage_problem(action, step.operation, page)
    targets = positive_refs(page, step.positives)
    if not targets:
        return (f"no_positive: none of the positives {step.positives} is an element with a ref "
                "on the distilled page")
    if not operation_matches(action, step.operation):
        return (f"wrong_operation: the step is {step.operation.op} "
                f"({step.operation.original_op or step.operation.op}), the action {action.name}")
    ref = action.arguments.get("index")
    if ref not in page.refs:
        return f"unknown_ref: [{ref}] is not an element of the page (1..{len(page.refs)})"
    if ref not in shown_refs(conversation):
        return f"unseen_ref: [{ref}] was acted on but no tool result or observation showed it"
    observed = set(refs_in(observation(conversation))) if mode != "query_only" else set()
    if not targets & observed and not any(targets & set(refs[:top_k]) for refs in ranked):
        return (f"target_not_retrieved: no query returned a positive {sorted(targets)} in its "
                f"top {top_k}" + ("" if mode == "query_only" else " nor did the observation"))
    if ref not in targets:
        return f"wrong_element: [{ref}] is not a positive {sorted(targets)}"
    return value_problem(action, step.operation, page)


def positive_refs(page: DistilledPage, positives: list[int]) -> set[int]:
    """Refs of the positives: an element's own ref, else its nearest ref'd ancestor's within
    ``ANCESTOR_LEVELS`` levels (Mind2Web marks a span inside a link, a label's text...)."""
    by_node = {node.node_id: ref for ref, node in page.refs.items()}
    by_backend = page.state.by_backend_id()
    found: set[int] = set()
    for backend_id in positives:
        node_id = by_backend.get(backend_id)
        chain = [] if node_id is None else [node_id, *page.state.ancestors(node_id)]
        ref = next((by_node[n] for n in chain[:ANCESTOR_LEVELS + 1] if n in by_node), None)
        if ref is not None:
            found.add(ref)
    return found


def _press(key: str) -> ToolCall:
    return ToolCall("press", {"key": key})


def operation_matches(action: ToolCall, operation: Operation) -> bool:
    """click/type/select for CLICK/TYPE/SELECT, hover/scroll/drag/clear for those original ops,
    press for a PRESS and a Mind2Web ENTER (a click on the field presses no key)."""
    wanted = _CALL_FOR_ORIGINAL_OP.get(operation.original_op or "", _CALL_FOR_OP[operation.op])
    return action.name == wanted


def shown_refs(conversation: Conversation) -> set[int]:
    """Every ref the model could read before acting: tool results and the observation."""
    texts = [turn.result or "" for turn in conversation.queries]
    return set(refs_in(observation(conversation))).union(*(refs_in(t) for t in texts))


def observation(conversation: Conversation) -> str:
    """What the user turn shows of the page: the last action's effect (which names the
    elements it brought, ``[3]<a>Prev</a>``) and the page part (the whole turn when it has no
    page marker)."""
    before, mark, page = conversation.user.partition(OBSERVATION_MARK)
    effect = [line for line in before.splitlines() if line.startswith(EFFECT_HEAD)]
    return "\n".join([*effect, page]) if mark else conversation.user


def refs_in(text: str) -> list[int]:
    """``[N]`` refs in a text, first occurrence order."""
    return list(dict.fromkeys(int(m) for m in _REF.findall(text)))


def values_match_text(typed: str, expected: str) -> bool:
    """TYPE: equal after whitespace normalisation."""
    return " ".join(typed.split()) == " ".join(expected.split())


def select_options(page: DistilledPage, ref: int) -> list[tuple[str, str]]:
    """(text, value) of the ``<option>`` elements under the select behind ``ref``."""
    state = page.state
    out = []
    stack = list(state.nodes[page.node_of(ref)].children)
    while stack:
        node = state.nodes[stack.pop()]
        if node.tag == "option":
            out.append((state.text_content(node.id), node.attributes.get("value", "")))
        stack.extend(node.children)
    return out


def option_matches(chosen: str, expected: str, options: list[tuple[str, str]]) -> bool:
    """SELECT: the chosen option equals the expected value case-insensitively, or both name the
    same option (by its text or its value)."""
    def norm(text: str) -> str:
        return " ".join(text.split()).casefold()

    if norm(chosen) == norm(expected):
        return True
    return any({norm(chosen), norm(expected)} <= {norm(text), norm(value)}
               for text, value in options)


def drag_problem(action: ToolCall, value: str, page: DistilledPage) -> str | None:
    """Why a drag does not go where the step's DRAG value says: onto another element than its
    ``to:<id>``, or by an offset that is not its ``by:dx,dy`` -- pointing more than ~25 degrees
    away (``DRAG_COSINE``) or outside half to twice its length (a shape dragged down for "up",
    a calendar's selection dragged over half its slots)."""
    to_id, offset = parse_drag_value(value)
    if offset is None:
        onto = action.arguments.get("to_index")
        if onto is None or page.backend_id(onto) != to_id:
            return f"wrong_drop: dropped on [{onto}], the step drops onto backend id {to_id}"
        return None
    moved = (action.arguments.get("dx") or 0, action.arguments.get("dy") or 0)
    wanted, length = math.hypot(*offset), math.hypot(*moved)
    cosine = (moved[0] * offset[0] + moved[1] * offset[1]) / (wanted * length) if (
        wanted and length) else 0.0
    if cosine < DRAG_COSINE or not wanted / 2 <= length <= wanted * 2:
        return (f"wrong_offset: dragged by {moved[0]},{moved[1]}, the step drags by "
                f"{offset[0]},{offset[1]}")
    return None


def passage_problem(action: ToolCall, operation: Operation, page: DistilledPage) -> str | None:
    """Why a select_text action is not the step's selection (None: it is): another action, a
    passage the page does not show, another passage (whitespace aside)."""
    if action.name != "select_text":
        return (f"wrong_operation: the step selects a passage, the action is {action.name} "
                f"{action.arguments}")
    text = action.arguments["text"]
    if find_passage(page, text) is None:
        return f"passage_not_on_page: select_text quotes {text!r}, which the page does not show"
    if not same_passage(text, operation.value):
        return f"wrong_value: selected {text!r}, the step selects {operation.value!r}"
    return None


def value_problem(action: ToolCall, operation: Operation, page: DistilledPage) -> str | None:
    """Why a type/select action's value, or a drag's destination, is not the operation's
    (None: it is, or none applies)."""
    if operation.original_op == "DRAG":
        return drag_problem(action, operation.value, page)
    if operation.op == "TYPE":
        typed = action.arguments["text"]
        if not values_match_text(typed, operation.value):
            return f"wrong_value: typed {typed!r}, the step types {operation.value!r}"
    if operation.op == "SELECT":
        chosen = action.arguments["option"]
        options = select_options(page, action.arguments["index"])
        if not option_matches(chosen, operation.value, options):
            return f"wrong_value: selected {chosen!r}, the step selects {operation.value!r}"
    return None

