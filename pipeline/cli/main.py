"""Command line of the page-state engine.

    python -m pipeline snapshot <url-or-file> [--format flat|outline|json] [--out page.json.gz]
    python -m pipeline query <page.json.gz | url | file> --text "add to cart" --role button
    python -m pipeline report --config configs/pipeline/report.yaml [key=value ...]
    python -m pipeline serve --config configs/serve/default.yaml checkpoint=RUN | model=smollm2
    python -m pipeline export-gguf RUN --out model.gguf [--weights f16|q8_0|f32]

``snapshot`` prints one page's rendering (stdout) and its compaction metrics (stderr); ``query``
runs one query tool (or any tool call, ``--call '<bu_query>{...}<bu_end>'``) against a page, or
prints what an agent mode observes (``--observe query_only``);
``report`` is the main job: it captures the bundled fixture pages and MiniWoB++ task pages and
prints nodes / characters / tokens / milliseconds per page for raw HTML, flat and outline;
``serve`` runs the OpenAI-compatible server with browser sessions and agent runs
(``pipeline.serve``; ``host=``, ``port=`` and any other key of ``ServeConfig`` as overrides);
``export-gguf`` writes a trained checkpoint (its adapter merged) or a base model as a GGUF file
that llama.cpp and the tools built on it load (``pipeline.model.gguf_export``).
Errors print one line naming the problem and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pipeline.cli.support import parse_args, run_command, shared_overrides
from pipeline.page_state import MAX_NODES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    snap = commands.add_parser("snapshot", help="capture or read one page and render it")
    _source_arguments(snap)
    snap.add_argument("--format", choices=("flat", "outline", "json"), default="flat")
    snap.add_argument("--out", type=Path, help="also save the PageState here (.json.gz)")
    snap.add_argument("--previous", help="the previous step's page (URL, file or state): "
                      "marks new elements *[N] and collapses unchanged outline regions")
    snap.add_argument("--chunk", type=int, help="render only viewport chunk K (0-based)")

    query = commands.add_parser("query", help="run a query tool (or any tool call) on a page")
    _source_arguments(query)
    tool = query.add_mutually_exclusive_group()
    tool.add_argument("--summary", action="store_true", help="get_page_summary")
    tool.add_argument("--region", metavar="LANDMARK", help="get_region of this landmark")
    tool.add_argument("--details", type=int, metavar="INDEX", help="get_element_details")
    tool.add_argument("--call", help="a tool call as functional tokens or JSON")
    tool.add_argument("--observe", choices=("full", "hybrid", "query_only"),
                      help="print what this agent mode observes")
    query.add_argument("--text")
    query.add_argument("--role")
    query.add_argument("--name")
    query.add_argument("--attr", action="append", default=[], metavar="KEY=VALUE")
    query.add_argument("--landmark", help="within_landmark, e.g. MAIN or NAV:Primary")
    query.add_argument("--heading", help="near_heading (or the region's heading_scope)")
    query.add_argument("--keyword", action="append", default=[], metavar="WORD=WEIGHT")
    query.add_argument("--max-results", type=int)
    query.add_argument("--content-type", choices=("interactive", "text", "full"))

    report = commands.add_parser("report", help="the main job: render the bundled page set")
    report.add_argument("--config", type=Path, help="YAML config (configs/pipeline/report.yaml)")
    report.add_argument("--output-dir", help="where results go (overrides output_dir)")
    report.add_argument("--seed", type=int, help="MiniWoB++ episode seed (overrides seed)")
    report.add_argument("--limit", type=int, help="at most this many pages (overrides limit)")
    report.add_argument("overrides", nargs="*", help="key.sub=value config overrides")

    serve = commands.add_parser("serve", help="serve the model, browser sessions and agent runs")
    serve.add_argument("--config", type=Path, help="YAML config (configs/serve/default.yaml)")
    serve.add_argument("--mcp", choices=("stdio", "http"),
                       help="serve the tools as an MCP server instead (stdio or streamable HTTP)")
    serve.add_argument("overrides", nargs="*",
                       help="key.sub=value overrides: checkpoint=RUN, model=smollm2, port=8011")
    export = commands.add_parser("export-gguf", help="write a checkpoint as a GGUF file")
    export.add_argument("model", help="a training run folder, its adapter/, a checkpoint-N, a "
                        "merged folder, or a base model spec (smollm2)")
    export.add_argument("--out", type=Path, required=True, help="the .gguf file to write")
    export.add_argument("--weights", choices=("f16", "q8_0", "f32"), default="f16")
    return parser


def _source_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="http(s):// or file:// URL, an .html file, or a .json.gz state")
    parser.add_argument("--preset", choices=("full", "minimal"), default="full",
                        help="distill passes to run")
    parser.add_argument("--kind", default="auto",
                        choices=("auto", "html", "mind2web_raw", "mind2web_cleaned"),
                        help="how to read an HTML file")
    parser.add_argument("--executable-path", help="Chromium executable (default: discover)")
    parser.add_argument("--timeout-ms", type=int, default=30_000, help="page load timeout")
    parser.add_argument("--max-nodes", type=int, default=MAX_NODES,
                        help="refuse pages (live or files) with more nodes")
    parser.add_argument("--max-file-bytes", type=int, default=50_000_000,
                        help="refuse local files larger than this")
    parser.add_argument("--allow-file-urls", action="store_true", help="allow file:// URLs")
    parser.add_argument("--no-ax", action="store_true",
                        help="skip the accessibility tree (roles from HTML-AAM rules)")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(build_parser(), argv)
    return run_command(lambda: _dispatch(args))


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "snapshot":
        return snapshot(args)
    if args.command == "query":
        from pipeline.cli.query import query

        return query(args, _loader(args))
    if args.command == "serve":
        return serve(args)
    if args.command == "export-gguf":
        return export_gguf(args)
    return report(args)


def _loader(args: argparse.Namespace):
    """``load(source) -> PageState`` with the command's browser and file settings."""
    from pipeline.cli.sources import open_source
    from pipeline.live.browser import BrowserConfig

    browser = BrowserConfig(
        executable_path=args.executable_path,
        navigation_timeout_ms=args.timeout_ms,
        max_nodes=args.max_nodes,
        allow_file_urls=args.allow_file_urls,
        capture_ax=not args.no_ax,
    )

    def load(source: str):
        return open_source(source, browser, kind=args.kind, max_file_bytes=args.max_file_bytes,
                           max_nodes=args.max_nodes)

    return load


