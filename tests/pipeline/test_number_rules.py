"""A rule the task sets for a number, judged on the numbers the page shows
(pipeline/query/number_rules.py): the true choice of a quiz row, the generator until its number
fits."""

from __future__ import annotations

import pytest

from pipeline.agent.observe import step_candidates
from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query.instruction import query_for_step
from pipeline.query.number_rules import fits, number_rule

QUIZ_TASK = "Mark the numbers below as odd or even and press submit when done."
GENERATE_TASK = "Generate a number less than 5, then press submit."


def _page(html: str):
    return distill(page_from_html(f"<!DOCTYPE html><title>t</title>{html}", kind="html"))


def _quiz(numbers: tuple[int, ...], chosen: dict[int, str]):
    """odd-or-even's rows: [Odd] number [Even]; ``chosen`` maps a row to its selected choice."""
    def button(row: int, kind: str) -> str:
        selected = " selected" if chosen.get(row) == kind else ""
        return f'<span><button class="{kind}{selected}">{kind.title()}</button></span>'
    rows = "".join(f'<div class="row">{button(row, "odd")}<span><div>{number}</div></span>'
                   f'{button(row, "even")}</div>' for row, number in enumerate(numbers))
    return _page(f'<div id="numbers">{rows}</div><button id="submit">Submit</button>')


def _generator(shown: str):
    """generate-number's page, with MiniWoB++'s reward display beside it (labelled values)."""
    return _page(f'<div id="query">{GENERATE_TASK}</div><div id="area">'
                 f'<div id="display-number">{shown}</div><div id="controls">'
                 '<button id="generate">Generate</button><button id="submit">Submit</button>'
                 '</div></div><div id="reward-display"><div><label>Last reward:</label>'
                 '<span>1</span></div><div><label>Episodes done:</label><span>12</span></div>'
                 "</div>")


def _first(task: str, history: list[str], page) -> str:
    """The label of the step's first candidate."""
    line = step_candidates(task, history, page).splitlines()[1]
    return line[line.index(">") + 1:line.index("</")]


@pytest.mark.parametrize(("task", "rule"), [
    (QUIZ_TASK, "parity"),
    (GENERATE_TASK, "lt:5"),
    ("Generate a number greater than 3, then press submit.", "gt:3"),
    ("Generate an odd number, then press submit.", "odd"),
    ("Generate an even number, then press submit.", "even"),
    ("Click the 3rd number in the list.", None),
    ("Enter the number 5 into the field.", None),
])
def test_the_rule_a_task_sets(task, rule):
    assert number_rule(task) == rule


def test_a_rule_judges_a_number():
    assert fits("lt:5", 4) and not fits("lt:5", 5)
    assert fits("gt:3", 4) and not fits("gt:3", 3)
    assert fits("odd", -3) and fits("even", 0) and not fits("even", 7)


def test_the_true_choice_of_the_first_open_row_leads():
    assert _first(QUIZ_TASK, [], _quiz((-4, 7, 0), {})) == "Even"
    assert _first(QUIZ_TASK, [], _quiz((9, 4, 0), {})) == "Odd"
    answered = _quiz((9, 4, 0), {0: "odd"})
    assert _first(QUIZ_TASK, ["[button]  Odd -> CLICK"], answered) == "Even"  # the row of 4


def test_the_generator_leads_until_its_number_fits_the_rule():
    clicked = ["[button]  Generate -> CLICK"]
    assert _first(GENERATE_TASK, [], _generator("-")) == "Generate"  # nothing generated yet
    assert _first(GENERATE_TASK, clicked, _generator("6")) == "Generate"  # 6 is not below 5
    assert _first(GENERATE_TASK, clicked, _generator("3")) == "Submit"
    twice = clicked * 2
    assert _first(GENERATE_TASK, twice, _generator("8")) == "Generate"
    assert _first(GENERATE_TASK, twice, _generator("0")) == "Submit"


def test_the_send_clause_keeps_the_rule():
    clicked = ["[button]  Generate -> CLICK"]
    assert query_for_step(GENERATE_TASK, clicked).arguments.get("number_rule") == "lt:5"
