"""The main job: capture the bundled page set and report how compact each rendering is.

    python -m pipeline report --config configs/pipeline/report.yaml [key=value ...]

For every fixture page and seeded MiniWoB++ task page it captures the live page in Chromium,
distils it, renders it flat and as an outline, and prints nodes / characters / tokens /
milliseconds per page for the raw HTML and both renderings. ``output_dir`` receives
``report.json`` (every row, the config and versions), ``report.md`` (the table) and, per page,
the PageState (``pages/<name>.json.gz``) and its renderings (``<name>.flat.txt``,
``<name>.outline.txt``).
"""

from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Literal

from tqdm import tqdm

from pipeline.config import config_to_dict
from pipeline.distill import DistillOptions, distill
from pipeline.live.browser import BrowserConfig
from pipeline.live.miniwob import BENCHMARK_TASKS, MiniwobError, check_task, serve_miniwob
from pipeline.live.static_server import serve_directory
from pipeline.render import render_flat, render_outline
from pipeline.render.metrics import CompactionMetrics, compaction_metrics, format_table
from pipeline.report.page_set import FIXTURE_DIR, fixture_pages, load_page, page_set


@dataclass
class ReportConfig:
    fixtures: list[str] | None = None  # fixture file names; None: every bundled page
    miniwob_tasks: list[str] = field(default_factory=lambda: list(BENCHMARK_TASKS))
    seed: int = 42  # MiniWoB++ episode seed
    limit: int | None = None  # at most this many pages (fixtures first)
    output_dir: str = "outputs/report"
    preset: Literal["full", "minimal"] = "full"  # distill passes
    browser: BrowserConfig = field(default_factory=BrowserConfig)

    def validate(self) -> list[str]:
        problems = []
        known = set(fixture_pages())
        for name in self.fixtures or []:
            if name not in known:
                problems.append(f"fixtures: no bundled page {name!r} (have {sorted(known)})")
        for task in self.miniwob_tasks:
            try:
                check_task(task)
            except MiniwobError as exc:  # names the task and similar ones
                problems.append(f"miniwob_tasks: {exc}")
        if self.limit is not None and self.limit < 1:
            problems.append(f"limit: {self.limit} must be at least 1 (or null for all pages)")
        return problems


def run_report(config: ReportConfig) -> list[CompactionMetrics]:
    """Run the job; returns the rows it printed."""
    from pipeline.capture import CaptureSession

    out = Path(config.output_dir)
    (out / "pages").mkdir(parents=True, exist_ok=True)
    options = DistillOptions.preset(config.preset)
    rows: list[CompactionMetrics] = []
    with (
        serve_directory(FIXTURE_DIR) as fixture_base,
        serve_miniwob() as miniwob_base,
        CaptureSession(config.browser) as session,
    ):
        specs = page_set(fixture_base, miniwob_base, config.fixtures, config.miniwob_tasks,
                         config.seed)[: config.limit]
        for spec in tqdm(specs, desc="pages", unit="page"):
            loaded = load_page(session, spec)
            start = time.perf_counter()
            page = distill(loaded.state, options)
            distilled = time.perf_counter()
            renderings = {"flat": render_flat(page), "outline": render_outline(page)}
            rendered = time.perf_counter()
            row = compaction_metrics(
                loaded.state, page, renderings, raw_html=loaded.raw_html, label=spec.name,
                timings={"capture": loaded.capture_ms, "distill+render":
                         (rendered - start) * 1000, "render": (rendered - distilled) * 1000},
            )
            rows.append(row)
            slug = spec.name.replace(":", "_")
            loaded.state.save(out / "pages" / f"{slug}.json.gz")
            for kind, text in renderings.items():
                (out / "pages" / f"{slug}.{kind}.txt").write_text(text, encoding="utf-8")
    table = format_table(rows)
    print(table)
    _write_results(out, config, rows, table)
    print(f"\nresults: {out / 'report.json'}, {out / 'report.md'}")
    return rows


def _write_results(out: Path, config: ReportConfig, rows: list[CompactionMetrics],
                   table: str) -> None:
    versions = {name: _version(name) for name in ("pagescout", "playwright", "transformers")}
    versions["python"] = platform.python_version()
    (out / "report.json").write_text(json.dumps({
        "config": config_to_dict(config),
        "versions": versions,
        "rows": [row.to_dict() for row in rows],
    }, indent=1), encoding="utf-8")
    command = "python -m pipeline report --config configs/pipeline/report.yaml"
    (out / "report.md").write_text(f"# Page-state report\n\n`{command}`\n\n```\n{table}\n```\n",
                                   encoding="utf-8")


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"
