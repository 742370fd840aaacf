"""The call parser on adversarial model output: linear time, a length limit, a calls limit."""

from __future__ import annotations

import pytest
from adversarial import PATTERNS, adversarial_text

from pipeline.tools import ToolCall, ToolError, parse_call, parse_calls
from pipeline.tools.jsonish import MAX_DEPTH
from pipeline.tools.parse import MAX_CALLS, MAX_OUTPUT_CHARS
from tests.timing import best_ms

# The benchmark's target is 100 ms per MB; the tests allow 10x for a loaded CI machine. The
# quadratic parser took 51 s on 110 KB of the first pattern.
MB_BOUND_MS = 1000.0


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_megabyte_of_adversarial_text_parses_in_linear_time(pattern):
    text = adversarial_text(pattern, 1_000_000)
    ms, results = best_ms(lambda: parse_calls(text, max_chars=None), repeats=1)
    assert ms < MB_BOUND_MS, f"{pattern!r}: {ms:.0f} ms"
    assert results and all(isinstance(r, (ToolCall, ToolError)) for r in results)


@pytest.mark.parametrize("pattern", ["<bu_click>{", "<bu_summary>"])
def test_the_issue_cases_are_too_long_at_the_default_limit(pattern):
    ms, results = best_ms(lambda: parse_calls(pattern * 80_000), repeats=1)
    assert ms < 50
    assert [r.kind for r in results] == ["too_long"]
    assert f"{MAX_OUTPUT_CHARS:,}" in results[0].message and "<bu_" in results[0].message
    assert len(results[0].raw) <= 300


def test_time_grows_linearly():
    pattern = '<bu_click>{\\"'
    small, _ = best_ms(lambda: parse_calls(adversarial_text(pattern, 100_000), max_chars=None))
    large, _ = best_ms(lambda: parse_calls(adversarial_text(pattern, 800_000), max_chars=None))
    assert large < 8 * small * 3 + 20, (small, large)  # quadratic would be 64x


def test_calls_limit():
    one = '<bu_summary>{}<bu_end>'
    assert [r.name for r in parse_calls(one * MAX_CALLS)] == ["get_page_summary"] * MAX_CALLS
    assert [r.kind for r in parse_calls(one * (MAX_CALLS + 1))] == ["too_long"]
    assert parse_call(one * (MAX_CALLS + 1)).kind == "too_long"


def test_a_limit_can_be_lifted_or_lowered():
    text = '<bu_click>{"index": 3}<bu_end>'
    assert parse_calls(text, max_chars=10)[0].kind == "too_long"
    assert parse_calls(" " * 100_000 + text, max_chars=None)[0] == ToolCall("click", {"index": 3})


def test_deep_brackets_are_an_error_not_a_crash():
    deep = "<bu_click>{" + '"a": [' * (MAX_DEPTH + 5) + "1" + "]" * (MAX_DEPTH + 5) + "}<bu_end>"
    result = parse_call(deep)
    assert isinstance(result, ToolError) and result.kind == "bad_json"
    very_deep = '{"name": "click", "arguments": ' + "[" * 50_000 + "]" * 50_000 + "}"
    assert isinstance(parse_call(very_deep), ToolError)


def test_a_token_outside_strings_ends_the_arguments():
    """The arguments of an unclosed call stop at the next token; the next call still parses."""
    results = parse_calls('<bu_click>{"index": <bu_click>{"index": 3}}<bu_end>')
    assert [type(r).__name__ for r in results] == ["ToolError", "ToolCall"]
    assert results[1] == ToolCall("click", {"index": 3})


def test_an_escaped_quote_run_does_not_hide_later_calls():
    text = '<bu_type>{"index": 2, "text": "a \\" b"}<bu_end><bu_click>{"index": 3}<bu_end>'
    assert parse_calls(text) == [ToolCall("type", {"index": 2, "text": 'a " b'}),
                                 ToolCall("click", {"index": 3})]
