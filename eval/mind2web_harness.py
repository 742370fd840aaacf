"""Offline Mind2Web step metrics: each recorded step played by a policy, given the gold history.

    await run_mind2web(cfg, policies, journal, on_done)

Steps come from Mind2Web task files (real dumps or the recorder's) through datagen's reader, so
datagen and eval read the same records the same way. A step's split is the one ``datagen build``
gives it (``mind2web.splits``: the input folder's split, or the holdout rule), and only
``mind2web.eval_splits`` are played. Each step: the page is distilled, the policy sees the
mode's opening (task, gold history, what the gold previous action changed, observation --
rendered as ``datagen build`` renders the step for training), its queries run on the page state, and the
first action the executor accepts (``execute_offline``: resolved, not run) is the prediction.
Element Accuracy asks whether the action's element stands for a positive (its own ref, or the
nearest ref'd ancestor of a positive, as the verifier resolves them; for ``select_text`` the
element its passage is found in); Operation F1 compares ``"OP value"`` with the gold
(``gold_op``: pagescout's own ops by their own name). Mind2Web records a press of Enter as op
CLICK (original_op ENTER) on the element the key went to -- the focused one, which is all a key
press can name -- so ``press Enter`` on an ENTER step scores as a click on its element, as a
click on the field does (Mind2Web's own prediction). A step the reader dropped (no positive, no
usable HTML ...) is a row with ``error`` set that scores 0, as Mind2Web scores steps without a
positive. Steps are played ``mind2web.concurrency`` at a time (a model policy batches them)
and journaled.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from datagen.build import assign_split, split_for
from datagen.context import TaskContext
from datagen.mind2web import Reject, iter_steps, split_of
from datagen.records import Operation, Step
from datagen.verify.execution_stage import positive_refs
from eval.config import EvalConfig
from eval.journal import Journal
from eval.metrics import op_f1, op_string
from eval.policies import PolicyFactory
from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.agent.loop import StepOutcome, play_step
from pipeline.agent.observe import observation_tokens
from pipeline.agent.policy import Situation
from pipeline.agent.progress import PreviousStep
from pipeline.distill import distill
from pipeline.distill.model import DistilledPage
from pipeline.errors import PagescoutError
from pipeline.html.mind2web_format import EXTENSION_OPS
from pipeline.tools import ToolCall

Item = tuple[Step, str, DistilledPage, PreviousStep | None]  # step, split, page, step before
_OPS = {"click": "CLICK", "type": "TYPE", "select": "SELECT", "press": "PRESS", "done": "DONE",
        "hover": "CLICK", "scroll": "SCROLL", "drag": "DRAG", "clear": "CLEAR",  # HOVER: op CLICK
        "select_text": "SELECT_TEXT"}


def predicted_op(call: ToolCall | None) -> str:
    """The ``"OP value"`` string of a predicted action (what Operation F1 compares): a scroll's
    direction, a key, a passage; a drag or clear has none (element accuracy judges its target)."""
    if call is None:
        return ""
    args = call.arguments
    value = (args.get("text") or args.get("option") or args.get("key") or args.get("answer")
             or args.get("direction") or "")
    return op_string(_OPS[call.name], "" if call.name in ("drag", "clear") else value)


def gold_op(operation: Operation) -> str:
    """The ``"OP value"`` string of a recorded step: Mind2Web's op and value, but pagescout's
    own ops (op CLICK in the file) by their name and value as ``predicted_op`` writes them, so
    a right scroll, drag, clear, key press or selection scores as a right click does."""
    original, value = operation.original_op, operation.value
    if original not in EXTENSION_OPS:
        return op_string(operation.op, value)
    if original == "SCROLL":  # "down:end": the amount is not compared
        return op_string(original, value.split(":")[0])
    return op_string(original, "" if original in ("DRAG", "CLEAR") else value)


def _enter_pressed(action: ToolCall | None, operation: Operation) -> bool:
    """Whether ``action`` presses Enter on a Mind2Web ENTER step."""
    return (action is not None and action.name == "press" and operation.original_op == "ENTER"
            and action.arguments.get("key") == operation.pressed_key)


async def _offline(call, page):
    return execute_offline(call, page)


def step_row(run: str, policy: str, mode: str, step: Step, split: str, outcome: StepOutcome,
             targets: set[int], seconds: float) -> dict[str, Any]:
    action = outcome.action
    element = action is not None and action.arguments.get("index") in targets
    gold, predicted = gold_op(step.operation), predicted_op(action)
    if action is not None and action.name == "select_text":  # no index: where its passage is
        element = outcome.result is not None and outcome.result.backend_id in step.positives
    if _enter_pressed(action, step.operation):  # Mind2Web's ENTER: op CLICK on the focused field
        element, predicted = True, gold
    return {
        "key": f"{run}|{step.step_id}", "run": run, "policy": policy, "mode": mode,
        "step_id": step.step_id, "task_id": step.annotation_id, "website": step.website,
        "split": split, "element": bool(element), "op_f1": op_f1(predicted, gold),
        "predicted": predicted, "gold": gold, "stop": outcome.stop,
        "turns": len(outcome.turns), "valid_calls": outcome.valid_calls,
        "tool_calls": outcome.queries, "prompt_tokens": outcome.prompt_tokens,
        "observation_tokens": observation_tokens(outcome.messages),
        "seconds": round(seconds, 4), "error": "", "messages": outcome.messages,
    }


def dropped_row(run: str, policy: str, mode: str, reject: Reject, split: str,
                website: str) -> dict[str, Any]:
    step_id = f"{reject.annotation_id}:{reject.action_uid}"
    return {"key": f"{run}|{step_id}", "run": run, "policy": policy, "mode": mode,
            "step_id": step_id, "task_id": reject.annotation_id, "website": website,
            "split": split, "element": False, "op_f1": 0.0, "predicted": "", "gold": "",
            "stop": "unreadable", "turns": 0, "valid_calls": 0, "tool_calls": 0,
            "prompt_tokens": 0, "observation_tokens": 0, "seconds": 0.0,
            "error": f"{reject.reason}: {reject.message}"[:300], "messages": []}


async def run_mind2web(cfg: EvalConfig, policies: PolicyFactory, journal: Journal,
                       on_done: Callable[[dict[str, Any]], None]) -> None:
    """Every run over the eval splits' steps not yet journaled."""
    done = journal.keys()
    limits = cfg.step_limits(episode=False)
    for policy_name, mode in cfg.runs():
        run = f"{policy_name}/{mode}"
        policy = policies.get(policy_name)
        slots = asyncio.Semaphore(cfg.mind2web.concurrency)

        async def play(step: Step, split: str, page: DistilledPage,
                       previous: PreviousStep | None, run=run, policy=policy, mode=mode,
                       policy_name=policy_name, slots=slots) -> None:
            async with slots:
                started = time.perf_counter()
                targets = positive_refs(page, step.positives)
                situation = Situation(step.task, step.history, mode, opening(
                    step.task, step.history, page, mode, previous), page, step)
                outcome = await play_step(policy, situation, _offline, limits)
                row = step_row(run, policy_name, mode, step, split, outcome, targets,
                               time.perf_counter() - started)
            journal.append(row)
            on_done(row)

        pending: set[asyncio.Task] = set()
        for item in _items(cfg, run, policy_name, mode, done):
            if isinstance(item, dict):  # a dropped step: scored 0 at once
                journal.append(item)
                on_done(item)
                continue
            pending.add(asyncio.create_task(play(*item)))
            if len(pending) >= 2 * cfg.mind2web.concurrency:  # bound pages held in memory
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        if pending:
            await asyncio.gather(*pending)


