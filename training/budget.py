"""A budget of training minutes: stop after ``max_minutes`` spent in optimizer steps.

    trainer.add_callback(TimeBudget(minutes=30))     # None: no limit, only counts

Only the steps count (forward, backward, optimizer), not evaluation, checkpoint saving or the
setup before training: "30 minutes of training" means the same on a run that evaluates every 10
steps and on one that never does. When the budget is spent the trainer stops after the current
step and saves a checkpoint; ``save`` then runs the final evaluation as usual. The minutes spent
are part of the checkpoint's trainer state (``stateful_callbacks``), so a resumed run continues
the same budget; the limit is always the one configured now (``max_minutes=60`` on resume grants
the extra time).

The learning-rate schedule is fitted to the budget: a schedule laid out over ``max_steps`` (one
epoch, say) would be cut off mid-decay when the minutes run out first -- on a slower CPU the
default run stops at ~2/3 of its cosine with the rate still at a quarter of its peak. After
warmup the scheduler is fed the larger of the step reached and the step the spent share of the
budget stands for (``max_steps * spent / budget``), so the decay ends when the budget does,
whichever limit comes first. Any ``LambdaLR`` schedule (transformers' linear, cosine,
polynomial...) is fitted this way; with no limit the schedule is untouched.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from torch.optim.lr_scheduler import LambdaLR
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

    def fraction(self) -> float:
        """Share of the budget spent, the step under way included (0 without a limit)."""
        if self.minutes is None:
            return 0.0
        running = time.perf_counter() - self._started if self._started is not None else 0.0
        return min(1.0, (self.spent + running) / (self.minutes * 60))

    def on_train_begin(self, args, state, control, lr_scheduler=None, **kwargs):
        """Take over the minutes a resumed checkpoint had spent (0 on a fresh start), and fit the
        schedule's decay to the budget."""
        saved = state.stateful_callbacks.get(type(self).__name__)
        saved = saved[0] if isinstance(saved, list) else saved
        if saved:
            self.spent = max(self.spent, float(saved.get("attributes", {}).get("spent", 0.0)))
        if self.minutes is not None and isinstance(lr_scheduler, LambdaLR) and state.max_steps > 0:
            warmup = args.get_warmup_steps(state.max_steps) if args is not None else 0
            lr_scheduler.lr_lambdas = [self.fitted(f, warmup, state.max_steps)
                                       for f in lr_scheduler.lr_lambdas]

    def fitted(self, schedule: Callable[[int], float], warmup: int,
               max_steps: int) -> Callable[[float], float]:
        """``schedule`` (a multiplier per step over ``max_steps``) advanced by the budget: after
        ``warmup`` it reads the larger of the step and ``max_steps`` times the share spent."""
        def multiplier(step: int) -> float:
            if step < warmup:
                return schedule(step)
            return schedule(max(float(step), self.fraction() * max_steps))
        return multiplier

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
