"""Typed text is grounded when the model read it: word by word, a number as its word, letters
set apart one by one; a conversion or a value nowhere on screen is not."""

from __future__ import annotations

import pytest

from datagen.verify.grounding import value_grounded

READ = ("Task: Enter the value of Last name into the text field.\nGender\nMale\nLast name\n"
        "Reynolds\nBuy two tickets\n6 g H F")


@pytest.mark.parametrize("value", ["Reynolds", "reynolds", "Last name", "male", "2", "6gHF",
                                   "  Reynolds ", "...", ""])
def test_grounded(value):
    assert value_grounded(value, READ)


@pytest.mark.parametrize("value", ["gray", "Reynolds Smith", "21:37", "rm apache.rb", "3",
                                   "6gh", "ynol"])
def test_not_grounded(value):
    assert not value_grounded(value, READ)
