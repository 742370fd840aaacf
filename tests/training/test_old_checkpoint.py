"""A checkpoint trained with an earlier token set still loads with its own tokenizer and plays a
step: one from before issue 15 (no ``<bu_scroll>``, ``<bu_hover>``, ``<bu_drag>``,
``<bu_clear>``, nor ``<bu_select_text>``) and one from before ``select_text`` joined the registry.

The first test trains such checkpoints here: real two-step runs whose code adds only the tokens
of their time, as a run of that time did. The second asks a real, longer-trained old checkpoint
(``PAGESCOUT_OLD_CHECKPOINT``) for a valid call; it is skipped without one.
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
SELECT_TEXT = ["<bu_select_text>"]  # the token added after issue 15
SINCE_ISSUE_15 = ["<bu_scroll>", "<bu_hover>", "<bu_drag>", "<bu_clear>", *SELECT_TEXT]
TASK = "Click the create account button"


@pytest.fixture(scope="module", params=[SINCE_ISSUE_15, SELECT_TEXT],
                ids=["before-issue-15", "before-select-text"])
def old_run(request, tmp_path_factory, base_folder) -> tuple[Path, list[str]]:
    """A REAL two-step training run made by code that knew the tokens of its time (all but
    ``request.param``), and the tokens it lacks."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from training_helpers import write_dataset

    from pipeline.tools import functional_tokens
    from training.config import load_training_config
    from training.recipe import main

    old = [t for t in functional_tokens() if t not in request.param]
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
    return out, request.param


def first_turn(policy):
    page = distill(page_from_file(FIXTURES / "forms.html"))
    convo = Conversation.open(TASK, [], page, "query_only")
    return asyncio.run(policy.next_turn(Situation(TASK, [], "query_only", convo.messages, page)))


@pytest.mark.slow
def test_a_run_trained_with_the_earlier_tokens_loads_and_answers(old_run):
    folder, lacking = old_run
    policy = load_model_policy(folder, GenerationSettings(max_new_tokens=16, threads=1))
    assert missing_tokens(policy.tokenizer) == lacking
    rows = policy.model.get_input_embeddings().weight.shape[0]
    assert rows == len(policy.tokenizer)  # sized to its own tokenizer, not to today's registry
    turn = first_turn(policy)  # a parsed call or the reason it is not one, never an exception
    assert turn.message["role"] == "assistant" and isinstance(turn.call, (ToolCall, ToolError))


@pytest.mark.slow
def test_a_checkpoint_from_before_the_new_tools_loads_and_plays_a_step():
    if not (OLD / "adapter" / "adapter_config.json").is_file():
        pytest.skip(f"no old checkpoint at {OLD} (set PAGESCOUT_OLD_CHECKPOINT)")
    policy = load_model_policy(OLD, GenerationSettings(max_new_tokens=48, threads=1))
    lacking = missing_tokens(policy.tokenizer)
    assert lacking in (SINCE_ISSUE_15, SELECT_TEXT)  # before issue 15, or before select_text
    turn = first_turn(policy)
    assert isinstance(turn.call, ToolCall), turn.message
    assert turn.call.name in {"query_elements", "get_page_summary", "get_region", "click"}
