"""The history line an executed action adds, in Mind2Web's ``action_reprs`` form.

    history_line(make_call("type", index=4, text="kenda"), page)   # '[textbox]  Username -> TYPE: kenda'

Training data takes its history from recorded ``action_reprs`` (real Mind2Web) or writes it with
this function from the recorded pages (``datagen``'s own recordings), and a live episode writes it
with this function on the page the action was taken on: the model reads the same kind of line in
training and in use. An element without a name, text or placeholder of its own (an ``<input>``
after a bare ``<label>``) is named by the label the query results show beside it
(``element_label``), not left blank.
"""

from __future__ import annotations

from pipeline.distill.model import DistilledPage
from pipeline.html.mind2web_format import action_repr, drag_value, operation, press_repr
from pipeline.query import index_for
from pipeline.query.passage import find_passage
from pipeline.tools import ToolCall


def history_line(call: ToolCall, page: DistilledPage) -> str:
    args = call.arguments
    if call.name == "press":
        return press_repr(args["key"])
    if call.name == "done":
        return "[page]  done -> DONE" + (f": {args['answer']}" if args.get("answer") else "")
    if call.name == "scroll" and "index" not in args:
        return f"[page]  page -> SCROLL: {scroll_value(call)}"
    if call.name == "select_text":
        return _selection_line(call, page)
    op = _operation(call, page)
    backend_id = page.backend_id(args["index"])
    if backend_id is None or op is None:  # a page read from HTML: name elements by their refs
        return _by_ref(call, page)
    return action_repr(page.state, backend_id, op, element_label(page, args["index"]))


def element_label(page: DistilledPage, ref: int) -> str:
    """What the query results call an element (``Entry.shown_name``)."""
    return index_for(page).entries[ref].shown_name


def _operation(call: ToolCall, page: DistilledPage) -> dict[str, str] | None:
    """The Mind2Web operation of an action on an element (None: a drop target without a
    backend id)."""
    args = call.arguments
    if call.name == "drag":
        to_id = page.backend_id(args["to_index"]) if "to_index" in args else None
        if "to_index" in args and to_id is None:
            return None
        value = drag_value(to_id, None if "to_index" in args
                           else (args.get("dx", 0), args.get("dy", 0)))
        return operation("CLICK", value, "DRAG")
    if call.name == "scroll":
        return operation("CLICK", scroll_value(call), "SCROLL")
    return {"type": operation("TYPE", args.get("text", "")),
            "select": operation("SELECT", args.get("option", "")),
            "hover": operation("CLICK", "", "HOVER"),
            "clear": operation("CLICK", "", "CLEAR")}.get(call.name, operation("CLICK"))


def _selection_line(call: ToolCall, page: DistilledPage) -> str:
    """A passage selected, on the element holding it (as the recorder writes the step):
    ``[p]  Lorem ipsum dolor sit -> SELECT_TEXT: Lorem ipsum``; ``[page]`` where the page
    does not show it or has no backend ids."""
    text = call.arguments["text"]
    spot = find_passage(page, text)
    if spot is None or spot.backend_id is None:
        return f"[page]  page -> SELECT_TEXT: {text}"
    return action_repr(page.state, spot.backend_id, operation("CLICK", text, "SELECT_TEXT"))


def scroll_value(call: ToolCall) -> str:
    """A scroll's operation value: the direction, ``down:end`` for a scroll to the end."""
    amount = call.arguments.get("amount", "page")
    return call.arguments["direction"] + (":end" if amount == "end" else "")


def _by_ref(call: ToolCall, page: DistilledPage) -> str:
    args = call.arguments
    shown = {"type": "TYPE", "select": "SELECT"}.get(call.name, call.name.upper())
    value = args.get("text", args.get("option", ""))
    if call.name == "scroll":
        value = scroll_value(call)
    if call.name == "drag":
        value = (f"onto [{args['to_index']}]" if "to_index" in args
                 else f"by {args.get('dx', 0)},{args.get('dy', 0)}")
    shown += f": {value}" if value else ""
    return f"[{page.refs[args['index']].tag}]  [{args['index']}] -> {shown}"
