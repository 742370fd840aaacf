"""Live results per family, trained and held-out tasks apart, and the report's gap table."""

from __future__ import annotations

from eval.report import family_gap
from eval.results import summarize_live


def _row(task: str, group: str, success: bool) -> dict:
    return {"run": "checkpoint/query_only", "policy": "checkpoint", "mode": "query_only",
            "task": task, "group": group, "success": success, "reward": float(success),
            "turns": 1, "valid_calls": 1, "steps": 1, "tool_calls": 1, "seconds": 1.0,
            "step_tool_calls": [1], "step_prompt_tokens": [100], "step_completion_tokens": [10],
            "observation_tokens": [50], "stop": "done"}


def test_success_per_family_keeps_trained_and_heldout_tasks_apart():
    rows = ([_row("click-button", "trained", True)] * 3 + [_row("click-link", "heldout_task",
                                                                 s) for s in (True, False)]
            + [_row("enter-text", "trained", True)] * 2)
    runs = summarize_live(rows)
    families = runs["checkpoint/query_only"]["per_family"]
    assert families["click"]["trained"]["value"] == 1.0 and families["click"]["trained"]["n"] == 3
    assert families["click"]["heldout_task"]["value"] == 0.5
    assert set(families["enter"]) == {"trained"}
    table = family_gap(runs)
    assert table[0] == "## Trained vs held-out tasks per family"
    assert [line for line in table if line.startswith("| checkpoint")] == [
        line for line in table if "| click |" in line and line.endswith("| +50.0 |")]
    assert family_gap(summarize_live([_row("enter-text", "trained", True)])) == []
