"""Memory: a 10,000-node PageState (<= 50 MB) and RSS over 100 consecutive captures (flat).

    python benchmarks/memory_benchmark.py [--nodes 10000] [--captures 100]
        [--out benchmarks/results/memory.json]

1. A generated listing (``pages.py``) is captured live and grown until its PageState has at least
   ``--nodes`` nodes; it is saved, and ``PageState.load`` runs under tracemalloc: the memory still
   held afterwards is the record's size (the peak includes JSON parsing).
2. ``shop.html`` is loaded and captured ``--captures`` times in one browser, each state dropped;
   the RSS of this process and of the browser's process tree are sampled after every capture.
   Flat means: the median of the last 10 samples is within 5% of the median of samples 11-20
   (the first ten are warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tempfile
import tracemalloc
from pathlib import Path

import psutil
from common import finish, machine_info, median, print_table
from live import add_run_args, browser_config, capture_listing_at_least, open_page
from targets import Target
from tqdm import tqdm

from pipeline.capture import capture_page
from pipeline.live.static_server import serve_directory
from pipeline.page_state import PageState
from pipeline.report.page_set import FIXTURE_DIR

MB = 2**20
STATE_MB_TARGET = 50.0
FLAT_TOLERANCE = 0.05


def state_memory(state: PageState) -> dict[str, float]:
    """MB held by a PageState loaded from disk (and the load's peak), by tracemalloc."""
    with tempfile.TemporaryDirectory() as tmp:
        path = state.save(Path(tmp) / "state.json.gz")
        gc.collect()
        tracemalloc.start()
        loaded = PageState.load(path)
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        nodes = len(loaded.nodes)
        del loaded
    return {"nodes": nodes, "held_mb": current / MB, "peak_mb": peak / MB,
            "bytes_per_node": current / nodes}


def rss_tree_mb(root: psutil.Process) -> tuple[float, float]:
    """(this process's RSS, RSS summed over its child processes: driver and browser) in MB."""
    own = root.memory_info().rss
    children = 0
    for child in root.children(recursive=True):
        try:
            children += child.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return own / MB, children / MB


async def measure(config, nodes: int, captures: int) -> dict:
    async with open_page(config) as page:
        state, products = await capture_listing_at_least(page, config, lambda s: len(s.nodes),
                                                         nodes)
        memory = {**state_memory(state), "products": products}
        del state
        me, samples = psutil.Process(), []
        with serve_directory(FIXTURE_DIR) as base_url:
            for _ in tqdm(range(captures), desc="captures", unit="capture"):
                await page.goto(f"{base_url}/shop.html", wait_until="load")
                await capture_page(page, config)
                samples.append(rss_tree_mb(me))
    return {"memory": memory, "rss": samples}


def flat_verdict(series: list[float]) -> tuple[float, float, bool]:
    """(baseline, end, flat): medians of samples 11-20 and of the last 10."""
    baseline, end = median(series[10:20]), median(series[-10:])
    return baseline, end, end <= baseline * (1 + FLAT_TOLERANCE)


def targets_for(memory: dict, rss: list[tuple[float, float]]) -> list[Target]:
    held = memory["held_mb"]
    out = [Target(f"{memory['nodes']:,}-node PageState in memory", f"<= {STATE_MB_TARGET:g} MB",
                  f"{held:.1f} MB held ({memory['bytes_per_node']:.0f} B/node), "
                  f"{memory['peak_mb']:.1f} MB peak while loading", held <= STATE_MB_TARGET,
                  "" if held <= STATE_MB_TARGET else f"{held - STATE_MB_TARGET:.1f} MB over")]
    for label, series in (("python", [s[0] for s in rss]), ("browser", [s[1] for s in rss])):
        baseline, end, flat = flat_verdict(series)
        out.append(Target(
            f"RSS over {len(rss)} captures ({label})", f"flat (end within {FLAT_TOLERANCE:.0%})",
            f"first {series[0]:.0f}, max {max(series):.0f}, last {series[-1]:.0f} MB; "
            f"captures 11-20 {baseline:.0f} -> last 10 {end:.0f} MB", flat,
            "" if flat else f"grew {end / baseline - 1:.0%}"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--captures", type=int, default=100)
    add_run_args(parser, "memory")
    args = parser.parse_args(argv)
    if args.captures < 30:
        raise SystemExit(f"--captures {args.captures}: use at least 30 (the verdict compares "
                         "samples 11-20 with the last 10)")
    config = browser_config(args)
    result = asyncio.run(measure(config, args.nodes, args.captures))
    memory, rss = result["memory"], result["rss"]
    table = [["PageState nodes", memory["nodes"]], ["held MB", round(memory["held_mb"], 1)],
             ["peak MB while loading", round(memory["peak_mb"], 1)],
             ["bytes per node", round(memory["bytes_per_node"])],
             ["captures", len(rss)],
             ["python RSS MB first / max / last",
              " / ".join(f"{v:.0f}" for v in (rss[0][0], max(s[0] for s in rss), rss[-1][0]))],
             ["browser RSS MB first / max / last",
              " / ".join(f"{v:.0f}" for v in (rss[0][1], max(s[1] for s in rss), rss[-1][1]))]]
    print_table("memory", ["measure", "value"], table)
    targets = targets_for(memory, rss)
    print_table("targets", ["target", "goal", "measured", "met"],
                [[t.name, t.target, t.measured, t.met] for t in targets])
    finish({"machine": machine_info(str(config.executable_path)), "table": table,
            "memory": memory, "rss_mb": rss, "targets": [t.to_dict() for t in targets]}, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
