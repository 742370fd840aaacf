"""A budget of training minutes: stop after ``max_minutes`` spent in optimizer steps.

    trainer.add_callback(TimeBudget(minutes=30))     # None: no limit, only counts

Only the steps count (forward, backward, optimizer), not evaluation, checkpoint saving or the
setup before training: "30 minutes of training" means the same on a run that evaluates every 10
steps and on one that never does. When the budget is spent the trainer stops after the current
step and saves a checkpoint; ``save`` then runs the final evaluation as usual. The minutes spent
are part of the checkpoint's trainer state (``stateful_callbacks``), so a resumed run continues
the same budget; the limit is always the one configured now (``max_minutes=60`` on resume grants
the extra time).
"""

from __future__ import annotations

import time

from transformers import TrainerCallback
from transformers.trainer_callback import ExportableState


class TimeBudget(TrainerCallback, ExportableState):
    """Counts the seconds spent inside optimizer steps; stops training past ``minutes``."""

    def __init__(self, minutes: float | None = None, spent: float = 0.0) -> None:
        self.minutes = minutes
        self.spent = spent  # seconds inside steps so far, resumed runs included
        self.session = 0.0  # ... in this process only
        self._started: float | None = None

    @property
    def exhausted(self) -> bool:
        return self.minutes is not None and self.spent >= self.minutes * 60

    def on_train_begin(self, args, state, control, **kwargs):
        """Take over the minutes a resumed checkpoint had spent (0 on a fresh start)."""
        saved = state.stateful_callbacks.get(type(self).__name__)
        saved = saved[0] if isinstance(saved, list) else saved
        if saved:
            self.spent = max(self.spent, float(saved.get("attributes", {}).get("spent", 0.0)))

    def on_step_begin(self, args, state, control, **kwargs):
        self._started = time.perf_counter()

    def on_step_end(self, args, state, control, **kwargs):
        if self._started is not None:
            elapsed = time.perf_counter() - self._started
            self.spent += elapsed
            self.session += elapsed
            self._started = None
        if self.exhausted and not control.should_training_stop:
            control.should_training_stop = True
            control.should_save = True

    @classmethod
    def of(cls, trainer) -> TimeBudget:
        """The trainer's budget callback."""
        return next(c for c in trainer.callback_handler.callbacks if isinstance(c, cls))

    def state(self) -> dict:
        return {"args": {"minutes": self.minutes}, "attributes": {"spent": self.spent}}
