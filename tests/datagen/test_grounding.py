"""Typed text is grounded when the model read it: word by word, a number as any number, number
word or month read, or within a range read, letters set apart one by one; a value nowhere on
screen is not."""

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


@pytest.mark.parametrize(("value", "grounded"), [("4", True), ("0", True), ("9", True),
                                                 ("10", False), ("15", True), ("21", False),
                                                 ("-3", True), ("4a", False)])
def test_a_number_within_a_range_read_is_grounded(value, grounded):
    read = ("Task: Guess the number between 0-9, then press Submit.\nThe number is lower than "
            "8.\nPick a value from 12 to 20, or between -5 and 5.")
    assert value_grounded(value, read) is grounded
    assert not value_grounded(value, "Task: Guess the number, then press Submit.")  # no range
