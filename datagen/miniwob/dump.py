"""A successful episode as a Mind2Web task record (pure: no browser).

Backend node ids are renumbered per episode (1, 2, ... in order of first appearance over the
episode's captures) so a task's HTML does not depend on how many pages the browser process has
built before: the same task and seed give byte-identical records in any run, and an element keeps
its id from one action's page to the next, as in Mind2Web.
"""

from __future__ import annotations

from dataclasses import replace

from datagen.mind2web.writer import (
    action_record,
    sample_negatives,
    task_record,
)
from datagen.miniwob.episode import CapturedStep, EpisodeRun
from pipeline.html.mind2web_format import action_repr, drag_value, operation
from pipeline.page_state import PageState

DOMAIN = "miniwob"


def annotation_id(task: str, seed: int) -> str:
    return f"miniwob-{task}-s{seed}"


def subdomain(task: str) -> str:
    """The task family: ``click-tab-2`` -> ``click``, ``email-inbox-delete`` -> ``email``."""
    return task.split("-", 1)[0]


def episode_task(run: EpisodeRun, max_negatives: int) -> dict:
    """The Mind2Web task of a successful episode."""
    episode = run.episode
    task_id = annotation_id(episode.task, int(episode.seed))
    actions, reprs = [], []
    for i, (state, target, step, drop) in enumerate(canonical_steps(run.steps)):
        uid = f"{task_id}-a{i}"
        value = step.act.value if drop is None else drag_value(drop)
        op = operation(step.act.op, value, step.act.original_op)
        negatives = sample_negatives(state, target, max_negatives, seed=uid)
        actions.append(action_record(uid, state, target, op, negatives))
        reprs.append(action_repr(state, target, op))
    return task_record(task_id, website=episode.task, domain=DOMAIN,
                       subdomain=subdomain(episode.task), confirmed_task=episode.utterance,
                       action_reprs=reprs, actions=actions)


def canonical_steps(steps: list[CapturedStep]
                    ) -> list[tuple[PageState, int, CapturedStep, int | None]]:
    """Each step's page, target and drop target (None: no drag onto an element) with backend
    ids renumbered in order of first appearance."""
    ids: dict[int, int] = {}
    out = []
    for step in steps:
        for node in step.state.nodes:
            if node.backend_id is not None:
                ids.setdefault(node.backend_id, len(ids) + 1)
        nodes = [replace(n, backend_id=None if n.backend_id is None else ids[n.backend_id])
                 for n in step.state.nodes]
        drop = None if step.drop is None else ids[step.drop]
        out.append((replace(step.state, nodes=nodes), ids[step.target], step, drop))
    return out
