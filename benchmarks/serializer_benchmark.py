"""Serializer benchmark: pagescout vs the browser-use serializer on the same pages, in one run.

    python benchmarks/serializer_benchmark.py [--pages shop mw:click-button ...] [--no-peer]
        [--repeat 5] [--seed 42] [--out benchmarks/results/serializer.json]

Pages: every bundled fixture page and the seeded MiniWoB++ task pages of
``pipeline.live.miniwob.BENCHMARK_TASKS``. For pagescout: capture, distill and render times (medians of
``--repeat`` runs), nodes, characters and tokens of raw HTML vs flat vs outline, the outline at
step 2 of an unchanged page, and the share of visible interactive elements kept. Right after each
page, the same page through browser-use (whole page, in its own venv and browser, see ``peers/``):
time ratio, token ratio and the same ground truth. Alternating page by page keeps the background
load of a shared machine the same for both sides. Prints the tables and the command, writes JSON with the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from typing import Any

from common import (
    DEFAULT_SEED,
    finish,
    machine_info,
    print_table,
    ratio,
    select_pages,
)
from live import add_run_args, browser_config, open_page
from pagescout_side import measure_page
from peer import Peer
from targets import per_1000_nodes, serializer_targets
from tqdm import tqdm

from pipeline.live.miniwob import BENCHMARK_TASKS, serve_miniwob
from pipeline.live.static_server import serve_directory
from pipeline.model.token_count import count_tokens, tokenizer_name
from pipeline.report.page_set import FIXTURE_DIR, page_set


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", nargs="*", help="page names (default: all)")
    parser.add_argument("--no-peer", action="store_true", help="skip browser-use")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per page (median)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="MiniWoB++ episode seed")
    add_run_args(parser, "serializer")
    return parser.parse_args(argv)


async def run_pages(pages, config, repeat: int, peer: Peer | None) -> list[dict[str, Any]]:
    """Each page through pagescout, then (same moment, same load) through browser-use."""
    rows = []
    async with open_page(config) as page:
        for spec in tqdm(pages, desc="pages", unit="page"):
            try:
                row = await measure_page(page, spec, config, repeat)
            except Exception as exc:  # noqa: BLE001 - one failing page is reported, the run goes on
                row = {"name": spec.name, "url": spec.url, "error": repr(exc)}
            if peer is not None and "error" not in row:
                merge_peer(row, peer.measure(spec))
            rows.append(row)
    return rows


def merge_peer(row: dict[str, Any], theirs: dict[str, Any]) -> None:
    """Attach browser-use's numbers (tokens counted here, with the same tokenizer) to the row."""
    if "error" in theirs:
        row["peer"] = {"error": theirs["error"]}
        return
    text = theirs.pop("text")
    row["peer"] = {**theirs, "tokens": count_tokens(text)}
    ours_ms = row["capture_ms"] + row["distill_ms"] + row["flat_ms"]
    row["time_ratio"] = ratio(ours_ms, theirs["ms"])
    row["token_ratio"] = ratio(row["flat"]["tokens"], row["peer"]["tokens"])


def overall(rows: list[dict[str, Any]]) -> dict[str, Any]:
    both = [r for r in rows if "time_ratio" in r]
    ours_ms = sum(r["capture_ms"] + r["distill_ms"] + r["flat_ms"] for r in both)
    return {
        "pages": len(rows),
        "errors": [r["name"] for r in rows if "error" in r],
        "time_ratio": ratio(ours_ms, sum(r["peer"]["ms"] for r in both)),
        "token_ratio": ratio(sum(r["flat"]["tokens"] for r in both),
                             sum(r["peer"]["tokens"] for r in both)),
    }


def print_tables(rows: list[dict[str, Any]]) -> None:
    ok = [r for r in rows if "error" not in r]
    print_table(
        "pagescout: size (tokens) and time (ms) per page",
        ["page", "nodes", "refs", "raw tok", "flat tok", "outline tok", "step-2 tok", "capture",
         "distill", "flat", "outline", "ms/1k nodes", "kept"],
        [[r["name"], r["nodes"], r["refs"], r["raw"]["tokens"], r["flat"]["tokens"],
          r["outline"]["tokens"], r["outline_step2"]["tokens"], r["capture_ms"], r["distill_ms"],
          r["flat_ms"], r["outline_ms"], per_1000_nodes(r), _share(r["coverage"])] for r in ok],
    )
    both = [r for r in ok if "time_ratio" in r]
    if both:
        print_table(
            "pagescout vs browser-use (whole page)",
            ["page", "ours ms", "b-u ms", "time ratio", "flat tok", "b-u tok", "token ratio",
             "ours kept", "b-u kept", "b-u indexed"],
            [[r["name"], r["capture_ms"] + r["distill_ms"] + r["flat_ms"], r["peer"]["ms"],
              r["time_ratio"], r["flat"]["tokens"], r["peer"]["tokens"], r["token_ratio"],
              _share(r["coverage"]), _share(r["peer"]["coverage"]), r["peer"]["interactive_count"]]
             for r in both],
        )
    for r in rows:
        if "error" in r:
            print(f"error on {r['name']}: {r['error']}")


def _share(cov: dict[str, Any]) -> str:
    return f"{cov['kept_merged']}/{cov['visible_interactive']}"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = browser_config(args)
    with serve_directory(FIXTURE_DIR) as fixture_base, serve_miniwob() as miniwob_base:
        pages = select_pages(
            page_set(fixture_base, miniwob_base, tasks=BENCHMARK_TASKS, seed=args.seed),
            args.pages,
        )
        with contextlib.ExitStack() as stack:
            peer = None if args.no_peer else stack.enter_context(
                Peer(args.repeat, str(config.executable_path)))
            rows = asyncio.run(run_pages(pages, config, args.repeat, peer))
    for row in rows:
        row.pop("flat_text", None)
    print_tables(rows)
    targets = serializer_targets(rows)
    print_table("targets", ["target", "goal", "measured", "met"],
                [[t.name, t.target, t.measured, t.met] for t in targets])
    finish({"machine": machine_info(str(config.executable_path)), "tokenizer": tokenizer_name(),
            "repeat": args.repeat, "seed": args.seed, "overall": overall(rows),
            "targets": [t.to_dict() for t in targets], "pages": rows}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
