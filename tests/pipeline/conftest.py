"""Fixtures of the pipeline tests: a server for the hand-written pages in ``tests/data/pages``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.live.static_server import serve_directory

PAGES = Path(__file__).parents[1] / "data" / "pages"


@pytest.fixture(scope="session")
def pages_server() -> Iterator[str]:
    """Base URL serving ``tests/data/pages`` (actions.html, passages.html, sliders.html,
    typed_fields.html)."""
    with serve_directory(PAGES) as base_url:
        yield base_url
