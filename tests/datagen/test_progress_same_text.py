"""Training and use read the same progress lines: one recorded two-step task (type the e-mail,
then click Sign in) rendered by ``datagen build``'s worker and played by the live episode loop
on the same pages gives the second step the same user turn (history, last action's effect,
observation) in every mode. Real Mind2Web keeps its recorded ``action_reprs``."""

from __future__ import annotations

import asyncio
from copy import deepcopy

import pytest
from mind2web_reader_helpers import find, fixture_page

from datagen.build import TaskJob, Worker
from datagen.build_config import BuildConfig
from datagen.mind2web.steps import TaskRecord, make_step
from datagen.mind2web.writer import action_record, task_record
from datagen.teachers import target_refs
from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.agent.history import history_line
from pipeline.agent.loop import StepLimits, play_episode
from pipeline.agent.modes import MODES
from pipeline.agent.policy import Situation, Turn, turn_from_calls
from pipeline.distill import distill
from pipeline.html.mind2web_format import action_repr, operation
from pipeline.tools import make_call

EMAIL = "ada@example.com"
TASK = f"Sign in as {EMAIL}"


def recorded_task(domain: str = "miniwob") -> TaskRecord:
    """The task as the recorder writes it (domain "miniwob"): each action's page, target and
    operation."""
    first = fixture_page("forms.html")
    field = find(first, "input", id="login-email")
    submit = find(first, "button", id="login-submit")
    second = deepcopy(first)
    second.nodes[field.id].value = EMAIL  # what typing left in the field
    typed, clicked = operation("TYPE", EMAIL), operation("CLICK")
    data = task_record(
        "forms-s0", "acme-account", domain, "login", TASK,
        [action_repr(first, field.backend_id, typed), action_repr(second, submit.backend_id,
                                                                  clicked)],
        [action_record("forms-s0-a0", first, field.backend_id, typed, []),
         action_record("forms-s0-a1", second, submit.backend_id, clicked, [])])
    return TaskRecord("forms-s0.json", 0, 0, "train", data)


def built_user_turns(task: TaskRecord, source: str) -> dict[str, str]:
    """The second step's user turn per mode, as ``datagen build`` writes it."""
    config = BuildConfig(input=["unused"], source=source, modes=list(MODES))
    outputs = Worker(config).run(TaskJob(task, [0, 1]))
    turns = {}
    for _, key, _, record in outputs:
        step_id, mode = key.split("|")
        if step_id.endswith("-a1"):
            turns[mode] = record["messages"][1]["content"]
    return turns


class Recorded:
    """The recorded pages, served in order as a live environment would capture them."""

    def __init__(self, task: TaskRecord) -> None:
        self.steps = [make_step(task, i, []) for i in range(2)]
        self.pages = [distill(step.load_page()) for step in self.steps]
        self.at = 0

    async def observe(self):
        return self.pages[self.at]

    async def act(self, call, page):
        self.at += 1
        return execute_offline(call, page)

    async def finished(self) -> bool:
        return self.at >= len(self.pages)


class Replay:
    """Acts as the recording did, and keeps each step's user turn."""

    name = "replay"

    def __init__(self, env: Recorded) -> None:
        self.env = env
        self.user_turns: list[str] = []

    async def next_turn(self, situation: Situation) -> Turn:
        self.user_turns.append(situation.messages[1]["content"])
        step = self.env.steps[self.env.at]
        ref = target_refs(situation.page, step.positives)[0]
        call = (make_call("type", index=ref, text=step.operation.value)
                if step.operation.op == "TYPE" else make_call("click", index=ref))
        return turn_from_calls([call], "Acting.")


@pytest.mark.parametrize("mode", MODES)
def test_datagen_and_the_live_loop_write_the_same_user_turn(mode):
    task = recorded_task()
    built = built_user_turns(task, "miniwob")[mode]
    env = Recorded(task)
    policy = Replay(env)
    record = asyncio.run(play_episode(policy, env, TASK, mode, StepLimits(), history_line,
                                      opening))
    assert record.stop == "finished"
    live = policy.user_turns[1]
    assert live == built
    assert "- [textbox]  Email address -> TYPE: ada@example.com\n" in live
    assert f'now holds "{EMAIL}"; nothing else changed.' in live


def test_real_mind2web_history_stays_as_recorded_and_own_recordings_are_rewritten():
    theirs = recorded_task(domain="Account")
    theirs.data["action_reprs"][0] = "[input]  Email -> TYPE: ada@example.com"  # their writer's
    turn = built_user_turns(theirs, "mind2web")["query_only"]
    assert "- [input]  Email -> TYPE: ada@example.com\n" in turn
    assert "Last action's effect:" in turn
    ours = recorded_task()
    ours.data["action_reprs"][0] = "[input]  Email -> TYPE: ada@example.com"  # an older recorder
    for source in ("miniwob", "mind2web"):  # eval reads every file as source mind2web
        turn = built_user_turns(ours, source)["query_only"]
        assert "- [textbox]  Email address -> TYPE: ada@example.com\n" in turn