def _items(cfg: EvalConfig, run: str, policy: str, mode: str, done: set[str]
           ) -> Iterator[Item | dict[str, Any]]:
    """The run's steps to play and dropped steps' rows, at most ``limit``. Each step comes with
    its distilled page and the step before it, with the history the live loop would show
    (``datagen.context``, as ``datagen build`` renders it): steps already done are read too."""
    m2w = cfg.mind2web
    dropped: list[Reject] = []
    websites: dict[str, str] = {}
    count = 0
    other_splits: Counter[str] = Counter()
    context, task = TaskContext(), ""
    for step in iter_steps(m2w.inputs, rejects=dropped.append, source="mind2web"):
        websites[step.annotation_id] = step.website
        split = assign_split(step, m2w.splits)
        if split not in m2w.eval_splits:
            other_splits[split] += 1
            continue
        if cfg.limit is not None and count >= cfg.limit:
            return
        count += 1
        if step.annotation_id != task:
            context, task = TaskContext(), step.annotation_id
        page = distill(step.load_page())
        shown, previous = context.before(step)
        context.after(step, page)
        if f"{run}|{step.step_id}" not in done:
            yield shown, split, page, previous
    if not count and other_splits:
        found = ", ".join(f"{name} ({n} steps)" for name, n in sorted(other_splits.items()))
        raise PagescoutError(
            f"mind2web.input: none of the steps read is in mind2web.eval_splits "
            f"{m2w.eval_splits}; they are in {found}. Pass files of a test split, or "
            f"mind2web.eval_splits=[{', '.join(sorted(other_splits))}] to evaluate these")
    for reject in dropped:
        if not reject.dropped or not reject.action_uid:
            continue  # a defect the step survived, or a whole file/task that gave nothing
        website = websites.get(reject.annotation_id, "")
        split = split_for(reject.annotation_id, website, split_of(reject.origin), m2w.splits)
        row = dropped_row(run, policy, mode, reject, split, website)
        if split in m2w.eval_splits and row["key"] not in done:
            yield row
