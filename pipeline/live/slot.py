"""A browser slot: one capture session whose page (or, if need be, whole browser) is replaced
after a crash, so long runs of episodes lose only the episode that crashed.

    async with BrowserSlot(browser_config) as slot:
        await slot.page.goto(url)
        ...
        await slot.recover()          # after a crash or a timeout: a fresh page or browser

Used by the datagen recorder and the live eval harnesses (one slot per worker).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from importlib import metadata
from typing import Any, Self

from pipeline.capture import AsyncCaptureSession
from pipeline.live.browser import BrowserConfig

RECOVER_TIMEOUT_S = 15.0


class BrowserSlot:
    def __init__(self, config: BrowserConfig) -> None:
        self.config = config
        self.session: AsyncCaptureSession | None = None

    async def __aenter__(self) -> Self:
        self.session = await AsyncCaptureSession(self.config).__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.session.__aexit__(*exc)

    @property
    def page(self) -> Any:
        return self.session.page

    async def versions(self) -> dict[str, str]:
        return {"python": sys.version.split()[0], "miniwob": metadata.version("miniwob"),
                "playwright": metadata.version("playwright"),
                "chromium": self.page.context.browser.version}

    async def recover(self) -> None:
        """A fresh page; a fresh browser when the page cannot be replaced."""
        from playwright.async_api import Error as PlaywrightError

        try:
            await asyncio.wait_for(self.session.new_page(), RECOVER_TIMEOUT_S)
            return
        except (PlaywrightError, TimeoutError):  # the browser itself is gone or hung
            pass
        with contextlib.suppress(PlaywrightError, TimeoutError):  # it may be dead already
            await asyncio.wait_for(self.session.__aexit__(None, None, None), RECOVER_TIMEOUT_S)
        await self.__aenter__()
