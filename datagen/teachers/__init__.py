"""Teachers turn a Step on its distilled page into a Trajectory (TRL conversational tool format).

    from datagen.teachers import TeacherConfig, make_teacher, step_rng
    teacher = make_teacher(TeacherConfig(kind="oracle"))
    trajectory = teacher.propose(step, page, "query_only", step_rng(seed, step.step_id, mode))

``oracle`` derives its queries from the task and the target (``oracle``, ``oracle_queries``);
``openai`` lets a model behind an OpenAI-compatible endpoint play the step (``openai_teacher``).
Both build their messages with ``conversation`` and run every query on the real engine.
``rationale: false`` keeps only the calls of their assistant turns (``base.CallsOnly``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from datagen.teachers.base import CallsOnly, Teacher, make_trajectory, step_rng, target_refs
from datagen.teachers.openai_teacher import OpenAITeacher, OpenAITeacherConfig
from datagen.teachers.oracle import OracleConfig, OracleTeacher, action_call
from pipeline.agent.conversation import Conversation, api_messages, opening


@dataclass(slots=True)
class TeacherConfig:
    kind: Literal["oracle", "openai"] = "oracle"
    oracle: OracleConfig = field(default_factory=OracleConfig)
    openai: OpenAITeacherConfig = field(default_factory=OpenAITeacherConfig)
    rationale: bool = True  # false: assistant turns hold their call alone, no text before it

    def validate(self) -> list[str]:
        """The openai block must name a model when it is used (it is empty by default)."""
        if self.kind != "openai":
            return []
        return [f"openai.client.{problem}" for problem in self.openai.client.missing()]


def make_teacher(config: TeacherConfig) -> Teacher:
    teacher: Teacher = (OpenAITeacher(config.openai) if config.kind == "openai"
                        else OracleTeacher(config.oracle))
    return teacher if config.rationale else CallsOnly(teacher)


__all__ = [
    "CallsOnly", "Conversation", "OpenAITeacher", "OpenAITeacherConfig", "OracleConfig",
    "OracleTeacher", "Teacher", "TeacherConfig", "action_call", "api_messages", "make_teacher",
    "make_trajectory", "opening", "step_rng", "target_refs",
]
