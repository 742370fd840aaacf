"""A checkpoint trained with the token set before issue 15 (no ``<bu_scroll>``, ``<bu_hover>``,
``<bu_drag>``, ``<bu_clear>``) still loads with its own tokenizer and plays a step.

The first test trains such a checkpoint here: a real two-step run whose code adds only the
earlier ten tokens, as a run of that time did. The second asks a real, longer-trained old
checkpoint (``PAGESCOUT_OLD_CHECKPOINT``) for a valid call; it is skipped without one.
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
from pipeline.tools import ToolCall, ToolError

OLD = Path(os.environ.get("PAGESCOUT_OLD_CHECKPOINT", "/nonexistent"))
FIXTURES = Path(pipeline.__file__).parent / "fixtures"
NEW_TOKENS = ["<bu_scroll>", "<bu_hover>", "<bu_drag>", "<bu_clear>"]
TASK = "Click the create account button"


@pytest.fixture(scope="module")
def old_run(tmp_path_factory, base_folder) -> Path:
    """A REAL two-step training run made by code that knew only the earlier ten tokens."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from training_helpers import write_dataset

    from pipeline.tools import functional_tokens
    from training.config import load_training_config
    from training.recipe import main

    old = [t for t in functional_tokens() if t not in NEW_TOKENS]
    data = write_dataset(tmp_path_factory.mktemp("old-dataset"), train=2, test=1)
    out = tmp_path_factory.mktemp("old-run")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("pipeline.model.functional_tokens.functional_tokens", lambda: list(old))
        patch.setattr("training.recipe.functional_tokens", lambda: list(old))
        main(load_training_config(None, [
            f"dataset_dir={data}", f"output_dir={out}", "max_steps=2", "save_steps=2",
            "max_length=256", "batch_size=1", "grad_accum=1", "learning_rate=0.01",
            "warmup_steps=0", "precision=fp32", "eval_split=null", "logging_steps=1",
            "final_eval_samples=0", "progress=false"]))
    return out


def first_turn(policy):
    page = distill(page_from_file(FIXTURES / "forms.html"))
    convo = Conversation.open(TASK, [], page, "query_only")
    return asyncio.run(policy.next_turn(Situation(TASK, [], "query_only", convo.messages, page)))


@pytest.mark.slow
def test_a_run_trained_with_the_earlier_tokens_loads_and_answers(old_run):
    policy = load_model_policy(old_run, GenerationSettings(max_new_tokens=16, threads=1))
    assert missing_tokens(policy.tokenizer) == NEW_TOKENS
    rows = policy.model.get_input_embeddings().weight.shape[0]
    assert rows == len(policy.tokenizer)  # sized to its own tokenizer, not to today's registry
    turn = first_turn(policy)  # a parsed call or the reason it is not one, never an exception
    assert turn.message["role"] == "assistant" and isinstance(turn.call, (ToolCall, ToolError))


@pytest.mark.slow
def test_a_checkpoint_from_before_the_new_tools_loads_and_plays_a_step():
    if not (OLD / "adapter" / "adapter_config.json").is_file():
        pytest.skip(f"no pre-issue-15 checkpoint at {OLD} (set PAGESCOUT_OLD_CHECKPOINT)")
    policy = load_model_policy(OLD, GenerationSettings(max_new_tokens=48, threads=1))
    assert missing_tokens(policy.tokenizer) == NEW_TOKENS
    turn = first_turn(policy)
    assert isinstance(turn.call, ToolCall), turn.message
    assert turn.call.name in {"query_elements", "get_page_summary", "get_region", "click"}
