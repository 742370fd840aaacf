"""The training-time budget: only time inside steps counts, training stops (and saves) once it
is spent, and the time spent survives a checkpoint through the trainer's callback state."""

from __future__ import annotations

import time

from transformers import TrainerControl, TrainerState

from training.budget import TimeBudget


def _step(budget: TimeBudget, control: TrainerControl, seconds: float) -> None:
    budget.on_step_begin(None, TrainerState(), control)
    time.sleep(seconds)
    budget.on_step_end(None, TrainerState(), control)


def test_stops_and_saves_once_the_minutes_are_spent():
    budget, control = TimeBudget(minutes=0.1 / 60), TrainerControl()
    _step(budget, control, 0.06)
    assert not control.should_training_stop and not budget.exhausted
    time.sleep(0.1)  # between steps (evaluation, saving): not counted
    assert budget.spent < 0.1
    _step(budget, control, 0.06)
    assert budget.exhausted and control.should_training_stop and control.should_save
    assert budget.session == budget.spent


def test_no_limit_only_counts():
    budget, control = TimeBudget(), TrainerControl()
    _step(budget, control, 0.01)
    assert budget.spent > 0 and not control.should_training_stop and not budget.exhausted


def test_a_resumed_run_continues_the_spent_minutes_under_the_limit_configured_now():
    saved = TimeBudget(minutes=30, spent=600.0)
    resumed_state = TrainerState(stateful_callbacks=[saved])  # what the checkpoint holds
    restored = TimeBudget(minutes=60)
    restored.on_train_begin(None, resumed_state, TrainerControl())
    assert (restored.minutes, restored.spent, restored.session) == (60, 600.0, 0.0)
    fresh = TimeBudget(minutes=60)
    fresh.on_train_begin(None, TrainerState(stateful_callbacks=[fresh]), TrainerControl())
    assert fresh.spent == 0.0
