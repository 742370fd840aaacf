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
import torch

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
def test_a_run_continues_from_an_adapter_with_the_earlier_tokens(old_run, dataset_dir, tmp_path):
    """``init_adapter`` = such a run: its LoRA weights and the rows of the tokens it knew carry
    over, each to the row of the same token here; a token it lacks starts from its fresh row."""
    import json

    from peft import get_peft_model_state_dict
    from safetensors.torch import load_file
    from transformers import AutoTokenizer

    from training.config import load_training_config
    from training.recipe import setup

    folder, lacking = old_run
    adapter = folder / "adapter"
    run = setup(load_training_config(None, [
        f"dataset_dir={dataset_dir}", f"output_dir={tmp_path}", f"init_adapter={folder}",
        "max_length=256", "batch_size=1", "grad_accum=1", "precision=fp32", "eval_split=null",
        "progress=false", "max_steps=1"]))
    started = get_peft_model_state_dict(run.trainer.model)
    saved = load_file(str(adapter / "adapter_model.safetensors"))
    lora = [k for k in saved if "lora_" in k]
    assert lora and all(torch.equal(started[k], saved[k]) for k in lora)
    old_ids = json.loads((adapter / "adapter_config.json").read_text())[
        "trainable_token_indices"]["embed_tokens"]
    old_row = {t: r for r, t in enumerate(
        AutoTokenizer.from_pretrained(str(adapter)).convert_ids_to_tokens(old_ids))}
    new_ids = run.trainer.model.peft_config["default"].trainable_token_indices["embed_tokens"]
    key = next(k for k in saved if k.endswith("embed_tokens.token_adapter.trainable_tokens_delta"))
    base = key.replace("trainable_tokens_delta", "base_layer.weight")
    for row, (token, token_id) in enumerate(zip(
            run.tokenizer.convert_ids_to_tokens(new_ids), new_ids, strict=True)):
        if token in lacking:
            assert torch.equal(started[key][row], started[base][token_id])  # its fresh row
        else:
            assert torch.equal(started[key][row], saved[key][old_row[token]])


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
