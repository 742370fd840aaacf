"""Serve a folder over HTTP on 127.0.0.1 in a background thread.

Used for the bundled fixture pages and the MiniWoB++ task pages (same-origin iframes and some
MiniWoB++ tasks need http, not file://). Usage::

    with serve_directory(path) as base_url:
        page.goto(f"{base_url}/shop.html")
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:
        pass

    def guess_type(self, path) -> str:
        """Text files are served as UTF-8 (pages without a meta charset, such as some MiniWoB++
        tasks, would otherwise be read as windows-1252 and garble their non-ASCII text)."""
        kind = super().guess_type(path)
        return f"{kind}; charset=utf-8" if kind.startswith("text/") or kind.endswith(
            "javascript") else kind


@contextmanager
def serve_directory(path: str | Path, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:<port>``) of a server for ``path``."""
    root = Path(path)
    if not root.is_dir():
        raise FileNotFoundError(f"cannot serve {root}: not a directory")
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name=f"serve:{root.name}", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
