"""Golden renderings of every fixture page, captured live in headless Chromium.

Each fixture page is captured, distilled and rendered flat and as an outline; the texts must equal
``tests/golden/<page>.{flat,outline}.txt`` (the served base URL is replaced by ``http://fixtures``).
After an intended change, regenerate with ``PAGESCOUT_UPDATE_GOLDEN=1 pytest tests/pipeline/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.distill import distill
from pipeline.render import render_flat, render_outline
from pipeline.report.page_set import fixture_pages

GOLDEN = Path(__file__).parents[1] / "golden"
UPDATE = os.environ.get("PAGESCOUT_UPDATE_GOLDEN") == "1"


@pytest.mark.browser
@pytest.mark.parametrize("name", fixture_pages())
def test_fixture_page_renders_as_golden(name, capture_fixture, fixture_server):
    page = distill(capture_fixture(name))
    renderings = {"flat": render_flat(page), "outline": render_outline(page)}
    stem = Path(name).stem
    for kind, text in renderings.items():
        text = text.replace(fixture_server, "http://fixtures") + "\n"
        path = GOLDEN / f"{stem}.{kind}.txt"
        if UPDATE:
            path.write_text(text, encoding="utf-8")
        assert path.exists(), f"no golden file {path}; run with PAGESCOUT_UPDATE_GOLDEN=1"
        assert text == path.read_text(encoding="utf-8"), f"{path.name} differs"
