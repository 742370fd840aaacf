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
from pipeline.html.mind2web_format import action_repr, operation
from pipeline.query import index_for
from pipeline.tools import ToolCall


def history_line(call: ToolCall, page: DistilledPage) -> str:
    args = call.arguments
    if call.name == "press":
        return f"[key]  {args['key']} -> {'ENTER' if args['key'] == 'Enter' else 'PRESS'}"
    if call.name == "done":
        return "[page]  done -> DONE" + (f": {args['answer']}" if args.get("answer") else "")
    op = {"type": operation("TYPE", args.get("text", "")),
          "select": operation("SELECT", args.get("option", ""))}.get(call.name, operation("CLICK"))
    backend_id = page.backend_id(args["index"])
    if backend_id is None:  # a page read from HTML: name the element by its ref
        shown = op["op"] + (f": {op['value']}" if op["value"] else "")
        return f"[{page.refs[args['index']].tag}]  [{args['index']}] -> {shown}"
    return action_repr(page.state, backend_id, op, element_label(page, args["index"]))


def element_label(page: DistilledPage, ref: int) -> str:
    """What the query results call an element: its visible text, else its accessible name, else
    the identifying text of its card or form row (``Username`` for the field after it)."""
    entry = index_for(page).entries[ref]
    return entry.text or entry.node.name or entry.context or ""
