"""``python -m pipeline query``: one tool call against a page, from the command line.

    python -m pipeline query shop.json.gz --text "add to cart" --role button --landmark MAIN
    python -m pipeline query shop.json.gz --summary
    python -m pipeline query shop.json.gz --region NAV:Primary --content-type interactive
    python -m pipeline query shop.json.gz --details 23
    python -m pipeline query shop.json.gz --call '<bu_query>{"text": "kettle"}<bu_end>'
    python -m pipeline query shop.json.gz --observe query_only

The call is validated exactly as a model's would be (``pipeline.tools``) and answered by the
executor from the page state, so what prints is what the model would read. An invalid call, or
one the page cannot answer (no element [N], no such landmark), prints the model-facing message
as one ``error:`` line on stderr and exits 2; actions are resolved to their target, not run.
"""

from __future__ import annotations

import argparse
import sys

from pipeline.errors import FormatError
from pipeline.tools import ToolError, parse_call, validate_call


def query(args: argparse.Namespace, load) -> int:
    from pipeline.agent.execute import execute_offline
    from pipeline.agent.observe import observe
    from pipeline.distill import DistillOptions, distill

    state = load(args.source)
    for warning in state.meta.get("warnings") or []:
        print(f"warning: {warning}", file=sys.stderr)
    page = distill(state, DistillOptions.preset(args.preset))
    if args.observe:
        seen = observe(page, args.observe)
        print(seen.text)
        print(f"\n({seen.tokens} tokens)", file=sys.stderr)
        return 0
    call = parse_call(args.call) if args.call else validate_call(*tool_call(args))
    if isinstance(call, ToolError):
        print(f"error: {call.message}", file=sys.stderr)
        return 2
    result = execute_offline(call, page)
    if not result.ok:  # no such element or landmark: the model's message, as one error line
        message = " ".join(result.text.removeprefix("Error:").split())
        print(f"error: {message}", file=sys.stderr)
        return 2
    print(result.text)
    return 0


def tool_call(args: argparse.Namespace) -> tuple[str, dict]:
    """(tool name, arguments) from the command's flags."""
    if args.summary:
        return "get_page_summary", {}
    if args.details is not None:
        return "get_element_details", {"index": args.details}
    if args.region:
        return "get_region", _drop_none({"landmark": args.region, "heading_scope": args.heading,
                                         "content_type": args.content_type})
    return "query_elements", _drop_none({
        "text": args.text, "role": args.role, "name": args.name,
        "attributes": _pairs(args.attr, "--attr", str) or None,
        "within_landmark": args.landmark, "near_heading": args.heading,
        "keyword_weights": _pairs(args.keyword, "--keyword", float) or None,
        "max_results": args.max_results,
    })


def _pairs(items: list[str], flag: str, cast) -> dict:
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise FormatError(f"{flag} {item!r}: write it as KEY=VALUE")
        try:
            out[key] = cast(value)
        except ValueError as exc:
            raise FormatError(f"{flag} {item!r}: {value!r} is not a number") from exc
    return out


def _drop_none(arguments: dict) -> dict:
    return {k: v for k, v in arguments.items() if v is not None}
