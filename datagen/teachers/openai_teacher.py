"""The ``openai`` teacher: a model behind any OpenAI-compatible endpoint plays the step.

    teacher = OpenAITeacher(OpenAITeacherConfig(client=ClientConfig(base_url=..., model=...)))
    trajectory = teacher.propose(step, page, "query_only", rng)
    trajectories = teacher.propose_many([(step, page, mode, rng), ...])   # ``concurrency`` at once

The teacher is ``pipeline.agent.openai_policy.OpenAIPolicy`` run through the agent's step loop
(``play_step``) on the step's page, offline: each query it calls runs on the real engine and comes
back as a tool message, until it calls an action or ``max_turns`` replies were used. The
conversation is recorded as the model wrote it: a call that does not validate, several calls in
one reply, or a reply without a call is kept as it came (the verifier's format stage rejects it)
and ends the play (the loop runs without error feedback). ``meta`` holds the stop reason, token
usage (per reply and summed), latency and attempts; a request that fails for good (timeout, rate
limit after the retries ...) ends the play with ``meta.error`` -- the trajectory is still
returned, never raised.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from datagen.records import Mode, Step, Trajectory
from datagen.teachers.base import make_trajectory
from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.agent.loop import StepLimits, StepOutcome, play_step
from pipeline.agent.openai_client import ClientConfig, LLMError, OpenAIClient, Usage
from pipeline.agent.openai_policy import OpenAIPolicy
from pipeline.agent.policy import Situation
from pipeline.agent.progress import PreviousStep
from pipeline.distill.model import DistilledPage


@dataclass(slots=True)
class OpenAITeacherConfig:
    client: ClientConfig = field(default_factory=ClientConfig)
    max_turns: int = 6  # model replies per step at most

    def validate(self) -> list[str]:
        return [] if self.max_turns >= 1 else ["max_turns: must be >= 1"]


class OpenAITeacher:
    def __init__(self, config: OpenAITeacherConfig, client: OpenAIClient | None = None):
        self.config = config
        self.client = client or OpenAIClient(config.client)
        self.name = f"openai:{config.client.model}"
        self.limits = StepLimits(max_tool_calls=config.max_turns - 1, feedback_errors=False)

    def propose(self, step: Step, page: DistilledPage, mode: Mode, rng: random.Random,
                previous: PreviousStep | None = None) -> Trajectory:
        policy = OpenAIPolicy(self.client, seed=rng.randrange(2**31))
        situation = Situation(step.task, step.history, mode,
                              opening(step.task, step.history, page, mode, previous), page)
        outcome = asyncio.run(play_step(policy, situation, _offline, self.limits))
        return make_trajectory(step, mode, self.name, outcome.messages,
                               self._meta(outcome))

    def propose_many(self, items: Iterable[tuple[Step, DistilledPage, Mode, random.Random]]
                     ) -> list[Trajectory]:
        """``propose`` over many steps, ``client.concurrency`` at a time, results in order."""
        return self.client.map(lambda item: self.propose(*item), items)

    def _meta(self, outcome: StepOutcome) -> dict[str, Any]:
        turns = [t.meta for t in outcome.turns]
        usage = Usage()
        for turn in turns:
            usage = usage + Usage(turn["prompt_tokens"], turn["completion_tokens"],
                                  turn["total_tokens"])
        meta: dict[str, Any] = {"model": self.config.client.model, "turns": turns,
                                "stop": _stop(outcome.stop), "usage": usage.to_dict(),
                                "latency": round(sum(t["latency"] for t in turns), 4),
                                "attempts": sum(t["attempts"] for t in turns)}
        if isinstance(outcome.error, LLMError):
            meta["error"] = f"{outcome.error.kind}: {outcome.error}"
        return meta


async def _offline(call, page):
    return execute_offline(call, page)


_STOPS = {"max_tool_calls": "max_turns", "invalid_call: no_call": "no_tool_call",
          "invalid_call: multiple_calls": "multiple_calls"}


def _stop(stop: str) -> str:
    """The loop's stop reason in the teacher's words (a refused action is still an action)."""
    if stop.startswith("refused:"):
        return "action"
    if stop.startswith("policy_error"):
        return "error"
    return _STOPS.get(stop, stop)
