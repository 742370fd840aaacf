"""Typed text is grounded when the model read it: word by word, a number as any number, number
word or month read, letters set apart one by one; a value nowhere on screen is not."""

from __future__ import annotations

import pytest

from datagen.verify.grounding import value_grounded

READ = ("Task: Enter the value of Last name into the text field.\nGender\nMale\nLast name\n"
        "Reynolds\nBuy two tickets\n6 g H F\nDepart on Apr 9, 2023 at 9:37 PM")


@pytest.mark.parametrize("value", ["Reynolds", "reynolds", "Last name", "male", "2", "6gHF",
                                   "  Reynolds ", "...", "", "04/09/2023", "2023-04-09", "21:37",
                                   "09:37"])
def test_grounded(value):
    assert value_grounded(value, READ)


@pytest.mark.parametrize("value", ["gray", "Reynolds Smith", "rm apache.rb", "3", "6gh",
                                   "ynol", "04/10/2023", "22:37"])
def test_not_grounded(value):
    assert not value_grounded(value, READ)
