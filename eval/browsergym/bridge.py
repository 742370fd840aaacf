"""Our side of the BrowserGym bridge: BrowserGym runs in its own venv, we drive its page over CDP.

    async with BrowserGymBridge(None) as bridge:          # venv: $PAGESCOUT_BROWSERGYM_VENV or
        episodes = await bridge.benchmark()                #       .cache/browsergym-venv
        goal, page = await bridge.reset("click-button", 13)   # page: an async Playwright Page
        ...                                                # act with the project's own tools
        validation = await bridge.validate()               # .reward .terminated .truncated
        await bridge.close_episode()

BrowserGym pins Playwright 1.44, so ``server.py`` runs in the virtualenv that
``scripts/setup_browsergym.sh`` makes, speaking JSON lines over its stdin/stdout. The bridge
serves the ``miniwob`` package's task pages over HTTP (``MINIWOB_URL``, the same pages as the
MiniWoB++ harness), hands the server the project's Chromium and headless flags, and connects the
project's Playwright to each episode's browser with ``connect_over_cdp``. A request that fails
raises ``BridgeError`` with the tail of the server's log; after a timeout or a crash the pipe
is out of step, so every request fails until ``restart()`` replaces the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from eval.browsergym.benchmark import MAX_STEPS, BenchmarkEpisode, benchmark_episodes
from pipeline.errors import PagescoutError
from pipeline.live.browser import BrowserConfig, find_chromium, launch_args
from pipeline.live.miniwob import serve_miniwob

ENV_VAR = "PAGESCOUT_BROWSERGYM_VENV"
ROOT = Path(__file__).resolve().parents[2]
DEFAULT_VENV = ROOT / ".cache" / "browsergym-venv"
SERVER = Path(__file__).with_name("server.py")
START_TIMEOUT_S = 60.0  # importing BrowserGym and building its benchmark list
RESET_TIMEOUT_S = 60.0  # two Chromium launches and BrowserGym's first observation
REQUEST_TIMEOUT_S = 30.0
CLOSE_TIMEOUT_S = 10.0


class BridgeError(PagescoutError):
    """The BrowserGym venv is missing, or its server failed, hung or disagreed with us."""


@dataclass(frozen=True, slots=True)
class Validation:
    """The task's own verdict: BrowserGym's reward is 1.0 when MiniWoB's raw reward > 0."""

    reward: float
    terminated: bool
    truncated: bool  # always False: the step budget is the harness's max_steps
    raw_reward: float | None = None
    reason: str | None = None


def venv_path(configured: str | None = None) -> Path:
    """The BrowserGym venv: ``configured``, ``$PAGESCOUT_BROWSERGYM_VENV``, or the default."""
    raw = configured or os.environ.get(ENV_VAR)
    return Path(raw).expanduser().resolve() if raw else DEFAULT_VENV


def venv_python(configured: str | None = None) -> Path:
    """The venv's Python; raises BridgeError naming the setup command when it is missing."""
    python = venv_path(configured) / "bin" / "python"
    if not python.is_file():
        raise BridgeError(
            f"no BrowserGym venv at {python.parent.parent}: run `bash scripts/setup_browsergym.sh`"
            f" (or point browsergym.venv / ${ENV_VAR} at one)")
    return python


