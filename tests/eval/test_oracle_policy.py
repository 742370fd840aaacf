"""The eval oracle hands out the teacher's calls, but acts on the target it knows where the
teacher's queries missed it (never on the teacher's guess at the last query's top result), and
ends the step with the reason when the executor refuses its action (without planning again)."""

from __future__ import annotations

import asyncio

from verify_helpers import fixture_page, ref_of

from datagen.records import Operation, Step
from datagen.teachers.base import make_trajectory
from eval.baselines import OraclePolicy
from pipeline.agent.policy import Situation, turn_from_calls
from pipeline.tools import make_call

PAGE = fixture_page("forms.html")


class GuessingTeacher:
    """A teacher whose query missed the target: it clicks the query's top result, ``guess``."""

    def __init__(self, guess: int) -> None:
        self.guess = guess
        self.proposed = 0

    def propose(self, step, page, mode, rng, previous=None):
        self.proposed += 1
        query = turn_from_calls([make_call("query_elements", text="sign")]).message
        guess = turn_from_calls([make_call("click", index=self.guess)]).message
        meta = {"targets": [ref_of(page, "terms")], "found": False}
        return make_trajectory(step, mode, "oracle", [query, guess], meta)


def step_on(element_id: str) -> Step:
    return Step(step_id="case:1", task="Accept the terms", history=[],
                positives=[PAGE.backend_id(ref_of(PAGE, element_id))],
                operation=Operation("CLICK", ""), source="miniwob", annotation_id="case",
                action_uid="1", step_index=0, website="fixture", page=PAGE.state)


def calls_of(policy: OraclePolicy, gold: Step, refusal: str = "") -> list[dict]:
    """The oracle's calls for one step until it ends: each query answered by an empty tool
    result, an action by ``refusal`` (the step goes on) or accepted (no refusal given)."""
    messages = [{"role": "system", "content": ""}, {"role": "user", "content": ""}]
    calls = []
    while not calls or calls[-1]["name"] == "query_elements" or (
            refusal and calls[-1]["name"] != "done"):
        situation = Situation(gold.task, [], "query_only", messages, PAGE, gold)
        turn = asyncio.run(policy.next_turn(situation))
        call = turn.message["tool_calls"][0]["function"]
        reply = refusal if refusal and call["name"] != "query_elements" else ""
        messages += [turn.message, {"role": "tool", "content": reply}]
        calls.append(call)
    return calls


def test_a_missed_target_is_acted_on_not_the_teachers_guess():
    policy = OraclePolicy()
    policy.teacher = GuessingTeacher(guess=ref_of(PAGE, "login-submit"))
    calls = calls_of(policy, step_on("terms"))
    assert [c["name"] for c in calls] == ["query_elements", "click"]
    assert calls[-1]["arguments"] == {"index": ref_of(PAGE, "terms")}


def test_a_refused_action_ends_the_step_with_the_refusal_without_planning_again():
    policy = OraclePolicy()
    policy.teacher = GuessingTeacher(guess=ref_of(PAGE, "login-submit"))
    refusal = "Error: [7] is covered by <div>; close or answer that first"
    calls = calls_of(policy, step_on("terms"), refusal)
    assert [c["name"] for c in calls] == ["query_elements", "click", "done"]
    assert calls[-1]["arguments"]["answer"] == f"oracle: its action was refused: {refusal}"
    assert policy.teacher.proposed == 1
