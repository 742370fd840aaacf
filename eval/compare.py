"""``python -m eval compare A/results.json B/results.json``: the differences that are larger
than their intervals.

For every run present in both files and every figure with an interval (``{value, n, low,
high}``) in its aggregate and groups, a line is printed when the two 95% intervals do not
overlap -- the differences worth a look; the rest is reported as a count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.errors import FormatError


def load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise FormatError(f"{path}: cannot read it ({exc.strerror})") from exc
    except ValueError as exc:
        raise FormatError(f"{path}: not JSON ({exc})") from exc
    if not isinstance(data, dict) or "runs" not in data:
        raise FormatError(f"{path}: not a results.json written by python -m eval (no 'runs')")
    return data


def differences(a: dict[str, Any], b: dict[str, Any]) -> tuple[list[str], int]:
    """Lines for figures whose intervals do not overlap, and how many figures overlapped."""
    lines, same = [], 0
    for run in sorted(set(a["runs"]) & set(b["runs"])):
        ra, rb = a["runs"][run], b["runs"][run]
        scopes = [("all", ra["aggregate"], rb["aggregate"])]
        scopes += [(g, ra["groups"][g], rb["groups"][g])
                   for g in sorted(set(ra["groups"]) & set(rb["groups"]))]
        for scope, fa, fb in scopes:
            for key in sorted(set(fa) & set(fb)):
                x, y = fa[key], fb[key]
                if not (isinstance(x, dict) and "low" in x and isinstance(y, dict)):
                    continue
                if x["low"] <= y["high"] and y["low"] <= x["high"]:
                    same += 1
                    continue
                lines.append(f"{run} [{scope}] {key}: {x['value']:.4g} "
                             f"[{x['low']:.4g}, {x['high']:.4g}] n={x['n']} -> {y['value']:.4g} "
                             f"[{y['low']:.4g}, {y['high']:.4g}] n={y['n']} "
                             f"({y['value'] - x['value']:+.4g})")
    return lines, same


def compare(path_a: str, path_b: str) -> str:
    a, b = load(path_a), load(path_b)
    lines, same = differences(a, b)
    shared = sorted(set(a["runs"]) & set(b["runs"]))
    if not shared:
        return f"no run in common (A: {sorted(a['runs'])}, B: {sorted(b['runs'])})"
    head = f"{len(lines)} differences beyond their 95% intervals ({same} figures within them)"
    return "\n".join([head, *lines])
