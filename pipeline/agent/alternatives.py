"""Another answer when a model's greedy answer repeats a call the step already refused.

    refused = refused_calls(situation.messages)   # the step's calls answered with "Error: ..."
    for prefix in fork_prefixes(generation, 4):    # answer ids up to a runner-up, closest first
        alternative = await policy.generate_ids(prompt_ids + prefix, ...)

Greedy decoding is deterministic: asked again after the loop refused its call (an index the page
does not have, an action that changed nothing on the page), a model that never saw a refusal in
training writes the very same call, and the step ends with ``repeated_refusal`` (36 of the 144
BrowserGym episodes the 30-minute student failed of the first 250 had such steps). The tool
message says what was wrong; the answer's runners-up say where the model nearly wrote something else
(``Generation.runners_up`` and ``gaps``, which decoding records at every answer id). An answer
that takes the runner-up at one position and decodes greedily after it is the most likely
answer branching off there; the positions where the runner-up came closest give the next most
likely answers, the ones beam search would rank next, for one greedy continuation each. The
first that writes a valid call the step has not refused is taken (``ModelPolicy.next_turn``,
with ``GenerationSettings.alternatives`` > 0). For the 30-minute student it changed little: the
answers it forks to are other wrong actions (benchmarks/NOTES.md), so it is off by default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from pipeline.model.generate import CALL_END, Generation
from pipeline.tools import ToolCall
from pipeline.tools.codec import from_openai


def refused_calls(messages: Sequence[Mapping[str, Any]]) -> list[ToolCall]:
    """The calls of the conversation's assistant turns that the next tool message answered with
    an error: actions the page refused, the step before's futile action, a tool call that
    failed."""
    refused = []
    for turn, answer in pairwise(messages):
        if turn.get("role") != "assistant" or answer.get("role") != "tool":
            continue
        if not str(answer.get("content") or "").startswith("Error"):
            continue
        refused += [c for c in map(from_openai, turn.get("tool_calls") or [])
                    if isinstance(c, ToolCall)]
    return refused


def fork_prefixes(generation: Generation, count: int) -> list[list[int]]:
    """Up to ``count`` answer prefixes that end in a runner-up instead of the answer's own id:
    the greedy ids before a position, then the model's second choice there, for the positions
    whose gap was smallest first. The position of the answer's closing ``<bu_end>`` is left
    out: going on past a complete call writes a second one."""
    ids, runners, gaps = generation.ids, generation.runners_up, generation.gaps
    length = min(len(ids), len(runners), len(gaps))
    if length and generation.text.endswith(CALL_END):
        length -= 1
    positions = sorted(range(length), key=lambda i: gaps[i])
    return [[*ids[:i], runners[i]] for i in positions[:count]]