class BrowserGymBridge:
    def __init__(self, venv: str | None = None, browser: BrowserConfig | None = None) -> None:
        self.venv = venv
        self.browser = browser or BrowserConfig()
        self.versions: dict[str, str] = {}
        self._stack = contextlib.ExitStack()
        self._playwright: Any = None
        self._process: asyncio.subprocess.Process | None = None
        self._hello: dict[str, Any] = {}
        self._log: Path | None = None  # the server's stderr
        self._miniwob_url = ""  # MINIWOB_URL: the task pages, served while the bridge is open
        self._cdp: Any = None  # our connection to the episode's browser
        self._open = False  # the server holds an episode
        self._broken = ""  # why the pipe is out of step (until restart)

    async def __aenter__(self) -> Self:
        from playwright.async_api import async_playwright

        python = venv_python(self.venv)
        self._miniwob_url = f"{self._stack.enter_context(serve_miniwob())}/miniwob/"
        self._log = Path(self._stack.enter_context(tempfile.TemporaryDirectory(
            prefix="pagescout-browsergym-"))) / "server.log"
        try:
            self._playwright = await async_playwright().start()
            await self._start(python)
        except BaseException:
            await self.__aexit__(None, None, None)
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            await self.close_episode()
        await self._stop()
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None
        self._stack.close()

    @property
    def pid(self) -> int | None:
        """The server's process id; its session holds BrowserGym's driver and browsers."""
        return self._process.pid if self._process is not None else None

    async def benchmark(self) -> list[BenchmarkEpisode]:
        """The leaderboard's 625 episodes; checked against the installed browsergym-experiments."""
        episodes = benchmark_episodes()
        theirs = self._hello.get("episodes")
        if theirs is not None:
            ours = [[f"miniwob.{e.task}", e.seed] for e in episodes]
            if theirs != ours:
                first = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b),
                             min(len(theirs), len(ours)))
                raise BridgeError(
                    f"BrowserGym's miniwob benchmark ({len(theirs)} episodes) differs from "
                    f"eval.browsergym.benchmark ({len(ours)}) at episode {first}: "
                    f"{theirs[first:first + 1]} vs {ours[first:first + 1]}; update TASKS or the "
                    "seed derivation to the installed browsergym-experiments")
            if self._hello.get("max_steps") not in (None, [MAX_STEPS]):
                raise BridgeError(f"BrowserGym's max_steps is {self._hello['max_steps']}, "
                                  f"eval.browsergym.benchmark says {MAX_STEPS}")
        return episodes

    async def reset(self, task: str, seed: int) -> tuple[str, Any]:
        """Start BrowserGym's episode; return its goal and the task page, in our Playwright."""
        await self.close_episode()
        reply = await self._request({"op": "reset", "task": task, "seed": seed}, RESET_TIMEOUT_S)
        self._open = True
        self._cdp = await self._playwright.chromium.connect_over_cdp(
            reply["cdp_url"], timeout=self.browser.launch_timeout_ms)
        pages = [p for c in self._cdp.contexts for p in c.pages]
        page = next((p for p in pages if p.url == reply["url"]), None)
        if page is None:
            raise BridgeError(f"{task}: no page at {reply['url']} in BrowserGym's browser "
                              f"(pages: {[p.url for p in pages]})")
        page.context.set_default_timeout(self.browser.action_timeout_ms)
        page.context.set_default_navigation_timeout(self.browser.navigation_timeout_ms)
        return reply["goal"], page

    async def validate(self) -> Validation:
        reply = await self._request({"op": "validate"}, REQUEST_TIMEOUT_S)
        return Validation(reply["reward"], reply["terminated"], reply["truncated"],
                          reply.get("raw_reward"), reply.get("reason"))

    async def close_episode(self) -> None:
        """Drop our CDP connection and let BrowserGym close the episode's browsers."""
        cdp, self._cdp = self._cdp, None
        if cdp is not None:
            with contextlib.suppress(Exception):  # the browser may be gone already
                await asyncio.wait_for(cdp.close(), CLOSE_TIMEOUT_S)
        if self._open and not self._broken:
            self._open = False
            try:
                await self._request({"op": "close"}, REQUEST_TIMEOUT_S)
            except BridgeError:  # a server that cannot close an episode cannot start the next
                await self.restart()
        self._open = False

    async def restart(self) -> None:
        """A fresh server (after a crash, a hang or an out-of-step pipe)."""
        with contextlib.suppress(Exception):
            await self.close_episode()
        await self._stop()
        await self._start(venv_python(self.venv))

    # --- the server process -----------------------------------------------------------------
    async def _start(self, python: Path) -> None:
        flags = [a for a in launch_args(self.browser) if not a.startswith("--headless")]
        config = {"chromium": find_chromium(self.browser), "args": flags}
        with self._log.open("ab") as log:
            self._process = await asyncio.create_subprocess_exec(
                str(python), str(SERVER), json.dumps(config),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log,
                env={**os.environ, "MINIWOB_URL": self._miniwob_url}, start_new_session=True)
        self._broken = ""
        self._hello = await self._request({"op": "hello"}, START_TIMEOUT_S)
        self.versions = self._hello["versions"]

    async def _stop(self) -> None:
        process, self._process = self._process, None
        self._open = False
        if process is None or process.returncode is not None:
            return
        if not self._broken:
            with contextlib.suppress(Exception):
                process.stdin.write(b'{"op": "quit"}\n')
                await process.stdin.drain()
                await asyncio.wait_for(process.wait(), CLOSE_TIMEOUT_S)
        if process.returncode is None:  # hung: end its session (the server, driver, browsers)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()

    async def _request(self, message: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        op = message["op"]
        process = self._process
        if self._broken or process is None or process.returncode is not None:
            raise BridgeError(f"BrowserGym server unusable ({self._broken or 'not running'}): "
                              f"restart the bridge{self._log_tail()}")
        try:
            process.stdin.write((json.dumps(message) + "\n").encode())
            await process.stdin.drain()
            line = await asyncio.wait_for(process.stdout.readline(), timeout_s)
        except asyncio.CancelledError:  # e.g. the episode's timeout: the reply is still owed
            self._broken = f"{op} cancelled"
            raise
        except (TimeoutError, OSError) as exc:
            self._broken = f"no answer to {op}: {type(exc).__name__}"
            raise BridgeError(f"BrowserGym server: no answer to {op} within {timeout_s:.0f} s"
                              f"{self._log_tail()}") from exc
        if not line:
            self._broken = f"exited during {op}"
            raise BridgeError(f"BrowserGym server exited during {op}{self._log_tail()}")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise BridgeError(f"BrowserGym {op} failed: {reply.get('error')}")
        return reply

    def _log_tail(self, lines: int = 12) -> str:
        if self._log is None or not self._log.exists():
            return ""
        tail = self._log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
        return ("; server log: " + " | ".join(tail)) if tail else ""
