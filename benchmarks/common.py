"""Shared by the benchmark scripts: the page set, the machine description, tables and JSON output.

Each script prints its tables and the exact command that produced them, and writes the same
numbers as JSON (with the machine and the command) for docs/BENCHMARKS.md.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the scripts run as files: make `pipeline` importable
    sys.path.insert(0, str(REPO))

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pipeline.report.page_set import PageSpec

PEER_VENV = REPO / ".cache" / "peers" / "browser-use" / "venv"
DEFAULT_SEED = 42
console = Console(width=max(shutil.get_terminal_size().columns, 200))


def select_pages(pages: list[PageSpec], wanted: Sequence[str] | None) -> list[PageSpec]:
    """Pages whose name is in ``wanted`` (``shop``, ``mw:click-button``); all when None."""
    if not wanted:
        return pages
    known = {p.name for p in pages}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise SystemExit(f"unknown page(s) {unknown}; choose from: {', '.join(sorted(known))}")
    return [p for p in pages if p.name in wanted]


# --- machine ------------------------------------------------------------------------------------
VECTOR_ISA = ("amx_bf16", "avx512_bf16", "avx512f", "avx2")


def machine_info(chromium: str | None = None) -> dict[str, Any]:
    """CPU model, cores, RAM, OS, Chromium and Python package versions."""
    import psutil

    cpu, flags = platform.processor() or "unknown", set()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        text = cpuinfo.read_text()
        match = re.search(r"model name\s*:\s*(.+)", text)
        cpu = match.group(1).strip() if match else cpu
        found = re.search(r"^flags\s*:\s*(.+)$", text, re.MULTILINE)
        flags = set(found.group(1).split()) if found else set()
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "vector_isa": [f for f in VECTOR_ISA if f in flags],  # bf16 training needs the first two
        "ram_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "load_avg_1m": round(os.getloadavg()[0], 2),  # at the end of the run: other jobs' load
        "os": platform.platform(),
        "python": platform.python_version(),
        "chromium": chromium_version(chromium),
        "packages": {
            name: _version(name) for name in ("playwright", "tokenizers", "lxml", "miniwob")
        },
        "browser_use": peer_version(),
    }


def chromium_version(executable: str | None) -> str:
    if not executable:
        return "unknown"
    try:
        out = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=20,
                             check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({exc})"
    return out.stdout.strip().splitlines()[0] if out.stdout.strip() else "unknown"


def peer_version() -> str | None:
    """browser-use's version in its own venv, or None when the peer is not set up."""
    found = sorted(PEER_VENV.glob("lib/python*/site-packages/browser_use-*.dist-info"))
    return found[-1].name.removeprefix("browser_use-").removesuffix(".dist-info") if found else None


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


# --- numbers and output -------------------------------------------------------------------------
def median(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else a / b


def _head() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                         cwd=REPO, check=False)
    return out.stdout.strip() or "unknown"


_HEAD_AT_IMPORT = _head()  # a benchmark hours long may end after a new commit


def git_commit() -> str:
    """HEAD of the checkout when the benchmark started, i.e. of the code it imported ("unknown"
    outside git)."""
    return _HEAD_AT_IMPORT


def command_line() -> str:
    return "python " + shlex.join([os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]])


def fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def print_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    table = Table(title=title, title_justify="left")
    for i, column in enumerate(columns):
        table.add_column(column, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*(fmt(v) for v in row))
    console.print(table)


def markdown_table(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The same table as GitHub markdown (for docs/BENCHMARKS.md)."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "|".join(["---"] * len(columns)) + "|"]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def write_json(path: str | Path, payload: dict[str, Any]) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    console.print(f"wrote {path}")
    return path


def finish(payload: dict[str, Any], out: str | Path) -> None:
    """Add the command to the payload, write it and print the command that produced it."""
    payload["command"] = command_line()
    payload["commit"] = git_commit()
    write_json(out, payload)
    console.print(f"command: [bold]{escape(payload['command'])}[/bold]")  # keeps `k=[a,b]`