def snapshot(args: argparse.Namespace) -> int:
    from pipeline.distill import DistillOptions, distill
    from pipeline.page_state import check_writable
    from pipeline.render import RenderOptions, render_flat, render_outline
    from pipeline.render.metrics import compaction_metrics, format_table

    options = DistillOptions.preset(args.preset)
    if args.out:
        check_writable(args.out)  # before the capture, not after it
    load = _loader(args)
    start = time.perf_counter()
    state = load(args.source)
    load_ms = (time.perf_counter() - start) * 1000
    if args.out:
        state.save(args.out)
    page = distill(state, options)
    previous = distill(load(args.previous), options) if args.previous else None
    render_options = RenderOptions(viewport="chunk", chunk=args.chunk) if args.chunk is not None \
        else RenderOptions()
    start = time.perf_counter()
    flat = render_flat(page, render_options, previous)
    outline = render_outline(page, render_options, previous)
    render_ms = (time.perf_counter() - start) * 1000
    if args.format == "json":
        print(json.dumps(state.to_dict(), ensure_ascii=False))
    else:
        print(flat if args.format == "flat" else outline)
    row = compaction_metrics(state, page, {"flat": flat, "outline": outline},
                             timings={"load": load_ms, "render": render_ms},
                             label=Path(args.source).name or args.source)
    print("\n" + format_table([row]), file=sys.stderr)
    if args.out:
        print(f"page state saved to {args.out}", file=sys.stderr)
    return 0


def report(args: argparse.Namespace) -> int:
    from pipeline.config import load_config
    from pipeline.report.run import ReportConfig, run_report

    config = load_config(ReportConfig, args.config, shared_overrides(args))
    run_report(config)
    return 0


def export_gguf(args: argparse.Namespace) -> int:
    from pipeline.model.gguf_export import pre_tokenizer, write_gguf
    from pipeline.model.trained import load_model
    from pipeline.page_state import check_writable

    check_writable(args.out)  # before the model loads
    model, tokenizer, _ = load_model(args.model)
    path = write_gguf(model, tokenizer, args.out, args.weights)
    print(f"{path}: {path.stat().st_size / 2**20:.1f} MB, {args.weights} weights, "
          f"{len(tokenizer)} tokens, pre-tokenizer {pre_tokenizer(tokenizer)}")
    return 0


def serve(args: argparse.Namespace) -> int:
    from pipeline.config import load_config
    from pipeline.serve.config import ServeConfig

    config = load_config(ServeConfig, args.config, list(args.overrides))
    if args.mcp:
        from pipeline.serve.mcp_server import serve_mcp

        return serve_mcp(config, args.mcp)
    from pipeline.serve.main import serve as run_server

    return run_server(config)
