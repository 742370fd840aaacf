"""The browser-use peer (``peers/browser_use_serialize.py``) as a long-lived subprocess.

``Peer`` starts the peer in its own venv (set up on first use by ``peers/setup_browser_use.sh``)
and measures one page per ``measure(spec)`` call, so the benchmark can alternate pagescout's and
browser-use's measurement page by page: both sides then see the same background load.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Self

from common import PEER_VENV, REPO, console

from pipeline.report.page_set import PageSpec

PEERS = REPO / "benchmarks" / "peers"


def ensure_peer() -> Path:
    """The peer venv's python, installing browser-use first when the venv is missing."""
    python = PEER_VENV / "bin" / "python"
    if not python.exists():
        console.print("setting up the browser-use peer (benchmarks/peers/setup_browser_use.sh)")
        subprocess.run(["bash", str(PEERS / "setup_browser_use.sh")], check=True, cwd=REPO)
    return python


class Peer:
    """``with Peer(repeat, executable) as peer: row = peer.measure(spec)``."""

    def __init__(self, repeat: int, executable: str) -> None:
        self.command = [str(ensure_peer()), str(PEERS / "browser_use_serialize.py"),
                        "--repeat", str(repeat), "--executable", executable]
        self._tmp = tempfile.TemporaryDirectory(prefix="pagescout-peer-")
        self._log = Path(self._tmp.name) / "stderr.log"
        self._proc: subprocess.Popen | None = None

    def __enter__(self) -> Self:
        self._err = self._log.open("w")
        self._proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=self._err, text=True, cwd=REPO)
        return self

    def measure(self, spec: PageSpec) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdin and self._proc.stdout
        self._proc.stdin.write(json.dumps(spec.to_dict()) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            tail = self._log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"browser-use peer exited ({self._proc.poll()}):\n{tail}")
        return json.loads(line)

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._err.close()
        self._tmp.cleanup()
