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


class _Args:
    def __init__(self, warmup: int) -> None:
        self.warmup = warmup

    def get_warmup_steps(self, max_steps: int) -> int:
        return self.warmup


def _cosine(max_steps: int, warmup: int):
    import torch
    from transformers import get_cosine_schedule_with_warmup

    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    return optimizer, get_cosine_schedule_with_warmup(optimizer, warmup, max_steps)


def test_the_schedule_decays_by_the_budget_when_it_runs_out_before_the_steps():
    optimizer, scheduler = _cosine(100, 10)
    reference = [f(50) for f in scheduler.lr_lambdas]  # the cosine half-way
    budget = TimeBudget(minutes=1.0)
    budget.on_train_begin(_Args(10), TrainerState(max_steps=100), TrainerControl(),
                          lr_scheduler=scheduler)
    assert scheduler.lr_lambdas[0](5) == 0.5  # warmup is left as it was
    budget.spent = 30.0  # half the minutes spent at step 20: the rate is the cosine's at 50
    assert scheduler.lr_lambdas[0](20) == reference[0]
    budget.spent = 6.0  # ahead of the clock: the step leads
    assert scheduler.lr_lambdas[0](50) == reference[0]
    budget.spent = 60.0  # the budget is spent: the decay has ended
    assert scheduler.lr_lambdas[0](30) == 0.0
    scheduler.step()
    assert optimizer.param_groups[0]["lr"] == 0.1  # step 1 of warmup, untouched


def test_without_a_limit_the_schedule_is_untouched():
    _, scheduler = _cosine(100, 10)
    before = list(scheduler.lr_lambdas)
    TimeBudget().on_train_begin(_Args(10), TrainerState(max_steps=100), TrainerControl(),
                                lr_scheduler=scheduler)
    assert scheduler.lr_lambdas == before
