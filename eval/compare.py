"""``python -m eval compare A/results.json B/results.json``: the differences that are larger
than their intervals, and the same episodes paired.

For every run present in both files and every figure with an interval (``{value, n, low,
high}``) in its aggregate and groups, a line is printed when the two 95% intervals do not
overlap -- the differences worth a look; the rest is reported as a count.

Two checkpoints played on the same seeds are compared more sharply episode by episode: where
both folders hold their ``episodes.jsonl``, the episodes of a shared run with the same key
(a repeated key paired in the order played) are counted as solved by both, by A only, by B
only or by neither, overall and per group, with McNemar's exact test on the episodes only one
of them solved (the two-sided binomial p-value of the split): A of 125 and B of 250 episodes
pair on A's 125.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from math import comb
from pathlib import Path
from typing import Any

from eval.journal import Journal
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


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value: the chance of a split of the discordant episodes at
    least this uneven if either checkpoint were as likely to be the one that solved each."""
    n = only_a + only_b
    tail = sum(comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def _outcomes(folder: Path) -> dict[str, dict[tuple[str, int], tuple[str, bool]]]:
    """run -> (episode key, how many times it was played before) -> (group, solved)."""
    runs: dict[str, dict[tuple[str, int], tuple[str, bool]]] = defaultdict(dict)
    played: Counter[str] = Counter()
    for row in Journal(folder / "episodes.jsonl").rows():
        if isinstance(row.get("success"), bool) and "key" in row and "run" in row:
            runs[row["run"]][(row["key"], played[row["key"]])] = (row.get("group") or "all",
                                                                  row["success"])
            played[row["key"]] += 1
    return runs


def paired(folder_a: Path, folder_b: Path, shared: list[str]) -> list[str]:
    """Lines pairing the episodes of each shared run that both folders played."""
    a, b = _outcomes(folder_a), _outcomes(folder_b)
    lines = []
    for run in shared:
        common = sorted(set(a.get(run, {})) & set(b.get(run, {})))
        if not common:
            continue
        lines.append(f"{run}: paired on the {len(common)} episodes both played")
        counts: dict[str, Counter[tuple[bool, bool]]] = defaultdict(Counter)
        for episode in common:
            group, solved_a = a[run][episode]
            pair = (solved_a, b[run][episode][1])
            counts["all"][pair] += 1
            counts[group][pair] += 1
        for group in ["all", *sorted(set(counts) - {"all"})]:
            c = counts[group]
            n, only_a, only_b = sum(c.values()), c[(True, False)], c[(False, True)]
            lines.append(f"  [{group}] n={n}: A {only_a + c[(True, True)]}, "
                         f"B {only_b + c[(True, True)]} solved; both {c[(True, True)]}, "
                         f"A only {only_a}, B only {only_b}, neither {c[(False, False)]}; "
                         f"McNemar p={mcnemar_p(only_a, only_b):.3g}")
    return lines


def compare(path_a: str, path_b: str) -> str:
    a, b = load(path_a), load(path_b)
    lines, same = differences(a, b)
    shared = sorted(set(a["runs"]) & set(b["runs"]))
    if not shared:
        return f"no run in common (A: {sorted(a['runs'])}, B: {sorted(b['runs'])})"
    head = f"{len(lines)} differences beyond their 95% intervals ({same} figures within them)"
    pairs = paired(Path(path_a).parent, Path(path_b).parent, shared)
    return "\n".join([head, *lines, *pairs])
