"""The oracle-coverage section of docs/BENCHMARKS.md, from ``benchmarks/results/oracle.json``
(written by ``benchmarks/oracle_benchmark.py``).

    parts += oracle_section(results["oracle"])
"""

from __future__ import annotations

import json
from typing import Any

from common import markdown_table

ORACLE_RESULTS = ("oracle",)


def oracle_section(oracle: dict[str, Any] | None) -> list[str]:
    out = ["## Oracle policies on BrowserGym's 125 MiniWoB++ tasks (issue 15)", ""]
    if oracle is None:
        return out + [("_`benchmarks/results/oracle.json` is missing: that benchmark has not "
                      "run._")]
    s = oracle["summary"]
    out += [(f"Command: `{oracle['command']}` at `{oracle['commit']}` (1-minute load average "
            f"{oracle['machine'].get('load_avg_1m')}); rows played in separate runs carry their "
            "own episode counts. A task is covered when its scripted policy wins >= 95% of >= 20 "
            "live seeds (raw reward 1, as `datagen record` plays it); tasks listed impossible "
            "(`datagen/miniwob/policies/impossible.py`) and tasks without a policy count as 0%."),
            "",
            markdown_table(["tasks", "with a policy", "covered (>= 95%)", "impossible",
                            "no policy", "mean success, all 125"],
                           [[s["tasks"], s["with_policy"], s["covered"], s["impossible"],
                             s["no_policy"], f"{100 * s['mean_success_all_tasks']:.1f}%"]]),
            "",
            markdown_table(["task", "status", "success %", "episodes", "most actions",
                            "failures / reason"],
                           [[r["task"], r["status"], round(100 * r["rate"]),
                             r.get("episodes", 0), r.get("longest", ""), _why(r)]
                            for r in oracle["rows"]])]
    return out


def _why(row: dict[str, Any]) -> str:
    if row.get("reason"):
        return row["reason"]
    return json.dumps(row["failures"]) if row.get("failures") else ""
