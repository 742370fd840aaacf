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


def test_state_round_trip_keeps_the_minutes_spent():
    budget = TimeBudget(minutes=30, spent=600.0)
    saved = budget.state()
    restored = TimeBudget(**saved["args"])
    for key, value in saved["attributes"].items():
        setattr(restored, key, value)
    assert (restored.minutes, restored.spent, restored.session) == (30, 600.0, 0.0)
