"""The final evaluation per website: counts and rates per group, worst exact match first."""

from training.report import by_website


def test_by_website_groups_and_orders_worst_first():
    rows = [{"website": "enter-date", "valid": True, "exact": False},
            {"website": "click-button", "valid": True, "exact": True},
            {"website": "enter-date", "valid": True, "exact": True},
            {"website": "", "valid": False, "exact": False}]
    table = by_website(rows)
    assert list(table) == ["(none)", "enter-date", "click-button"]
    assert table["enter-date"] == {"turns": 2, "valid_call_rate": 1.0, "exact_call_match": 0.5}
    assert table["(none)"]["valid_call_rate"] == 0.0
