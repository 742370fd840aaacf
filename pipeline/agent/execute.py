"""Execute a ToolCall: query tools against the page state, actions against a live page.

    result = run_query(call, page)                    # pure: get_page_summary, query_elements ...
    result = await execute(call, page, actions)       # actions too, on a live page (LiveActions)
    result = execute_offline(call, page)              # actions resolved to their target, not run

``select_text`` names no element: live, the result carries the element the passage was found
in (its ref when it has one); offline, the element ``pipeline.query.passage`` finds it in.

Every outcome is a ``ToolResult`` whose ``text`` is what the model reads as the tool message;
an unknown ref, a stale, hidden, disabled or covered element, a scroll at its edge, or an action
without a live page is a result with ``error`` set — never an exception. Datagen's verifier uses
``execute_offline`` (the final action must resolve to a positive), the agent loop ``execute``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel

from pipeline.distill.model import DistilledPage
from pipeline.live.actions import ActionOutcome, LiveActions
from pipeline.live.selection import quote
from pipeline.query import get_element_details, get_page_summary, get_region, query_elements
from pipeline.query.passage import find_passage
from pipeline.render.elements import element_text, format_element, trim_text
from pipeline.tools.calls import ToolCall

_WHAT_TEXT = 60  # characters of an element's text quoted in action messages


@dataclass(slots=True)
class ToolResult:
    name: str
    ok: bool
    text: str  # the tool message the model reads
    error: str | None = None  # e.g. "no_such_ref", "stale", "hidden", "disabled", "covered"
    ref: int | None = None  # an action's target
    backend_id: int | None = None
    refs: list[int] = field(default_factory=list)  # what a query returned, best first
    done: bool = False  # the call was ``done``
    answer: str | None = None  # ``done``'s answer


def run_query(call: ToolCall, page: DistilledPage) -> ToolResult:
    """Answer a query tool from the page state."""
    args = call.args()
    if call.name == "query_elements":
        found = query_elements(page, **args.model_dump())
        return ToolResult(call.name, found.ok, found.text, None if found.ok else "bad_query",
                          refs=list(found.refs))
    if call.name == "get_page_summary":
        text = get_page_summary(page)
    elif call.name == "get_region":
        text = get_region(page, **args.model_dump())
    elif call.name == "get_element_details":
        text = get_element_details(page, args.index)
    else:
        raise ValueError(f"{call.name} is an action, not a query tool; use execute()")
    failed = text.startswith("Error:")
    return ToolResult(call.name, not failed, text, "bad_query" if failed else None)


def execute_offline(call: ToolCall, page: DistilledPage) -> ToolResult:
    """Queries answered; actions checked and resolved to their target without acting (a
    passage to select: to the element holding it, which must be on the page)."""
    if call.kind == "query":
        return run_query(call, page)
    if call.name == "select_text":
        return _passage_offline(call, page)
    target = _target(call, page)
    if isinstance(target, ToolResult):
        return target
    return ToolResult(call.name, True, f"{_describe(call, target)} (recorded; no live page)",
                      ref=target, backend_id=page.backend_id(target) if target else None,
                      done=call.name == "done", answer=_answer(call))


async def execute(call: ToolCall, page: DistilledPage, actions: LiveActions | None) -> ToolResult:
    """Queries from the page state; actions on the live page behind ``actions``."""
    if call.kind == "query" or actions is None or call.name == "done":
        return execute_offline(call, page)
    args = call.args()
    if call.name == "press":
        outcome = await actions.press(args.key)
        return ToolResult(call.name, outcome.ok, outcome.message, outcome.error)
    if call.name == "select_text":  # found by its text: the result names where it was
        outcome = await actions.select_text(args.text)
        return ToolResult(call.name, outcome.ok, outcome.message, outcome.error,
                          ref=page.ref_of(outcome.backend_id), backend_id=outcome.backend_id)
    target = _target(call, page)
    if isinstance(target, ToolResult):
        return target
    if target is None:  # scroll without an index: the page
        outcome = await actions.scroll(args.direction, to_end=args.amount == "end")
        return ToolResult(call.name, outcome.ok, outcome.message, outcome.error)
    live = [_live(call, page, ref) for ref in (target, call.arguments.get("to_index"))
            if ref is not None]
    refused = next((r for r in live if isinstance(r, ToolResult)), None)
    if refused is not None:
        return refused
    (backend_id, what), *drop = live
    outcome = await _act(call, args, actions, (backend_id, what), *drop)
    return ToolResult(call.name, outcome.ok, outcome.message, outcome.error, ref=target,
                      backend_id=backend_id)


async def _act(call: ToolCall, args: BaseModel, actions: LiveActions,
               target: tuple[int, str], drop: tuple[int, str] | None = None) -> ActionOutcome:
    """Run an action on its live ``target`` (backend id, description); ``drop`` is drag's
    ``to_index`` element."""
    backend_id, what = target
    if call.name == "click":
        return await actions.click(backend_id, what)
    if call.name == "type":
        return await actions.type(backend_id, args.text, what)
    if call.name == "select":
        return await actions.select(backend_id, args.option, what)
    if call.name == "scroll":
        return await actions.scroll(args.direction, backend_id, what, args.amount == "end")
    if call.name == "hover":
        return await actions.hover(backend_id, what)
    if call.name == "clear":
        return await actions.clear(backend_id, what)
    if drop is None:
        return await actions.drag(backend_id, what, offset=(args.dx or 0, args.dy or 0))
    return await actions.drag(backend_id, what, to_backend_id=drop[0], to_what=drop[1])


def _live(call: ToolCall, page: DistilledPage, ref: int) -> tuple[int, str] | ToolResult:
    """(backend id, description) of a ref, or an error when the page has no live counterpart."""
    backend_id = page.backend_id(ref)
    what = _element(page, ref)
    if backend_id is None:
        return ToolResult(call.name, False, f"{what} has no live counterpart (the page came "
                          "from HTML, not a browser)", "no_live_page", ref=ref)
    return backend_id, what


def _target(call: ToolCall, page: DistilledPage) -> int | None | ToolResult:
    """The ref an action acts on (None for press/done and a page scroll), or an error result
    for a bad ref (drag's ``to_index`` is checked too)."""
    index = call.arguments.get("index")
    if index is None:
        return None
    for ref in (index, call.arguments.get("to_index", index)):
        if ref not in page.refs:
            valid = f"1..{len(page.refs)}" if page.refs else "none: the page has no elements"
            return ToolResult(call.name, False, f"Error: there is no element [{ref}]; valid "
                              f"indices: {valid}. Query the page again for the current "
                              "indices.", "no_such_ref", ref=ref)
    return index


def _passage_offline(call: ToolCall, page: DistilledPage) -> ToolResult:
    """select_text on a recorded page: the element holding the passage, or why there is none."""
    text = call.arguments["text"]
    spot = find_passage(page, text)
    if spot is None:
        return ToolResult(call.name, False, f"Error: the page shows no text {quote(text)}; "
                          "read the page's text and quote a passage word for word", "no_text")
    return ToolResult(call.name, True, f"select_text {quote(text)} (recorded; no live page)",
                      ref=spot.ref, backend_id=spot.backend_id)


def _element(page: DistilledPage, ref: int) -> str:
    node = page.refs[ref]
    text, _ = element_text(node)
    return format_element(node, trim_text(text, _WHAT_TEXT))


def _describe(call: ToolCall, ref: int | None) -> str:
    args = call.arguments
    if call.name == "press":
        return f"press {args['key']}"
    if call.name == "done":
        return "done" + (f": {args['answer']}" if args.get("answer") else "")
    if call.name == "scroll":
        end = " to the end" if args.get("amount") == "end" else ""
        return f"scroll {'the page' if ref is None else f'[{ref}]'} {args['direction']}{end}"
    if call.name == "drag":
        to = (f"onto [{args['to_index']}]" if "to_index" in args
              else f"by ({args.get('dx', 0)}, {args.get('dy', 0)})")
        return f"drag [{ref}] {to}"
    extra = {"type": args.get("text"), "select": args.get("option")}.get(call.name)
    return f"{call.name} [{ref}]" + (f" {extra!r}" if extra is not None else "")


def _answer(call: ToolCall) -> str | None:
    return call.arguments.get("answer", "") if call.name == "done" else None
