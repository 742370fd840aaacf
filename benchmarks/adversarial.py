"""Adversarial model outputs: texts built to make a call parser slow, one pattern repeated.

    text = adversarial_text("<bu_click>{", 1_000_000)   # the pattern repeated up to 1 MB

``PATTERNS`` holds the patterns the reliability tests and ``codec_benchmark.py`` run: unclosed
arguments after every token, tokens without arguments, unterminated and escaped strings, bare
brackets, and JSON calls cut off in the middle.
"""

from __future__ import annotations

PATTERNS: tuple[str, ...] = (
    "<bu_click>{",
    "<bu_summary>",
    "<bu_summary>{}<bu_end>",
    '<bu_click>{"index": 1}<bu_end>',
    '<bu_click>{\\"',
    '<bu_click>{"text": "',
    '<bu_type>{"text": "<bu_end>',
    "<bu_end>",
    "{",
    "[",
    "{}",
    '"',
    "'",
    "\\",
    "<",
    "{'a': '",
    '{"name": "click", "arguments": {"index": ',
    '{"name": "x"}',
)


def adversarial_text(pattern: str, size: int) -> str:
    """``pattern`` repeated to ``size`` characters (cut at the end)."""
    return (pattern * (size // len(pattern) + 1))[:size]
