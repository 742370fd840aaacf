"""Open any page source as a PageState: a URL (live capture), an HTML file or a saved state.

``open_source("https://...")`` captures the page in Chromium; a path to ``.html``/``.htm``
(ordinary HTML or a Mind2Web ``raw_html``/``cleaned_html`` dump) is parsed without a browser; a
``.json``/``.json.gz`` path is loaded as a saved PageState. Files over ``max_file_bytes`` are
refused with a clear error instead of being read, and every source refuses a page with more than
``max_nodes`` nodes (a live page by its element count, a file while it is parsed).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from pipeline.errors import CaptureError, FormatError
from pipeline.live.browser import BrowserConfig
from pipeline.page_state import MAX_NODES, PageState

DEFAULT_MAX_FILE_BYTES = 50_000_000


def is_url(source: str) -> bool:
    return urlsplit(source).scheme.lower() in {"http", "https", "file", "data", "about"}


def open_source(
    source: str,
    browser: BrowserConfig | None = None,
    kind: str = "auto",
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    max_nodes: int = MAX_NODES,
) -> PageState:
    """A PageState for a URL or a local file (see the module docstring)."""
    if is_url(source):
        from pipeline.capture import check_url, snapshot_url

        browser = browser or BrowserConfig()
        check_url(source, browser)  # before a browser starts
        return snapshot_url(source, browser)
    path = Path(source)
    if not path.exists():
        raise CaptureError(
            f"{source}: neither a URL (http://, https://, file://) nor an existing file"
        )
    if not path.is_file():
        raise FormatError(f"{source}: is a directory; give an HTML file or a .json.gz page state")
    size = path.stat().st_size
    if size > max_file_bytes:
        raise FormatError(
            f"{source}: {size:,} bytes is over the limit of {max_file_bytes:,}; "
            "raise --max-file-bytes if the page is really that large"
        )
    from pipeline.html.source import page_from_file

    return page_from_file(path, kind=kind, max_nodes=max_nodes)
