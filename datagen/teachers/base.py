"""The teacher interface, and what every teacher shares: seeding, targets, the Trajectory shell.

A teacher turns one Step on its distilled page into a Trajectory for an agent mode::

    teacher.propose(step, page, "query_only", step_rng(seed, step.step_id, "query_only"), previous)

``step_rng`` derives a step's random stream from the run seed and the step id alone, so a
trajectory does not depend on the order steps are processed in, nor on how many ran before it
(a resumed or parallel run gives the same records). ``target_refs`` maps the step's positive
backend ids to the refs an action can take, the way the verifier does (a positive's own ref, else
its nearest ref'd ancestor: Mind2Web marks a span inside a link). ``CallsOnly`` wraps a teacher
so that its assistant turns hold their calls alone (``teacher.rationale: false``).
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Protocol

from datagen.records import Mode, Step, Trajectory
from datagen.verify.execution_stage import positive_refs
from pipeline.agent.openai_policy import tool_schemas
from pipeline.agent.progress import PreviousStep
from pipeline.distill.model import DistilledPage


class Teacher(Protocol):
    name: str  # "oracle", "openai:<model>": the Trajectory's ``teacher`` field

    def propose(self, step: Step, page: DistilledPage, mode: Mode, rng: random.Random,
                previous: PreviousStep | None = None) -> Trajectory:
        """A trajectory for ``step`` on ``page`` (the step's page, distilled) in ``mode``;
        ``previous``: the recorded step before it (its page and action), when known."""
        ...


def step_rng(seed: int, step_id: str, mode: str = "") -> random.Random:
    """A random stream for one step, from the run seed and the step's identity only."""
    digest = hashlib.sha256(f"{seed}\x00{step_id}\x00{mode}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def target_refs(page: DistilledPage, positives: list[int]) -> list[int]:
    """Refs the step's positives stand for, in document order (empty: none is on the page),
    exactly as the verifier's execution stage resolves them."""
    return sorted(positive_refs(page, positives))


def make_trajectory(step: Step, mode: Mode, teacher: str, messages: list[dict[str, Any]],
                    meta: dict[str, Any]) -> Trajectory:
    """The Trajectory record for a finished conversation (verdicts are the verifier's job)."""
    return Trajectory(step_id=step.step_id, mode=mode, teacher=teacher, messages=messages,
                      tools=tool_schemas(), website=step.website, domain=step.domain,
                      split=step.split, meta=meta)


class CallsOnly:
    """``teacher``'s trajectories with every assistant turn's rationale (its ``content``, the
    text before the call) left out: a student trained on them answers with the functional
    tokens alone. The rationale is most of what a turn generates (~29 of ~42 tokens on the
    MiniWoB++ records): live, such a student generated 10.7 tokens a turn instead of 25.7."""

    def __init__(self, teacher: Teacher) -> None:
        self.teacher = teacher
        self.name = teacher.name

    def propose(self, step: Step, page: DistilledPage, mode: Mode, rng: random.Random,
                previous: PreviousStep | None = None) -> Trajectory:
        trajectory = self.teacher.propose(step, page, mode, rng, previous)
        for message in trajectory.messages:
            if message.get("role") == "assistant":
                message["content"] = ""
        return trajectory
