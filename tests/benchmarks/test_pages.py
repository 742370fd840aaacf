"""Page selection and the generated listing page of the benchmarks (no browser)."""

from __future__ import annotations

import pytest
from common import select_pages
from pages import listing_html

from pipeline.html.source import page_from_html
from pipeline.report.page_set import page_set


def test_select_pages_by_name():
    pages = page_set("http://f", "http://m", fixtures=["shop.html"], seed=7)
    assert [p.name for p in select_pages(pages, ["mw:click-button"])] == ["mw:click-button"]
    assert select_pages(pages, None) == pages
    with pytest.raises(SystemExit, match="unknown page"):
        select_pages(pages, ["nope"])


def test_listing_grows_linearly():
    small, large = (len(page_from_html(listing_html(n)).nodes) for n in (10, 20))
    per_card = large - small
    assert per_card >= 20
    assert abs(len(page_from_html(listing_html(40)).nodes) - (small + 3 * per_card)) <= 1
