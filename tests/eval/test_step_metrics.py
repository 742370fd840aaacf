"""Mind2Web's metrics and the intervals, against hand-computed values."""

from __future__ import annotations

import pytest

from eval.metrics import (
    StepScore,
    mean_interval,
    mind2web_metrics,
    op_f1,
    op_string,
    sign_test,
    wilson,
)


def test_operation_f1_is_set_based_token_f1():
    assert op_f1("CLICK", "CLICK") == 1.0
    assert op_f1("", "") == 1.0
    assert op_f1("TYPE kettle", "CLICK") == 0.0
    assert op_f1("SELECT Japan Tokyo", "SELECT Japan") == pytest.approx(0.8)
    assert op_f1("TYPE new york", "TYPE New York") == pytest.approx(1 / 3)  # case-sensitive
    assert op_f1("TYPE a a a", "TYPE a") == 1.0  # sets, not multisets
    assert op_string("CLICK", "ignored") == "CLICK" and op_string("TYPE", "x y") == "TYPE x y"


def test_metrics_are_macro_over_tasks():
    scores = [StepScore("a", True, 1.0), StepScore("a", True, 1.0), StepScore("a", False, 1.0),
              StepScore("a", True, 0.0), StepScore("b", True, 0.8), StepScore("b", True, 1.0),
              StepScore("c", False, 0.0)]
    m = mind2web_metrics(scores)
    assert m["element_accuracy"].value == pytest.approx((0.75 + 1.0 + 0.0) / 3)
    assert m["operation_f1"].value == pytest.approx((0.75 + 0.9 + 0.0) / 3)
    assert m["step_sr"].value == pytest.approx((0.5 + 0.5 + 0.0) / 3)
    assert m["task_sr"].value == 0.0 and m["task_sr"].n == 3
    assert m["step_sr_micro"].value == pytest.approx(3 / 7) and m["step_sr_micro"].n == 7


def test_intervals():
    w = wilson(9, 10)
    assert (round(w.low, 4), round(w.high, 4)) == (0.5958, 0.9821)  # Wilson score, z=1.96
    assert wilson(0, 0).n == 0 and wilson(10, 10).high == pytest.approx(1.0)
    flat = mean_interval([2.0] * 40)
    assert flat.value == flat.low == flat.high == 2.0
    small = mean_interval([0.0, 1.0, 1.0, 1.0])
    assert small.low < small.value == 0.75 <= small.high


def test_sign_test_is_the_exact_two_sided_binomial():
    assert sign_test(10, 0) == pytest.approx(2 / 2**10)  # all ten discordant pairs one way
    assert sign_test(3, 1) == sign_test(1, 3) == pytest.approx(2 * 5 / 16)  # P(X <= 1), n = 4
    assert sign_test(0, 0) == 1.0 and sign_test(5, 5) == 1.0
