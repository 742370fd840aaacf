"""The results table in the terminal (rich), the same figures as report.md's first table."""

from __future__ import annotations

from typing import Any

from eval.report import LIVE_COLUMNS, OFFLINE_COLUMNS, cell


def print_summary(results: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    live = results["benchmark"] in ("miniwob", "browsergym")
    columns = LIVE_COLUMNS if live else OFFLINE_COLUMNS
    scopes = [None] + sorted({g for d in results["runs"].values() for g in d["groups"]})
    console = Console()
    for scope in scopes:
        table = Table(title=f"{results['benchmark']}: {scope or 'all'}")
        table.add_column("run")
        for _, name, _ in columns:
            table.add_column(name, justify="right")
        for run, data in results["runs"].items():
            figures = data["aggregate"] if scope is None else data["groups"].get(scope)
            if figures:
                table.add_row(run, *[cell(figures.get(k), pct) for k, _, pct in columns])
        console.print(table)
