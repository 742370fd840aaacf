"""MiniWoB++ task pages served from the installed ``miniwob`` wheel, and seeded episodes on them.

The wheel ships the pages under ``miniwob/html/`` (``miniwob/*.html`` are the tasks, ``core/`` the
shared scripts, ``flight/`` three tasks that are not used here). This module finds that folder
without importing the package (its ``__init__`` pulls in gymnasium), serves it over HTTP and runs
the episode hooks of ``core.js`` from one JS file (``pipeline/js/miniwob_episode.js``) that the
browser-use benchmark peer runs too, so both sides see the same seeded page::

    with serve_miniwob() as base_url:
        await page.goto(task_url(base_url, "click-button"))
        episode = await start_episode(page, "click-button", seed=7)
        ...  # act on the page
        result = await episode_result(page)  # EpisodeResult(done, reward, raw_reward, reason)

From the synchronous ``pipeline.capture.CaptureSession`` (its page is an async Playwright page run
on the session's loop)::

    with CaptureSession(config) as session:
        session.goto(task_url(base_url, "click-button"))
        episode = session.run(start_episode(session.page, "click-button", seed=7))
        state = session.capture()

Used by the benchmarks, the datagen recorder and the live evaluation.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from pipeline.errors import CaptureError
from pipeline.live.static_server import serve_directory

EPISODE_JS_PATH = Path(__file__).parents[1] / "js" / "miniwob_episode.js"
DEFAULT_MAX_TIME_MS = 60_000  # long enough that a slow agent step does not time the episode out
DEFAULT_HOOK_TIMEOUT_MS = 5_000  # how long to wait for the cover and WOB_TASK_READY

# >= 20 varied tasks that click/type/select/press on element refs can solve (FACTS.md).
BENCHMARK_TASKS: tuple[str, ...] = (
    "click-test-2",
    "click-button",
    "click-link",
    "click-dialog-2",
    "click-widget",
    "click-tab",
    "click-tab-2",
    "click-option",
    "click-checkboxes",
    "click-collapsible-2",
    "click-button-sequence",
    "click-scroll-list",
    "focus-text-2",
    "enter-text",
    "enter-password",
    "enter-date",
    "login-user",
    "login-user-popup",
    "choose-list",
    "use-autocomplete",
    "use-spinner",
    "navigate-tree",
    "search-engine",
    "email-inbox-delete",
    "social-media",
    "read-table",
    "multi-orderings",
)


class MiniwobError(CaptureError):
    """The MiniWoB++ pages are missing, a task is unknown, or an episode hook failed."""


@dataclass(frozen=True, slots=True)
class Episode:
    """A started episode: the instruction and its key/value fields (e.g. ``("target", "OK")``)."""

    task: str
    seed: int | str
    utterance: str
    fields: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class EpisodeResult:
    """Judge success by ``raw_reward >= 1``; ``reward`` is scaled down by the time taken."""

    done: bool
    reward: float
    raw_reward: float
    reason: str | None

    @property
    def success(self) -> bool:
        return self.done and self.raw_reward >= 1


# --- pages --------------------------------------------------------------------------------------
@cache
def miniwob_html_dir() -> Path:
    """The installed wheel's ``html/`` folder (holds ``miniwob/``, ``core/``, ``common/``)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise MiniwobError("the `miniwob` package is not installed: run `pip install miniwob`")
    html = Path(next(iter(spec.submodule_search_locations))) / "html"
    if not (html / "miniwob").is_dir() or not (html / "core" / "core.js").is_file():
        raise MiniwobError(f"{html} lacks miniwob/ or core/core.js: reinstall the `miniwob` wheel")
    return html


def list_tasks() -> list[str]:
    """Names of all task pages in ``html/miniwob/``, sorted (``flight/`` tasks are not listed)."""
    return sorted(p.stem for p in (miniwob_html_dir() / "miniwob").glob("*.html"))


def check_task(task: str) -> str:
    """Return ``task`` if a page exists for it, else raise naming close alternatives."""
    if (miniwob_html_dir() / "miniwob" / f"{task}.html").is_file():
        return task
    close = [t for t in list_tasks() if task.split("-")[0] in t][:8]
    hint = f"; similar: {', '.join(close)}" if close else "; see pipeline.live.miniwob.list_tasks()"
    raise MiniwobError(f"unknown MiniWoB++ task {task!r}{hint}")


