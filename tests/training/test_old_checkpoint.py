"""A checkpoint trained with the token set before issue 15 (no ``<bu_scroll>``, ``<bu_hover>``,
``<bu_drag>``, ``<bu_clear>``) still loads with its own tokenizer and plays a step.

The checkpoint is the demo chain's training run (``PAGESCOUT_OLD_CHECKPOINT``, default
``/work/main/outputs/demo/train``); the test is skipped where that folder does not exist.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

import pipeline
from pipeline.agent.conversation import Conversation
from pipeline.agent.model_policy import GenerationSettings, load_model_policy
from pipeline.agent.policy import Situation
from pipeline.distill import distill
from pipeline.html.source import page_from_file
from pipeline.model.functional_tokens import missing_tokens
from pipeline.tools import ToolCall

OLD = Path(os.environ.get("PAGESCOUT_OLD_CHECKPOINT", "/work/main/outputs/demo/train"))
FIXTURES = Path(pipeline.__file__).parent / "fixtures"


@pytest.mark.slow
def test_a_checkpoint_from_before_the_new_tools_loads_and_plays_a_step():
    if not (OLD / "adapter" / "adapter_config.json").is_file():
        pytest.skip(f"no pre-issue-15 checkpoint at {OLD} (set PAGESCOUT_OLD_CHECKPOINT)")
    policy = load_model_policy(OLD, GenerationSettings(max_new_tokens=48, threads=1))
    assert missing_tokens(policy.tokenizer) == ["<bu_scroll>", "<bu_hover>", "<bu_drag>",
                                                "<bu_clear>"]
    page = distill(page_from_file(FIXTURES / "forms.html"))
    task = "Click the create account button"
    convo = Conversation.open(task, [], page, "query_only")
    turn = asyncio.run(policy.next_turn(Situation(task, [], "query_only", convo.messages, page)))
    assert isinstance(turn.call, ToolCall), turn.message
    assert turn.call.name in {"query_elements", "get_page_summary", "get_region", "click"}
