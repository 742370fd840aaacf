"""Query engine latency: index build and query_elements p50/p95 (issue 3 targets: index build
<= 50 ms on the 200-product page, a query <= 5 ms p50).

    python benchmarks/query_benchmark.py [--repeat 30] [--nodes 10000] [--no-live]
                                         [--out benchmarks/results/query.json]

Pages: the 200-product ``shop.html`` fixture parsed from HTML, the same page captured live in
Chromium through ``CaptureSession`` (skipped with the reason when no browser starts, or with
``--no-live``), and a generated listing (``pages.listing_html``) grown to at least ``--nodes``
PageState nodes. Index build is timed cold (the word caches cleared first, as for a process's
first page) and warm (a new page whose words were seen before); queries run on a built index,
a fixed mix of text, role, landmark, heading, keyword and combined queries, each ``--repeat`` times.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from common import REPO, finish, machine_info, print_table
from pages import listing_html
from targets import Target

from pipeline.distill import DistilledPage, distill
from pipeline.html.source import page_from_file, page_from_html
from pipeline.query import (
    build_index,
    get_element_details,
    get_page_summary,
    get_region,
    query_elements,
)
from pipeline.query.index import make_field
from pipeline.query.text import analyse, stem

SHOP = REPO / "pipeline" / "fixtures" / "shop.html"
BUILD_TARGET_MS = 50.0
QUERY_TARGET_MS = 5.0
QUERIES: list[dict] = [
    {"text": "add to cart"},
    {"text": "purchasing"},
    {"text": "Sign in"},
    {"role": "button", "within_landmark": "MAIN"},
    {"role": "link", "within_landmark": "NAV:Primary"},
    {"role": "textbox"},
    {"text": "kettle", "near_heading": "Kitchen"},
    {"attributes": {"type": "checkbox"}},
    {"keyword_weights": {"add to cart": 40, "buy now": 35, "purchase": 20}},
    {"text": "add to cart", "role": "button", "within_landmark": "MAIN", "max_results": 5},
    {"role": "button", "within_landmark": "NAV"},  # empty: builds the relax suggestions
]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(
    fn: Callable[[], object], repeat: int, before: Callable[[], None] | None = None
) -> list[float]:
    out = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def clear_word_caches() -> None:
    for cached in (stem, analyse, make_field):
        cached.cache_clear()


def measure(name: str, page: DistilledPage, repeat: int) -> dict:
    cold = timed(lambda: build_index(page), max(3, repeat // 5), clear_word_caches)
    warm = timed(lambda: build_index(page), repeat)
    query_elements(page)  # build the cached index the tools share
    queries = [t for q in QUERIES for t in timed(lambda q=q: query_elements(page, **q), repeat)]
    tools = {
        "summary": lambda: get_page_summary(page),
        "region": lambda: get_region(page, "MAIN", content_type="interactive"),
        "details": lambda: get_element_details(page, len(page.refs) // 2),
    }
    tool_ms = {k: statistics.median(timed(fn, repeat)) for k, fn in tools.items()}
    return {
        "page": name, "nodes": len(page.state.nodes), "refs": len(page.refs),
        "build_cold_p50": statistics.median(cold), "build_p50": statistics.median(warm),
        "build_p95": percentile(warm, 0.95), "query_p50": statistics.median(queries),
        "query_p95": percentile(queries, 0.95), "query_max": max(queries), **tool_ms,
    }  # fmt: skip


def listing_page(min_nodes: int) -> DistilledPage:
    products = max(10, min_nodes // 28)
    while True:
        state = page_from_html(listing_html(products), url="https://shop.test/listing")
        if len(state.nodes) >= min_nodes:
            return distill(state)
        products = int(products * min_nodes / len(state.nodes)) + 10


def live_shop() -> tuple[DistilledPage | None, str]:
    """The shop fixture captured in Chromium, or None and why not."""
    from pipeline.capture.session import CaptureSession
    from pipeline.errors import CaptureError
    from pipeline.live.browser import BrowserConfig
    from pipeline.live.static_server import serve_directory

    try:
        with serve_directory(SHOP.parent) as base, CaptureSession(BrowserConfig()) as session:
            return distill(session.capture(f"{base}/shop.html")), ""
    except (CaptureError, OSError) as exc:  # a missing or broken browser skips the live row
        return None, f"{type(exc).__name__}: {exc}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--no-live", action="store_true", help="skip the live capture")
    parser.add_argument("--out", default="benchmarks/results/query.json")
    args = parser.parse_args(argv)
    pages = [("shop (html)", distill(page_from_file(SHOP)))]
    skipped = "--no-live" if args.no_live else ""
    if not args.no_live:
        live, skipped = live_shop()
        if live is not None:
            pages.append(("shop (live)", live))
    pages.append((f"listing >= {args.nodes:,} nodes", listing_page(args.nodes)))
    rows = [measure(name, page, args.repeat) for name, page in pages]
    columns = ["page", "nodes", "refs", "build_cold_p50", "build_p50", "build_p95",
               "query_p50", "query_p95", "query_max", "summary", "region", "details"]  # fmt: skip
    print_table("query engine latency (ms)", columns, [[r[c] for c in columns] for r in rows])
    if skipped:
        print(f"live capture skipped: {skipped}")
    targets = [_target(row) for row in rows if row["page"].startswith("shop")]
    print_table("targets", ["target", "goal", "measured", "met"],
                [[t.name, t.target, t.measured, t.met] for t in targets])  # fmt: skip
    finish({"machine": machine_info(), "rows": rows, "queries": QUERIES, "live_skipped": skipped,
            "targets": [t.to_dict() for t in targets]}, args.out)  # fmt: skip
    return 0


def _target(row: dict) -> Target:
    build, query = row["build_p50"], row["query_p50"]
    met = build <= BUILD_TARGET_MS and query <= QUERY_TARGET_MS
    gap = "" if met else f"build {build:.1f} ms, query {query:.2f} ms"
    return Target(f"query engine on {row['page']}",
                  f"build <= {BUILD_TARGET_MS:g} ms, query p50 <= {QUERY_TARGET_MS:g} ms",
                  f"build {build:.1f} ms (cold {row['build_cold_p50']:.1f}), "
                  f"query p50 {query:.2f} ms / p95 {row['query_p95']:.2f} ms", met, gap)  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