@contextmanager
def serve_miniwob() -> Iterator[str]:
    """Serve the wheel's ``html/`` folder on 127.0.0.1; yields the base URL."""
    with serve_directory(miniwob_html_dir()) as base_url:
        yield base_url


def task_url(base_url: str, task: str) -> str:
    """URL of a task page under a server started by ``serve_miniwob``."""
    return f"{base_url.rstrip('/')}/miniwob/{check_task(task)}.html"


# --- episodes -----------------------------------------------------------------------------------
@cache
def episode_js() -> str:
    """The hook function expression shared with the browser-use peer."""
    return EPISODE_JS_PATH.read_text(encoding="utf-8")


def start_args(seed: int | str, max_time_ms: int, timeout_ms: int = DEFAULT_HOOK_TIMEOUT_MS):
    """Argument of the hook function for ``action: "start"`` (a JSON-serialisable dict).

    ``seed`` keeps its type: ``Math.seedrandom(42)`` and ``Math.seedrandom("42")`` differ.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise MiniwobError(f"episode seed must be an int or a str, got {seed!r}")
    if max_time_ms <= 0:
        raise MiniwobError(f"max_time_ms must be positive, got {max_time_ms}")
    return {"action": "start", "seed": seed, "maxTimeMs": max_time_ms, "timeoutMs": timeout_ms}


RESULT_ARGS = {"action": "result"}


def episode_from(task: str, seed: int | str, response: Any) -> Episode:
    """Build an Episode from ``core.getUtterance()``: a string, or ``{utterance, fields}``."""
    if isinstance(response, dict):
        utterance = str(response.get("utterance", ""))
        fields = tuple((str(k), str(v)) for k, v in (response.get("fields") or {}).items())
    elif isinstance(response, str):
        utterance = response
        fields = _extract_fields(task, utterance)
    else:
        raise MiniwobError(f"{task}: core.getUtterance() returned {response!r}, not text")
    return Episode(task=task, seed=seed, utterance=utterance, fields=fields)


def result_from(response: dict[str, Any]) -> EpisodeResult:
    return EpisodeResult(
        done=bool(response["done"]),
        reward=float(response["reward"]),
        raw_reward=float(response["raw_reward"]),
        reason=response["reason"],
    )


async def start_episode(
    page, task: str, seed: int | str, max_time_ms: int = DEFAULT_MAX_TIME_MS
) -> Episode:
    """Start a seeded episode on ``page`` (already at ``task_url(base, task)``; async Playwright)."""
    _check_page(page.url, task)
    args = start_args(seed, max_time_ms)
    try:
        response = await page.evaluate(episode_js(), args)
    except Exception as exc:  # Playwright's Error: re-raised with the task named
        raise MiniwobError(f"{task}: could not start the episode: {exc}") from exc
    return episode_from(task, seed, response)


async def episode_result(page) -> EpisodeResult:
    """Done flag, time-scaled reward, raw reward and reason of the current episode."""
    return result_from(await page.evaluate(episode_js(), RESULT_ARGS))


def _check_page(url: str, task: str) -> None:
    if not urlsplit(url).path.endswith(f"/miniwob/{check_task(task)}.html"):
        raise MiniwobError(
            f"the page is at {url}, not the {task!r} task: "
            f"`page.goto(task_url(base_url, {task!r}))` first"
        )


@cache
def _fields_module() -> ModuleType:
    """Load the wheel's ``fields.py`` (stdlib-only) without running ``miniwob/__init__``."""
    path = miniwob_html_dir().parent / "fields.py"
    spec = importlib.util.spec_from_file_location("_pagescout_miniwob_fields", path)
    if spec is None or spec.loader is None:
        raise MiniwobError(f"cannot load {path}: reinstall the `miniwob` wheel")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _extract_fields(task: str, utterance: str) -> tuple[tuple[str, str], ...]:
    """miniwob's own per-task field extractor; no fields for a task that has none."""
    extractor = _fields_module().FIELD_EXTRACTORS.get(task)
    if extractor is None:
        return ()
    try:
        return tuple((str(k), str(v)) for k, v in extractor(utterance))
    except ValueError as exc:
        raise MiniwobError(f"{task}: miniwob cannot read fields from {utterance!r}: {exc}") from exc
