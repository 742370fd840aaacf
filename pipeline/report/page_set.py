"""The bundled page set: the fixture pages and seeded MiniWoB++ task pages, and how to load one.

Used by the main job (``python -m pipeline report``) and the benchmarks, so both measure the same
pages the same way::

    with serve_directory(FIXTURE_DIR) as fx, serve_miniwob() as mw, CaptureSession() as session:
        for spec in page_set(fx, mw, seed=42):
            loaded = load_page(session, spec)   # LoadedPage(state, raw_html, capture_ms, ...)
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pipeline.live.miniwob import BENCHMARK_TASKS, start_episode, task_url
from pipeline.page_state import PageState

FIXTURE_DIR = Path(__file__).parents[1] / "fixtures"


@dataclass(frozen=True, slots=True)
class PageSpec:
    """One page: a fixture (``task`` None) or a seeded MiniWoB++ task page (name ``mw:<task>``)."""

    name: str
    url: str
    task: str | None = None
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(slots=True)
class LoadedPage:
    spec: PageSpec
    state: PageState
    raw_html: str  # the live DOM as HTML (page.content()) at capture time
    capture_ms: float  # CDP capture only (navigation and episode start excluded)
    utterance: str | None = None  # the MiniWoB++ instruction


def fixture_pages() -> list[str]:
    """Fixture file names that are pages of their own (not only loaded into another's iframe)."""
    files = sorted(FIXTURE_DIR.glob("*.html"))
    framed = {
        src
        for path in files
        for src in re.findall(r"<i?frame[^>]*\ssrc=\"([^\":]+)\"", path.read_text("utf-8"))
    }
    return [p.name for p in files if p.name not in framed]


def page_set(
    fixture_base: str,
    miniwob_base: str,
    fixtures: Sequence[str] | None = None,
    tasks: Sequence[str] = BENCHMARK_TASKS,
    seed: int = 42,
) -> list[PageSpec]:
    """The fixture pages, then the seeded MiniWoB++ task pages, under the two served bases."""
    names = fixture_pages() if fixtures is None else list(fixtures)
    pages = [PageSpec(Path(n).stem, f"{fixture_base}/{n}") for n in names]
    pages += [PageSpec(f"mw:{t}", task_url(miniwob_base, t), t, seed) for t in tasks]
    return pages


def load_page(session, spec: PageSpec) -> LoadedPage:
    """Navigate a ``CaptureSession`` to the page (starting the seeded episode of a task page) and
    capture it."""
    session.goto(spec.url)
    utterance = None
    if spec.task is not None:
        episode = session.run(start_episode(session.page, spec.task, spec.seed))
        utterance = episode.utterance
    start = time.perf_counter()
    state = session.capture()
    capture_ms = (time.perf_counter() - start) * 1000
    raw_html = session.run(session.page.content())
    return LoadedPage(spec, state, raw_html, capture_ms, utterance)
