"""A REAL training run of a few steps on SmolLM2-135M (tiny data, short sequences), then a
resumed run, the outputs, and loading the trained adapter and the merged model back."""

from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file

from pipeline.model.trained import load_trained
from pipeline.tools import functional_tokens
from training.config import load_training_config
from training.recipe import main

pytestmark = pytest.mark.slow

SMALL = ["max_length=256", "batch_size=1", "grad_accum=1", "learning_rate=0.01",
         "warmup_steps=0", "precision=fp32", "eval_split=test", "eval_limit=2", "eval_samples=2",
         "eval_max_new_tokens=8", "eval_batch_size=2", "eval_steps=3", "save_steps=2",
         "logging_steps=1", "progress=false", "max_per_task=1"]


@pytest.fixture(scope="module")
def run(tmp_path_factory, dataset_dir, base_folder):
    out = tmp_path_factory.mktemp("run")
    common = [f"dataset_dir={dataset_dir}", f"output_dir={out}", *SMALL]
    first = main(load_training_config(None, [*common, "max_steps=3"]))
    second = main(load_training_config(None, [*common, "max_steps=4", "resume=true",
                                               "merge=true"]))
    return out, first, second


def test_outputs_written(run):
    out, _first, _second = run
    for name in ("adapter/adapter_model.safetensors", "adapter/tokenizer.json", "metrics.json",
                 "train_log.jsonl", "training_curves.png", "README.md", "merged/config.json"):
        assert (out / name).is_file(), name
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["train"]["global_step"] == 4
    per_task = metrics["data"]["train"]["per_task"]  # max_per_task=1: one record of each task
    assert all(c["after"] == 1 <= c["before"] for c in per_task.values())
    assert metrics["data"]["train"]["records"] == len(per_task) < 6
    assert set(metrics["final_eval"]) >= {"eval_loss", "eval_functional_token_accuracy",
                                          "eval_valid_call_rate", "eval_exact_call_match"}
    assert metrics["final_eval"]["eval_generated"] == 4  # every held-out turn (2 x 2) at the end
    assert {"eval_exact_query_call", "eval_exact_action_call"} <= set(metrics["final_eval"])
    assert metrics["train"]["step_seconds"] > 0  # both runs' steps (resumed: the budget continues)
    assert 0 < metrics["train"]["seconds_per_step"] <= metrics["train"]["seconds"]  # this run's
    assert "| eval_loss |" in (out / "README.md").read_text()
    sites = metrics["final_by_website"]  # the final evaluation per website, in the card too
    assert sum(site["turns"] for site in sites.values()) == 4 and "(none)" not in sites
    assert all(f"| {site} |" in (out / "README.md").read_text() for site in sites)


def test_resume_continues_from_the_saved_step(run):
    out, first, second = run
    assert first["train"]["global_step"] == 3 and second["train"]["global_step"] == 4
    # the time budget carries over: the resumed run's minutes include the first run's
    assert second["train"]["step_seconds"] > first["train"]["step_seconds"]
    assert second["train"]["seconds_per_step"] < second["train"]["step_seconds"]
    log = [json.loads(line) for line in (out / "train_log.jsonl").read_text().splitlines()]
    assert [e["step"] for e in log if "loss" in e] == [1, 2, 3, 4]  # no step trained twice
    assert any("eval_valid_call_rate" in e for e in log)


def test_lora_and_new_rows_train_original_rows_stay(run, base_folder):
    from transformers import AutoModelForCausalLM

    out, _, _ = run
    adapter = load_file(str(out / "adapter" / "adapter_model.safetensors"))
    lora_b = [v for k, v in adapter.items() if "lora_B" in k]
    assert lora_b and all(v.abs().sum() > 0 for v in lora_b)  # B starts at zero
    base = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    original = base.get_input_embeddings().weight.detach()
    merged = AutoModelForCausalLM.from_pretrained(str(out / "merged"), dtype=torch.float32)
    trained = merged.get_input_embeddings().weight.detach()
    vocab = original.shape[0]
    assert torch.equal(trained[:vocab], original)
    assert trained.shape[0] == vocab + len(functional_tokens())
    model, tokenizer = load_trained(out / "adapter")
    initial = model.get_input_embeddings()  # peft wrapper: the original rows + trained deltas
    ids = torch.tensor([tokenizer.convert_tokens_to_ids(functional_tokens())])
    rows = initial(ids)[0].detach()
    assert torch.allclose(rows, trained[vocab:], atol=1e-5)


def test_trained_adapter_and_merged_model_generate_the_same(run):
    """The adapter, the merged folder, and the adapter merged as the policies load it."""
    from training_helpers import TASKS, trajectory

    from pipeline.model.render import render_prompt

    out, _, _ = run
    messages = trajectory(*TASKS[1])["messages"][:2]
    results = []
    for folder, merge in ((out / "adapter", False), (out / "merged", False),
                          (out / "adapter", True)):
        model, tokenizer = load_trained(folder, merge=merge)
        assert tokenizer.chat_template and "<bu_click>" in tokenizer.get_vocab()
        assert hasattr(model, "peft_config") == (folder.name == "adapter" and not merge)
        ids = torch.tensor([render_prompt(messages, tokenizer, max_length=256)])
        with torch.no_grad():
            results.append(model(input_ids=ids).logits[0, -1])
    assert torch.allclose(results[0], results[1], atol=1e-3)
    assert torch.allclose(results[0], results[2], atol=1e-4)


def test_time_budget_stops_training_and_saves(tmp_path, dataset_dir, base_folder):
    common = [f"dataset_dir={dataset_dir}", f"output_dir={tmp_path}", *SMALL]
    summary = main(load_training_config(None, [*common, "max_steps=50", "max_minutes=1e-4",
                                               "eval_samples=0", "final_eval_samples=0"]))
    assert summary["train"]["global_step"] == 1 and summary["train"]["stopped_by_time"]
    assert (tmp_path / "checkpoint-1").is_dir() and (tmp_path / "adapter").is_dir()
