"""Issue 13's section of docs/BENCHMARKS.md: the engine on sources without runtime evidence and on
families it was never tuned on, from ``benchmarks/results/unseen.json``
(``benchmarks/unseen_benchmark.py``), with the earlier run it was compared with.

    parts += unseen_sections(results)     # results: name -> JSON of benchmarks/results/<name>.json
"""

from __future__ import annotations

from typing import Any

from common import markdown_table
from report_eval import MISSING

UNSEEN_RESULTS = ("unseen",)
KS = ("1", "5", "10")
ABOUT = (
    "Recorded MiniWoB++ episodes (seeds 5000+, never in a training dump) read three ways: "
    "`evidence` (raw_html as recorded, with `is_clickable`), `stripped` (the same raw_html "
    "without it: no listener or cursor evidence) and `cleaned` (cleaned_html only). Parts: "
    "`tuned` (the families the engine was tuned on), `held-out` (a quarter of datagen's families, "
    "chosen by hash before the first measurement and never looked at) and `new` (families "
    "datagen has no policy for, recorded by `benchmarks/unseen_policies.py` after the first "
    "tuning round; a second round read their misses too, see the notes), `breadth-read` and "
    "`breadth` (the families datagen's breadth policies added after both rounds, split in two "
    "by a salted hash before a third round read the misses of `breadth-read` only: `breadth` is "
    "still never looked at, the judge of that round; a fourth round read the misses of "
    "`tuned`, `new` and `breadth-read` again, and a fifth those of the same three parts; "
    "`held-out` and `breadth` stayed unread). "
    "Recall is `query_for_step` from the task alone; `ovl` ranks every element of the page by "
    "shared task words. A pick counts as the target when it lands on the target or on an "
    "element around or inside it that says nothing else (a span's link, a checkbox's label), "
    "for the engine and the baseline alike: the list around an item, or the task area that "
    "holds the printed task and so every task word, is not the target. `select_text` steps "
    "name a passage by its text and no element: they are left out of Recall."
)


def _pct(summary: dict[str, Any], key: str, k: str) -> float:
    return 100 * summary[key][k]


def unseen_sections(results: dict[str, dict[str, Any] | None]) -> list[str]:
    result = results.get("unseen")
    if result is None:
        return ["## Pages and data not tuned on (issue 13)", "", MISSING.format(name="unseen"), ""]
    rows = [[t["name"], t["target"], t["measured"],
             {True: "met", False: "NOT met", None: "not measured"}[t["met"]], t["gap"] or ""]
            for t in result.get("targets", [])]
    out = ["## Targets (issue 13: pages and data not tuned on)", "",
           markdown_table(["target", "goal", "measured", "verdict", "gap"], rows), "",
           "## Pages and data not tuned on (issue 13)", "", ABOUT, "",
           f"`{result.get('command', '')}` at `{result.get('commit', 'unknown')}`", ""]
    before = (result.get("before") or {}).get("summary", {})
    table = []
    for name, s in result["summary"].items():
        if not s.get("steps"):
            continue
        then = before.get(name)
        was = (f" (was {100 * then['refless']:.1f}, R@1 {_pct(then, 'engine', '1'):.1f}, "
               f"R@5 {_pct(then, 'engine', '5'):.1f})" if then else "")
        table.append([name, s["steps"], s["families"], f"{100 * s['refless']:.1f}{was}",
                      s["zero_ref_pages"], *(_pct(s, "engine", k) for k in KS),
                      *(_pct(s, "overlap", k) for k in KS), s["refs_per_page"]])
    out += [markdown_table(["variant/part", "steps", "families", "no ref % (before)",
                            "0-ref pages", "R@1", "R@5", "R@10", "ovl@1", "ovl@5", "ovl@10",
                            "refs/page"], table), ""]
    if before:
        commit = result["before"].get("commit")
        out += [f"Before: the engine of commit `{commit}`, scored by the same scripts.", ""]
    return out
