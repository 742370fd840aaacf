"""The DAgger recipe's section of docs/BENCHMARKS.md (issue 18), from ``recipe.json``.

    parts += recipe_section(results["recipe"])   # written by benchmarks/recipe_benchmark.py

Issue 18's targets, the stages' times, the training rounds, each DAgger round's episodes,
the rounds against each other on the validation seeds per task family, and the winner on the
test seeds with trained and held-out tasks apart; where it ran, the winner on every task with an
oracle policy (``eval_recipe_winner.json``).
"""

from __future__ import annotations

from typing import Any

from common import markdown_table
from report_eval import eval_section

from eval.select import select_markdown

RECIPE_RESULTS = ("recipe", "eval_recipe_winner")
TITLE = "On-policy data: the DAgger recipe (issue 18)"


def recipe_section(recipe: dict[str, Any] | None, breadth: dict[str, Any] | None) -> list[str]:
    """``recipe``: recipe.json; ``breadth``: the winner on every covered task
    (``eval_benchmark.py --name recipe_winner``), or None where it has not run."""
    out = [f"## {TITLE}", ""]
    if recipe is None:
        return out + [("_`benchmarks/results/recipe.json` is missing: that benchmark has not "
                      "run._"), ""]
    verdict = {True: "met", False: "NOT met", None: "not measured"}
    out += [(f"Command: `{recipe['command']}` at `{recipe['commit']}` on `{recipe['chain']}` "
            f"(1-minute load average {recipe['machine'].get('load_avg_1m')})."), "",
            markdown_table(["target", "goal", "measured", "verdict", "gap"],
                           [[t["name"], t["target"], t["measured"], verdict[t["met"]], t["gap"]]
                            for t in recipe["targets"]]), "",
            "Stage times (wall seconds on this machine):", "",
            markdown_table(list(recipe["stage_seconds"]), [list(recipe["stage_seconds"].values())]),
            "", "Training rounds (held-out turns of the dataset's test split):", "",
            markdown_table(["round", "records", "steps", "epochs", "s/step", "exact calls",
                            "valid calls", "turns"],
                           [[name, r["records"], r["steps"], r["epochs"], r["seconds_per_step"],
                             _percent(r["exact_call_match"]), _percent(r["valid_call_rate"]),
                             r["held_out_turns"]] for name, r in recipe["rounds"].items()]), ""]
    for number, d in enumerate(recipe["dagger"].values(), start=1):
        out += [(f"DAgger round {number}: the round-{number} student played {d['episodes']} "
                f"episodes ({d['solved']} solved, {d['seconds_per_episode']:.1f} s each); the "
                f"oracle labelled {d['labelled_steps']} steps; the student's action agreed with "
                f"the oracle's on {d['agreed']} of {d['student_actions']}."), ""]
    selection = select_markdown(recipe["select"]).splitlines()[1:]  # without its own title
    out += ["The rounds against each other on the validation seeds (`eval select`):", *selection,
            ""]
    out += ["The winner on the test seeds:", ""]
    out += eval_section("", recipe, "recipe")[2:]  # without its heading
    if breadth is not None:
        out += [("The winner on every task with an oracle policy, one test seed each (trained and "
                "held-out tasks apart):"), "", *eval_section("", breadth, "eval_recipe_winner")[2:]]
    return out


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"
