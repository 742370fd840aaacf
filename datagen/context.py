"""What a recorded step's conversation knows of the steps before it, as the live loop knows it.

    context = TaskContext()                   # one per task
    step, previous = context.before(step)     # the history to show, the step before
    ... teacher.propose(step, page, mode, rng, previous) ...
    context.after(step, page)                 # this step's page and action, for the next one

A live episode (``pipeline.agent.loop.play_episode``) gives each step the page and action of the
step before (``PreviousStep``: the user turn says what that action changed) and history lines
written by ``pipeline.agent.history.history_line``. A recorded task has the same facts: each
action's page and target, in order. ``TaskContext`` walks a task's steps in order and hands each
step the same ``PreviousStep``; for pagescout's own recordings (``own_recording``: ``datagen
record`` writes domain "miniwob", ``datagen build`` may tag them source "miniwob") it also writes
the history lines from the recorded pages with ``history_line``, so that training and offline
eval read exactly what the live loop writes. Real Mind2Web history stays the recorded
``action_reprs``.
A step that could not be read breaks the chain: the next step gets no ``PreviousStep`` and keeps
the recorded line for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from datagen.miniwob.dump import DOMAIN
from datagen.records import Step
from datagen.teachers.base import target_refs
from datagen.teachers.oracle import label_call
from pipeline.agent.history import history_line
from pipeline.agent.progress import PreviousStep
from pipeline.distill.model import DistilledPage
from pipeline.errors import FormatError
from pipeline.tools import ToolCall, make_call


def own_recording(step: Step) -> bool:
    """Whether ``step`` comes from pagescout's own recorder (its history is ours to write)."""
    return step.source == DOMAIN or step.domain == DOMAIN


@dataclass(slots=True)
class TaskContext:
    """The running context of one task's steps (feed every step in order, read or not)."""

    previous: PreviousStep | None = None
    previous_index: int = -1  # the step index ``previous`` belongs to
    lines: dict[int, str] = field(default_factory=dict)  # step index -> line from its page

    def before(self, step: Step) -> tuple[Step, PreviousStep | None]:
        """``step`` with the history the live loop would show, and the step before it."""
        follows = self.previous_index == step.step_index - 1
        previous = self.previous if follows else None
        if not own_recording(step):
            return step, previous
        history = [self.lines.get(i, line) for i, line in enumerate(step.history)]
        return replace(step, history=history), previous

    def after(self, step: Step, page: DistilledPage) -> None:
        """Record ``step``'s page and the action it took (its label on its first target, or
        what a DAgger student did instead) for the step after it."""
        call = taken_call(step, page)
        if call is None:
            self.broken()
            return
        self.previous, self.previous_index = PreviousStep(page, call), step.step_index
        if own_recording(step):
            self.lines[step.step_index] = history_line(call, page)

    def broken(self) -> None:
        """A step that could not be read: the next one has no step before it."""
        self.previous, self.previous_index = None, -1


def taken_call(step: Step, page: DistilledPage) -> ToolCall | None:
    """The call ``step`` took on ``page``: a DAgger student's executed call where it has one
    (``Step.executed``), else the label on its first target; None when an element it names has
    no ref on the page."""
    executed = step.executed
    if executed is None:
        op = step.operation
        try:
            return label_call(op.op, op.value, op.original_op,
                              target_refs(page, step.positives), page)
        except FormatError:  # a drag whose drop target has no ref
            return None
    refs = {key: target_refs(page, [backend_id]) for key, backend_id in executed.elements.items()}
    if not all(refs.values()):
        return None
    return make_call(executed.name, **executed.arguments,
                     **{key: found[0] for key, found in refs.items()})
