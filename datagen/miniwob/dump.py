"""A successful episode as a Mind2Web task record (pure: no browser).

Backend node ids are renumbered per episode (1, 2, ... in order of first appearance over the
episode's captures) so a task's HTML does not depend on how many pages the browser process has
built before: the same task and seed give byte-identical records in any run, and an element keeps
its id from one action's page to the next, as in Mind2Web.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from datagen.mind2web.writer import (
    action_record,
    sample_negatives,
    task_record,
)
from datagen.miniwob.episode import CapturedStep, EpisodeRun
from datagen.miniwob.heldout import family_of
from datagen.miniwob.policies import Act
from pipeline.html.mind2web_format import action_repr, drag_value, operation
from pipeline.live.miniwob import Episode
from pipeline.page_state import PageState

if TYPE_CHECKING:
    from datagen.dagger.episode import LabelledStep

DOMAIN = "miniwob"


def annotation_id(task: str, seed: int) -> str:
    return f"miniwob-{task}-s{seed}"


def episode_task(run: EpisodeRun, max_negatives: int) -> dict:
    """The Mind2Web task of a successful episode."""
    episode = run.episode
    task_id = annotation_id(episode.task, int(episode.seed))
    actions, reprs = [], []
    for uid, state, target, op, step in _actions(task_id, run.steps):
        negatives = sample_negatives(state, target, max_negatives, seed=uid)
        actions.append(action_record(uid, state, target, op, negatives))
        reprs.append(action_repr(state, target, op))
    return task_record(task_id, website=episode.task, domain=DOMAIN,
                       subdomain=family_of(episode.task), confirmed_task=episode.utterance,
                       action_reprs=reprs, actions=actions)


def dagger_task(episode: Episode, steps: list[LabelledStep], max_negatives: int) -> dict:
    """The Mind2Web task of a DAgger episode: each action holds the oracle's label (operation,
    positive) on the page the student reached; ``action_reprs`` hold what was *executed*, so a
    step's history (the reprs before it) is the student's own. Each action also carries
    ``dagger``: who acted, the student's action and whether it agreed with the label."""
    task_id = f"miniwob-dagger-{episode.task}-s{episode.seed}"
    ids = canonical_ids(steps)
    actions = []
    for uid, state, target, op, step in _actions(task_id, steps):
        negatives = sample_negatives(state, target, max_negatives, seed=uid)
        actions.append({**action_record(uid, state, target, op, negatives),
                        "dagger": {"by": step.by, "student": step.student,
                                   "agreed": step.agreed,
                                   "executed": _executed(step, ids)}})
    return task_record(task_id, website=episode.task, domain=DOMAIN,
                       subdomain=family_of(episode.task), confirmed_task=episode.utterance,
                       action_reprs=[s.executed for s in steps], actions=actions)


def _actions(task_id: str, steps: Sequence[CapturedStep | LabelledStep]) -> Iterator[tuple]:
    """(action uid, canonical page, canonical target, Mind2Web operation, step) per step; a drag
    onto an element holds the drop target's canonical id in its value."""
    for i, (state, target, step, drop) in enumerate(canonical_steps(steps)):
        yield f"{task_id}-a{i}", state, target, act_operation(step.act, drop), step


def act_operation(act: Act, drop: int | None) -> dict[str, str]:
    """The Mind2Web operation of an oracle act (a drag onto an element: ``to:<drop id>``)."""
    return operation(act.op, act.value if drop is None else drag_value(drop), act.original_op)


def _executed(step: LabelledStep, ids: dict[int, int]) -> dict | None:
    """The student's executed call with its elements as canonical backend ids (``dagger.executed``
    in the task file: ``datagen build`` shows the next step what the student did, not the label)."""
    if step.call is None:
        return None
    arguments = {k: v for k, v in step.call.arguments.items() if k not in step.student_elements}
    return {"name": step.call.name, "arguments": arguments,
            "elements": {k: ids[v] for k, v in step.student_elements.items()}}


def canonical_ids(steps: Sequence[CapturedStep | LabelledStep]) -> dict[int, int]:
    """Live backend id -> canonical id (1, 2, ... in order of first appearance over the steps)."""
    ids: dict[int, int] = {}
    for step in steps:
        for node in step.state.nodes:
            if node.backend_id is not None:
                ids.setdefault(node.backend_id, len(ids) + 1)
    return ids


def canonical_steps(steps: Sequence[CapturedStep | LabelledStep]
                    ) -> list[tuple[PageState, int, CapturedStep | LabelledStep, int | None]]:
    """Each step's page, target and drop target (None: no drag onto an element) with backend
    ids renumbered in order of first appearance."""
    ids = canonical_ids(steps)
    out = []
    for step in steps:
        nodes = [replace(n, backend_id=None if n.backend_id is None else ids[n.backend_id])
                 for n in step.state.nodes]
        drop = None if step.drop is None else ids[step.drop]
        out.append((replace(step.state, nodes=nodes), ids[step.target], step, drop))
    return out
