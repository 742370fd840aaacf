"""The agent's step and episode loops with scripted policies: queries feed back, the first
accepted action ends the step, bad output and refused actions are answered (or stop the step
without feedback), the call limit holds, and nothing a policy does raises."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.agent.history import history_line
from pipeline.agent.loop import FUTILE, EpisodeRecord, StepLimits, play_episode, play_step
from pipeline.agent.policy import Situation, Turn, turn_from_text
from pipeline.distill import distill
from pipeline.html.source import page_from_file
from pipeline.tools import make_call

FORMS = Path(__file__).resolve().parents[2] / "pipeline" / "fixtures" / "forms.html"


@pytest.fixture(scope="module")
def page():
    return distill(page_from_file(FORMS))


class Scripted:
    """Replies with the given texts in order (model-style raw text), then repeats the last."""

    name = "scripted"

    def __init__(self, *texts: str) -> None:
        self.texts = list(texts)
        self.seen: list[int] = []

    async def next_turn(self, situation: Situation) -> Turn:
        self.seen.append(len(situation.messages))
        text = self.texts.pop(0) if len(self.texts) > 1 else self.texts[0]
        return turn_from_text(text)


async def offline(call, page):
    return execute_offline(call, page)


def situation(page, mode="query_only"):
    return Situation("Sign in", [], mode, opening("Sign in", [], page, mode), page)


def play(policy, page, limits: StepLimits | None = None):
    limits = limits or StepLimits(max_tool_calls=3)
    return asyncio.run(play_step(policy, situation(page), offline, limits))


def test_a_query_then_an_action_ends_the_step_with_the_action(page):
    ref = next(iter(page.refs))
    policy = Scripted('Looking.\n<bu_query>{"text": "sign in"}<bu_end>',
                      f'Clicking.\n<bu_click>{{"index": {ref}}}<bu_end>')
    out = play(policy, page)
    assert out.stop == "action" and out.action == make_call("click", index=ref)
    assert out.queries == 1 and out.rejected == 0 and out.valid_calls == 2
    roles = [m["role"] for m in out.messages]
    assert roles == ["system", "user", "assistant", "tool", "assistant"]
    assert out.messages[2]["content"] == "Looking."  # the rationale, the call in tool_calls
    assert policy.seen == [2, 4]  # the policy saw the query's result before acting


def test_garbage_unknown_tools_and_bad_refs_are_answered_and_count_against_the_limit(page):
    policy = Scripted("lorem ipsum dolor", '<bu_fly>{"to": "moon"}<bu_end>',
                      '<bu_click>{"index": 99999}<bu_end>', '<bu_click>{"index": "x"}')
    out = play(policy, page, StepLimits(max_tool_calls=3))
    assert out.action is None and out.stop == "max_tool_calls"
    assert out.rejected == 4 and len(out.turns) == 4  # 3 calls + the last chance, all rejected
    answers = [m["content"] for m in out.messages if m["role"] == "tool"]
    assert len(answers) == 4 and all(a.startswith("Error") for a in answers)
    assert "no element [99999]" in answers[2]


def test_an_action_refused_twice_in_a_step_ends_the_step(page):
    ref = next(iter(page.refs))
    policy = Scripted('<bu_click>{"index": 99999}<bu_end>', '<bu_type>{"index": 99999, '
                      '"text": "a"}<bu_end>', '<bu_click>{"index": 99999}<bu_end>',
                      f'<bu_click>{{"index": {ref}}}<bu_end>')
    out = play(policy, page, StepLimits(max_tool_calls=6))
    assert out.action is None and out.stop == "repeated_refusal"
    assert len(out.turns) == 3 and out.rejected == 3  # the second click is the last call
    last = out.messages[-1]
    assert last["role"] == "tool" and "no element [99999]" in last["content"]


def test_without_feedback_the_first_bad_reply_stops_the_step_as_written(page):
    out = play(Scripted("no call here"), page, StepLimits(feedback_errors=False))
    assert out.stop == "invalid_call: no_call" and out.messages[-1]["content"] == "no call here"
    out = play(Scripted('<bu_click>{"index": 99999}<bu_end>'), page,
               StepLimits(feedback_errors=False))
    assert out.stop == "refused: no_such_ref" and out.action is not None


def test_a_policy_that_raises_ends_the_step_not_the_run(page):
    class Broken:
        name = "broken"

        async def next_turn(self, situation):
            raise RuntimeError("endpoint down")

    out = play(Broken(), page)
    assert out.stop.startswith("policy_error: RuntimeError: endpoint down")
    assert isinstance(out.error, RuntimeError) and out.action is None


class FakeEnv:
    """A page that never changes; finished after ``after`` accepted actions."""

    def __init__(self, page, after: int) -> None:
        self.page, self.after, self.acted = page, after, 0

    async def observe(self):
        return self.page

    async def act(self, call, page):
        result = execute_offline(call, page)
        self.acted += result.ok
        return result

    async def finished(self):
        return self.acted >= self.after


def test_an_episode_runs_until_the_environment_is_finished_and_writes_history(page):
    ref = next(r for r, n in page.refs.items() if n.tag == "button")
    policy = Scripted(f'<bu_click>{{"index": {ref}}}<bu_end>')
    record = asyncio.run(play_episode(policy, FakeEnv(page, 2), "Sign in", "query_only",
                                      StepLimits(max_steps=5), history_line, opening))
    assert record.stop == "finished" and len(record.steps) == 2
    assert record.history == [history_line(make_call("click", index=ref), page)] * 2
    assert record.history[0].endswith("-> CLICK")


def test_an_episode_stops_at_done_or_at_max_steps(page):
    done = asyncio.run(play_episode(Scripted('<bu_done>{"answer": "42"}<bu_end>'),
                                    FakeEnv(page, 99), "Sum", "full", StepLimits(max_steps=4),
                                    history_line, opening))
    assert done.stop == "done" and done.answer == "42" and len(done.steps) == 1
    garbage = asyncio.run(play_episode(Scripted("???"), FakeEnv(page, 99), "Sum", "hybrid",
                                       StepLimits(max_tool_calls=1, max_steps=3), history_line,
                                       opening))
    assert garbage.stop == "idle" and len(garbage.steps) == 3
    assert garbage.history == ["(no action: max_tool_calls)"] * 3
    ref = next(iter(page.refs))
    busy = asyncio.run(play_episode(Scripted(f'<bu_click>{{"index": {ref}}}<bu_end>'),
                                    FakeEnv(page, 99), "Sum", "full", StepLimits(max_steps=4),
                                    history_line, opening))
    assert busy.stop == "max_steps" and len(busy.steps) == 4


def test_an_action_that_changed_nothing_is_refused_until_the_page_changes(page):
    ref = next(iter(page.refs))
    click = f'<bu_click>{{"index": {ref}}}<bu_end>'
    limits = StepLimits(max_steps=6, refuse_futile_repeats=True)
    looping = asyncio.run(play_episode(Scripted(click), FakeEnv(page, 99), "Sum", "full", limits,
                                       history_line, opening))
    # the click runs once; every later proposal of it is refused without running it
    assert looping.stop == "idle" and len(looping.steps) == 4
    assert [s.stop for s in looping.steps] == ["action"] + ["repeated_refusal"] * 3
    assert looping.steps[1].messages[-1]["content"] == FUTILE
    other = next(r for r in page.refs if r != ref)
    moved_on = asyncio.run(play_episode(
        Scripted(click, click, f'<bu_click>{{"index": {other}}}<bu_end>'), FakeEnv(page, 99),
        "Sum", "full", replace(limits, max_steps=2), history_line, opening))
    assert [s.stop for s in moved_on.steps] == ["action", "action"]  # refused, then another
    assert moved_on.steps[1].action == make_call("click", index=other)


def _candidates(step) -> list[int]:
    block = step.messages[1]["content"].split("Candidates for this step")[1].split("\n\n")[0]
    return [int(ref) for ref in re.findall(r"^\[(\d+)\]", block, re.MULTILINE)]


def test_an_element_whose_action_changed_nothing_moves_last_in_the_planned_candidates(page):
    first = _candidates(asyncio.run(play_episode(
        Scripted("???"), FakeEnv(page, 99), "Sign in", "planned", StepLimits(max_steps=1),
        history_line, opening)).steps[0])
    click = f'<bu_click>{{"index": {first[0]}}}<bu_end>'
    limits = StepLimits(max_steps=3, refuse_futile_repeats=True)
    record = asyncio.run(play_episode(Scripted(click), FakeEnv(page, 99), "Sign in", "planned",
                                      limits, history_line, opening))
    steps = [_candidates(step) for step in record.steps]
    assert steps[0] == first and len(first) == 3
    # the click changed nothing: the next candidates move up and it goes last (its keys may go
    # to it next), also after a step with no action
    assert steps[1] == steps[2] == [*first[1:], first[0]]
    assert [s.stop for s in record.steps] == ["action", "repeated_refusal", "repeated_refusal"]
    unchecked = asyncio.run(play_episode(Scripted(click), FakeEnv(page, 99), "Sign in",
                                         "planned", replace(limits, refuse_futile_repeats=False),
                                         history_line, opening))
    assert all(_candidates(step) == first for step in unchecked.steps)


def test_unusable_replies_in_a_row_end_the_step_and_the_episode(page):
    ref = next(iter(page.refs))
    refused = f'<bu_click>{{"index": {ref + 99999}}}<bu_end>'  # refused, not unusable: resets
    policy = Scripted("Sure! I can help.", "Let me think.", refused, "no call", "nor here",
                      "still prose")
    out = play(policy, page, StepLimits(max_tool_calls=6))
    assert out.stop == "invalid_replies" and len(out.turns) == 6 and out.rejected == 6
    rambler = asyncio.run(play_episode(Scripted("I would click the button."), FakeEnv(page, 99),
                                       "Sign in", "query_only", StepLimits(max_steps=10),
                                       history_line, opening))
    assert rambler.stop == "invalid_replies" and len(rambler.steps) == 1
    assert len(rambler.steps[0].turns) == 3  # not 7 turns a step for 3 idle steps
    assert rambler.history == ["(no action: invalid_replies)"]


class Stalling(Scripted):
    """Replies as ``Scripted`` until its texts run out, then never again."""

    async def next_turn(self, situation: Situation) -> Turn:
        if not self.texts:
            await asyncio.sleep(60)
        return turn_from_text(self.texts.pop(0))


def test_an_episode_stopped_from_outside_keeps_the_step_it_was_playing(page):
    ref = next(r for r, n in page.refs.items() if n.tag == "button")
    policy = Stalling(f'<bu_click>{{"index": {ref}}}<bu_end>',
                      'Looking.\n<bu_query>{"text": "password"}<bu_end>')
    record = EpisodeRecord("Sign in", "query_only")

    async def stopped() -> None:
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(play_episode(policy, FakeEnv(page, 99), "Sign in",
                                                "query_only", StepLimits(), history_line,
                                                opening, record=record), 0.5)

    asyncio.run(stopped())
    record.interrupt("timeout")
    assert record.stop == "timeout" and record.current is None
    assert [s.stop for s in record.steps] == ["action", "timeout"]
    partial = record.steps[1]
    assert partial.queries == 1 and len(partial.turns) == 1
    assert partial.messages[-1]["role"] == "tool" and "password" in partial.messages[-1]["content"].lower()
    assert record.to_dict()["steps"][1]["queries"] == 1
