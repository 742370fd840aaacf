"""Mind2Web raw_html -> PageState speed on a ~500 KB page (issue 2 target: <= 150 ms).

    python benchmarks/html_benchmark.py [--kb 500] [--repeat 5] [--out benchmarks/results/html.json]

A generated listing page (``pages.py``) is captured live, grown until its Mind2Web ``raw_html``
(``pipeline.html.mind2web_writer.to_mind2web_raw_html``) reaches ``--kb`` kilobytes, and then parsed back
with ``page_from_html(kind="mind2web_raw")`` ``--repeat`` times (median).
"""

from __future__ import annotations

import argparse
import asyncio
import time

from common import finish, machine_info, median, print_table
from live import add_run_args, browser_config, capture_listing_at_least, open_page
from targets import Target

from pipeline.html.mind2web_writer import to_mind2web_raw_html
from pipeline.html.source import page_from_html

TARGET_MS = 150.0


def raw_size(state) -> int:
    return len(to_mind2web_raw_html(state).encode("utf-8"))


async def build_raw_html(config, kb: int) -> tuple[str, int]:
    async with open_page(config) as page:
        state, products = await capture_listing_at_least(page, config, raw_size, kb * 1000)
    return to_mind2web_raw_html(state), products


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    add_run_args(parser, "html")
    args = parser.parse_args(argv)
    config = browser_config(args)
    raw, products = asyncio.run(build_raw_html(config, args.kb))
    times, state = [], None
    for _ in range(args.repeat):
        start = time.perf_counter()
        state = page_from_html(raw, kind="mind2web_raw")
        times.append((time.perf_counter() - start) * 1000)
    ms = median(times)
    kb = len(raw.encode("utf-8")) / 1000
    table = [["raw_html size (KB)", round(kb, 1)], ["listing products", products],
             ["PageState nodes", len(state.nodes)], ["parse ms (median)", round(ms, 1)],
             ["parse ms (all runs)", ", ".join(f"{t:.0f}" for t in times)]]
    print_table("Mind2Web raw_html -> PageState", ["measure", "value"], table)
    met = ms <= TARGET_MS
    target = Target(f"{kb:.0f} KB raw_html -> PageState", f"<= {TARGET_MS:g} ms",
                    f"{ms:.0f} ms ({len(state.nodes):,} nodes)", met,
                    "" if met else f"{ms - TARGET_MS:.0f} ms over ({ms / TARGET_MS:.1f}x)")
    print_table("target", ["target", "goal", "measured", "met"],
                [[target.name, target.target, target.measured, target.met]])
    finish({"machine": machine_info(str(config.executable_path)), "table": table,
            "times_ms": times, "targets": [target.to_dict()]}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
