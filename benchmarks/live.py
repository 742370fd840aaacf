"""Live pages for the benchmarks: one Playwright page in the discovered Chromium, and captures of
generated listing pages (``pages.py``) served from a temporary folder."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from pages import write_listing

from pipeline.capture import capture_page
from pipeline.live.browser import BrowserConfig, find_chromium, launch_browser, new_context
from pipeline.live.static_server import serve_directory
from pipeline.page_state import PageState


def add_run_args(parser: argparse.ArgumentParser, name: str) -> None:
    """``--out`` (default ``benchmarks/results/<name>.json``) and ``--executable``."""
    parser.add_argument("--out", default=f"benchmarks/results/{name}.json")
    parser.add_argument("--executable", help="Chromium binary (default: discovered)")


def browser_config(args: argparse.Namespace) -> BrowserConfig:
    return BrowserConfig(executable_path=args.executable or find_chromium())


@asynccontextmanager
async def open_page(config) -> AsyncIterator:
    """A fresh page (``config.viewport``, ``config.locale``) in a browser launched from ``config``.
    The browser-use peer uses the default 1280x720 and en-US too."""
    async with launch_browser(config) as browser:
        context = await new_context(browser, config)
        try:
            yield await context.new_page()
        finally:
            await context.close()


async def capture_listing(page, config, products: int) -> PageState:
    """Capture a generated listing of ``products`` cards in ``page``."""
    with tempfile.TemporaryDirectory(prefix="pagescout-bench-") as tmp:
        name = write_listing(Path(tmp), products)
        with serve_directory(tmp) as base_url:
            await page.goto(f"{base_url}/{name}", wait_until="load")
            return await capture_page(page, config)


async def capture_listing_at_least(page, config, measure, goal: float, start: int = 100):
    """Capture listings, growing the product count until ``measure(state) >= goal``.

    Sizes grow linearly with the product count, so one or two rescalings land near the goal.
    Returns ``(state, products)``.
    """
    products = start
    for _ in range(5):
        state = await capture_listing(page, config, products)
        size = measure(state)
        if size >= goal:
            return state, products
        products = int(products * goal / max(size, 1) * 1.03) + 1
    raise RuntimeError(f"a listing of {products} products is still under {goal:,.0f}")
