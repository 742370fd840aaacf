"""One DAgger episode: the student plays live, the oracle labels every state it reaches.

    run = await play_dagger_episode(page, base_url, task, seed, student, settings)
    run.steps       # LabelledStep: the page before the act, the oracle's act and its target,
                    # what was executed (the history line the next step sees), who acted
    run.stop        # "finished", "max_steps", "time_budget", "oracle: <why it cannot act>"

Every step observes the page as eval's harness does (``pipeline.agent.miniwob_env``), asks the
task's scripted policy for its label from that state (``policies.restart.next_label``: the first
act a fresh run would still need), and lets the student play the step through the agent loop's
``play_step`` with error feedback, exactly as eval plays it. The student's accepted action is
executed (classic DAgger); when its replies are unusable, refused, or it calls ``done`` before
the task ended, the oracle's act is executed instead so the states after it are still visited.
The episode stops when the task ends, after ``max_steps`` labelled steps, when the oracle
itself cannot act (its policy gives up or its target is not on the page), or when its time
budget is spent (a slow student on a busy machine keeps the steps it was labelled).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from datagen.miniwob.dump import act_operation
from datagen.miniwob.episode import perform, settle_target
from datagen.miniwob.policies import Act, PolicyError
from datagen.miniwob.policies.restart import next_label
from datagen.records import Operation, names_element
from datagen.teachers.base import target_refs
from datagen.teachers.oracle import label_call
from datagen.verify.execution_stage import operation_matches, passage_problem, value_problem
from pipeline.agent.conversation import opening
from pipeline.agent.history import history_line
from pipeline.agent.loop import StepLimits, StepOutcome, play_step
from pipeline.agent.miniwob_env import LiveSettings, MiniwobEnvironment, open_episode
from pipeline.agent.modes import Mode
from pipeline.agent.policy import Policy, Situation
from pipeline.agent.progress import PreviousStep
from pipeline.distill.model import DistilledPage
from pipeline.html.mind2web_format import action_repr
from pipeline.live.actions import LiveActions
from pipeline.live.miniwob import Episode, EpisodeResult, episode_result
from pipeline.page_state import PageState
from pipeline.tools import ToolCall

ELEMENT_ARGUMENTS = ("index", "to_index")  # the arguments of a call that name elements by ref


@dataclass(frozen=True, slots=True)
class DaggerSettings:
    live: LiveSettings
    mode: Mode
    limits: StepLimits  # the student's step limits (eval's: error feedback on)
    target_wait_ms: int  # how long the label's target may take to become visible
    budget_s: float  # no new step after this many seconds (the steps so far are kept)


@dataclass(slots=True)
class LabelledStep:
    state: PageState  # the page just before the act
    target: int  # live backend node id of the oracle's target
    act: Act  # the oracle's label
    executed: str  # the history line of the act that was executed
    by: str  # "student" or "oracle" (the student had no usable action)
    student: str  # the student's action as a history line, or why it had none
    agreed: bool  # the student's action is the oracle's act
    call: ToolCall | None = None  # the student's executed call (None: the oracle's act ran)
    student_elements: dict[str, int] = field(default_factory=dict)  # its element arguments'
    # live backend ids (index, a drag's to_index)
    drop: int | None = None  # live backend id of the label's drop target (a drag onto an element)


@dataclass(slots=True)
class DaggerRun:
    episode: Episode
    steps: list[LabelledStep] = field(default_factory=list)
    stop: str = "max_steps"
    result: EpisodeResult | None = None


async def play_dagger_episode(page: Any, base_url: str, task: str, seed: int, student: Policy,
                              settings: DaggerSettings) -> DaggerRun:
    """Play ``task`` under ``seed`` with ``student``, labelling every state (see module doc)."""
    live = settings.live
    episode = await open_episode(page, base_url, task, seed, live)
    actions = LiveActions(page)
    env = MiniwobEnvironment(page, actions, live.browser, live.after_action_ms)
    run = DaggerRun(episode)
    history: list[str] = []
    previous: PreviousStep | None = None
    started = time.perf_counter()
    try:
        for _ in range(settings.limits.max_steps):
            if time.perf_counter() - started > settings.budget_s:
                run.stop = "time_budget"
                break
            if await env.finished():  # e.g. the task's own timer ran out
                run.stop = "finished"
                break
            seen = await _labelled(env, episode, settings.target_wait_ms)
            if isinstance(seen, str):
                run.stop = f"oracle: {seen}"
                break
            distilled, act, target, drop = seen
            messages = opening(episode.utterance, history, distilled, settings.mode, previous)
            situation = Situation(episode.utterance, list(history), settings.mode, messages,
                                  distilled)
            outcome = await play_step(student, situation, env.act, settings.limits)
            step = await _execute(env, outcome, distilled, act, target, drop)
            if not step.executed:  # a label no one could act on is not kept
                run.stop = f"oracle: its act was refused ({step.student})"
                break
            run.steps.append(step)
            history.append(step.executed)
            previous = PreviousStep(distilled, executed_call(step, distilled))
            if await env.finished():
                run.stop = "finished"
                break
    finally:
        await actions.close()
    run.result = await episode_result(page)
    return run


async def _labelled(env: MiniwobEnvironment, episode: Episode, wait_ms: int
                    ) -> tuple[DistilledPage, Act, int, int | None] | str:
    """The observed page, the oracle's act on it, its target and drop target (a drag onto an
    element; else None); or why there is none."""
    distilled = await env.observe()
    try:
        act = await next_label(env.page, episode)
    except PolicyError as exc:
        return f"policy: {exc}"
    if act is None:
        return "the policy has nothing left to do"
    target = await env.actions.backend_id_of(act.target)
    if not labellable(distilled, act, target):
        # the target is still opening (a menu, a panel): wait for it, then look again
        if problem := await settle_target(env.page, act, wait_ms):
            return f"its target is {problem} ({act.op} {act.target[:80]})"
        distilled = await env.observe()
        target = await env.actions.backend_id_of(act.target)
        if not labellable(distilled, act, target):
            return f"its target is no element of the page ({act.op} {act.target[:80]})"
    drop = await env.actions.backend_id_of(act.drop) if act.drop else None
    if act.drop and (drop is None or drop not in distilled.state.by_backend_id()):
        return f"its drop target is not in the capture ({act.drop[:80]})"
    return distilled, act, target, drop


def labellable(page: DistilledPage, act: Act, target: int | None) -> bool:
    """Whether a label on ``target`` can be written as a call on ``page``: it is one of the
    page's elements (a hidden node is in the capture but has no ref, and datagen build would
    drop the step), or in the capture at all for a key press, which goes where the focus is,
    and for a passage to select, which its text finds."""
    if target is None:
        return False
    if not names_element(act.original_op, act.value):
        return target in page.state.by_backend_id()
    return bool(target_refs(page, [target]))


async def _execute(env: MiniwobEnvironment, outcome: StepOutcome, page: DistilledPage,
                   act: Act, target: int, drop: int | None) -> LabelledStep:
    """Keep the student's executed action, or execute the oracle's act in its place."""
    action, result = outcome.action, outcome.result
    if action is not None and result is not None and result.ok and not result.done:
        line = history_line(action, page)
        elements = {key: page.backend_id(action.arguments[key]) for key in ELEMENT_ARGUMENTS
                    if key in action.arguments}
        return LabelledStep(page.state, target, act, line, "student", line,
                            agrees(action, page, act, target, drop), action,
                            {k: v for k, v in elements.items() if v is not None}, drop)
    student = history_line(action, page) if action is not None and result is not None \
        and result.ok else f"(no action: {outcome.stop})"
    done = await perform(env.actions, act, target, drop)
    if done.ok:
        env.ran()
    executed = action_repr(page.state, target, act_operation(act, drop)) if done.ok else ""
    return LabelledStep(page.state, target, act, executed, "oracle",
                        student if done.ok else done.message, False, drop=drop)


def executed_call(step: LabelledStep, page: DistilledPage) -> ToolCall | None:
    """The call ``step`` executed on ``page``: the student's, or the oracle's act as the call
    ``datagen build`` will show for it (``datagen.context``), so the next step's effect line reads
    as it will in training."""
    if step.call is not None:
        return step.call
    op = act_operation(step.act, step.drop)
    return label_call(op["op"], op["value"], op["original_op"], target_refs(page, [step.target]),
                      page)


def agrees(call: ToolCall, page: DistilledPage, act: Act, target: int, drop: int | None) -> bool:
    """Whether the student's executed call is the oracle's act, by the verifier's test of a
    training step's action: the same operation, then the same key, or element and value (a
    drag's drop target or offset)."""
    op = act_operation(act, drop)
    operation = Operation(op["op"], op["value"], op["original_op"])
    if not operation_matches(call, operation):
        return False
    if call.name == "press":  # Enter for an ENTER act, the act's own key for a PRESS
        return call.arguments.get("key") == operation.pressed_key
    if call.name == "select_text":  # the same passage, wherever it is
        return passage_problem(call, operation, page) is None
    return (page.backend_id(call.arguments.get("index", -1)) == target
            and value_problem(call, operation, page) is None)
