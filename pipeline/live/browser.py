"""Find and launch the headless Chromium that every live capture runs in.

``BrowserConfig`` holds the browser settings shared by capture, the agent loop and the benchmarks.
``find_chromium`` picks the executable (configured path, ``$PAGESCOUT_CHROMIUM``, Playwright's own
Chromium, then a system Chromium) and ``launch_browser`` starts it through Playwright with the
flags that work headless as root. Playwright's ``launch`` gives every browser a fresh temporary
profile (user-data-dir) and deletes it on close, so no state leaks between runs::

    async with launch_browser(BrowserConfig()) as browser:
        page = await browser.new_page()
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.errors import CaptureError, FormatError
from pipeline.page_state import MAX_NODES

ENV_VAR = "PAGESCOUT_CHROMIUM"

# Flags that work headless as root on Debian's Chromium and Playwright's Chromium alike.
HEADLESS_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)

SYSTEM_CHROMIUMS = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")

INSTALL_ADVICE = (
    "no Chromium found: install one with `python -m playwright install chromium` "
    "(or `apt-get install chromium`), or point browser.executable_path or "
    f"${ENV_VAR} at a Chromium executable"
)


@dataclass
class BrowserConfig:
    """Browser and capture settings. Times are milliseconds."""

    executable_path: str | None = None  # None: discover (see find_chromium)
    headless: bool = True
    locale: str = "en-US"
    viewport: tuple[int, int] = (1280, 720)
    launch_timeout_ms: int = 30_000
    navigation_timeout_ms: int = 30_000
    capture_timeout_ms: int = 15_000  # per CDP call of a capture
    action_timeout_ms: int = 5_000  # Playwright's default for clicks, fills, waits
    settle_timeout_ms: int = 2_000  # a capture waits this long at most for images to arrive; 0: no
    max_nodes: int = MAX_NODES  # a page with more nodes is refused, not captured
    # The full AX tree costs as much as the DOM snapshot again (~100 ms of 270 on the 200-product
    # page) and grows to seconds on huge pages; roles and names from HTML-AAM + accname rules
    # gave the same rendering on 37 of the 39 bundled pages (the other two only lost a select's
    # expanded=false). So it is off by default; turn it on for pages whose roles and names come
    # from scripts the rules cannot see. Above ax_max_elements it is skipped with a warning.
    capture_ax: bool = False
    ax_max_elements: int = 3_000
    allow_file_urls: bool = False
    extra_args: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        problems = self.validate()
        if problems:
            raise FormatError("invalid browser config: " + "; ".join(problems))

    def validate(self) -> list[str]:
        """Every problem with the values, each naming the key and the fix."""
        problems = []
        for key in ("launch_timeout_ms", "navigation_timeout_ms", "capture_timeout_ms",
                    "action_timeout_ms", "max_nodes", "ax_max_elements"):  # fmt: skip
            if getattr(self, key) <= 0:
                problems.append(f"{key} must be a positive number, got {getattr(self, key)}")
        if self.settle_timeout_ms < 0:
            problems.append(f"settle_timeout_ms must be 0 (no wait) or more, got "
                            f"{self.settle_timeout_ms}")
        width, height = self.viewport
        if width <= 0 or height <= 0:
            problems.append(
                f"viewport must be two positive sizes (width, height), got {width}x{height}"
            )
        return problems


def find_chromium(config: BrowserConfig | None = None, bundled: str | None = None) -> str:
    """Path of the Chromium to launch.

    Order: ``config.executable_path`` (must exist), ``$PAGESCOUT_CHROMIUM`` (must exist),
    Playwright's own Chromium if installed (``bundled`` when the caller already knows its path),
    then the system Chromium. Raises CaptureError naming what is missing and how to fix it.
    """
    configured = config.executable_path if config else None
    for source, path in (
        ("browser.executable_path", configured),
        (ENV_VAR, os.environ.get(ENV_VAR)),
    ):
        if path:
            if not Path(path).is_file():
                raise CaptureError(
                    f"{source} is {path!r}, which does not exist: fix the path or unset it "
                    "to let pagescout discover a Chromium"
                )
            return path
    candidate = bundled if bundled is not None else _playwright_chromium()
    if candidate and Path(candidate).is_file():
        return candidate
    for name in SYSTEM_CHROMIUMS:
        found = shutil.which(name)
        if found:
            return found
    raise CaptureError(INSTALL_ADVICE)


@cache
def _playwright_chromium() -> str:
    """Where Playwright keeps its own Chromium ("" if unknown); asks its driver in a thread so it
    works whether or not the caller runs an event loop."""
    result: list[str] = []

    def ask() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                result.append(p.chromium.executable_path)
        except Exception:  # noqa: BLE001 - a broken driver just means "no bundled Chromium"
            result.append("")

    thread = threading.Thread(target=ask, name="find-playwright-chromium", daemon=True)
    thread.start()
    thread.join(timeout=30)
    return result[0] if result else ""


def launch_args(config: BrowserConfig) -> list[str]:
    """Command-line flags for Chromium: the headless set plus ``extra_args``."""
    args = [a for a in HEADLESS_ARGS if config.headless or a != "--headless"]
    return args + [a for a in config.extra_args if a not in args]


@asynccontextmanager
async def launch_browser(config: BrowserConfig) -> AsyncIterator:
    """Start Playwright and a Chromium; yield the ``Browser``; close both on exit."""
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        executable = find_chromium(config, bundled=playwright.chromium.executable_path)
        try:
            browser = await playwright.chromium.launch(
                executable_path=executable,
                headless=config.headless,
                args=launch_args(config),
                timeout=config.launch_timeout_ms,
            )
        except PlaywrightError as exc:
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else repr(exc)
            raise CaptureError(
                f"could not start Chromium at {executable}: {first_line}; check that it runs "
                f"(`{executable} --version`) or set browser.executable_path / ${ENV_VAR}"
            ) from exc
        try:
            yield browser
        finally:
            await _close_quietly(browser)


async def new_context(browser, config: BrowserConfig):
    """A fresh browser context with the configured locale, viewport and timeouts."""
    width, height = config.viewport
    context = await browser.new_context(viewport={"width": width, "height": height},
                                        locale=config.locale)  # fmt: skip
    context.set_default_timeout(config.action_timeout_ms)
    context.set_default_navigation_timeout(config.navigation_timeout_ms)
    return context


async def _close_quietly(browser) -> None:
    """Close a browser that may already have crashed or been closed."""
    from playwright.async_api import Error as PlaywrightError

    try:
        await browser.close()
    except PlaywrightError:
        pass


async def detach_cdp(cdp: Any, timeout_s: float) -> None:
    """Release a CDP session; on a crashed or closed page detaching may never answer, so wait at
    most ``timeout_s``."""
    import asyncio

    from playwright.async_api import Error as PlaywrightError

    try:
        await asyncio.wait_for(cdp.detach(), timeout_s)
    except (PlaywrightError, TimeoutError):
        pass  # the target is gone and the session with it
