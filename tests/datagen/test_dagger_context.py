"""A DAgger task file says what the student did where it was not the label (``dagger.executed``),
and ``datagen build`` shows the next step that action: its history line and its effect, as the
live loop showed them to the student, never the oracle's label it did not take."""

from __future__ import annotations

from copy import deepcopy

import pytest
from mind2web_reader_helpers import find, fixture_page

from datagen.context import TaskContext
from datagen.mind2web.steps import Problem, TaskRecord, make_step, parse_executed
from datagen.mind2web.writer import action_record, task_record
from datagen.records import Executed, Step
from pipeline.agent.history import history_line
from pipeline.distill import distill
from pipeline.html.mind2web_format import action_repr, operation

EMAIL = "ada@example.com"
TASK = f"Sign in as {EMAIL}"


def dagger_task() -> TaskRecord:
    """Step 0: the label types the e-mail into its field, the student typed it into the password
    field; step 1 (the page the student reached): the label is the e-mail field again."""
    first = fixture_page("forms.html")
    email = find(first, "input", id="login-email")
    password = find(first, "input", id="login-password")
    second = deepcopy(first)
    second.nodes[password.id].value = EMAIL
    typed = operation("TYPE", EMAIL)
    student = {"name": "type", "arguments": {"text": EMAIL},
               "elements": {"index": password.backend_id}}
    actions = [
        {**action_record("d-a0", first, email.backend_id, typed, []),
         "dagger": {"by": "student", "student": "", "agreed": False, "executed": student}},
        {**action_record("d-a1", second, email.backend_id, typed, []),
         "dagger": {"by": "oracle", "student": "(no action)", "agreed": False, "executed": None}},
    ]
    reprs = [action_repr(first, password.backend_id, typed), action_repr(second, email.backend_id,
                                                                          typed)]
    data = task_record("miniwob-dagger-forms-s5000", "forms", "miniwob", "forms", TASK, reprs,
                       actions)
    return TaskRecord("dagger_0.json", 0, 0, "train", data)


def test_the_next_step_is_shown_what_the_student_did():
    task = dagger_task()
    steps = [make_step(task, i, []) for i in range(2)]
    assert steps[0].executed == Executed("type", {"text": EMAIL},
                                         {"index": steps[0].executed.elements["index"]})
    assert steps[1].executed is None
    context = TaskContext()
    pages = []
    for step in steps:
        shown, previous = context.before(step)
        page = distill(step.load_page())
        pages.append((shown, previous, page))
        context.after(step, page)
    shown, previous, _ = pages[1]
    first_page = pages[0][2]
    password_ref = previous.action.arguments["index"]
    assert previous.action.name == "type" and previous.action.arguments["text"] == EMAIL
    assert first_page.backend_id(password_ref) == steps[0].executed.elements["index"]
    assert shown.history == [history_line(previous.action, first_page)]
    assert "Password" in shown.history[0] and "Email" not in shown.history[0]


def test_a_step_round_trips_its_executed_call():
    step = make_step(dagger_task(), 0, [])
    assert Step.from_dict(step.to_dict()).executed == step.executed


@pytest.mark.parametrize("bad", [
    {"executed": {"arguments": {}}},
    {"executed": {"name": "type", "arguments": "x"}},
    {"executed": {"name": "type", "elements": {"index": "7"}}},
    {"executed": {"name": "type", "elements": [7]}},
])
def test_a_malformed_executed_call_is_named(bad):
    with pytest.raises(Problem, match="dagger.executed"):
        parse_executed(bad)
