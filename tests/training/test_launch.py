"""``accelerate launch -m training`` with the CPU accelerate config (one real step), and packed
rows attending only within their own example."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from training.data import Collator

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_accelerate_launch_cpu(tmp_path, dataset_dir, base_folder):
    accelerate = shutil.which("accelerate", path=str(Path(sys.executable).parent))
    assert accelerate, "accelerate is not installed in this environment"
    command = [accelerate, "launch", "--config_file", "configs/accelerate/cpu.yaml",
               "-m", "training", "--config", "configs/training/smollm2-135m-cpu.yaml",
               "--output-dir", str(tmp_path), f"dataset_dir={dataset_dir}", "eval_split=null",
               "max_steps=1", "max_length=256", "batch_size=1", "grad_accum=1",
               "precision=fp32", "progress=false"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600,
                          check=False, env={**os.environ, "TOKENIZERS_PARALLELISM": "false"})
    assert done.returncode == 0, done.stderr[-3000:]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert metrics["train"]["global_step"] == 1
    assert (tmp_path / "adapter" / "adapter_model.safetensors").is_file()


def test_packed_row_equals_separate_rows():
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=32, hidden_size=16, intermediate_size=32, num_hidden_layers=2,
        num_attention_heads=2, num_key_value_heads=2, attn_implementation="sdpa")).eval()
    a = {"input_ids": [3, 7, 9, 4], "labels": [-100, 7, 9, 4], "loss_weights": [0, 1, 1, 1.0]}
    b = {"input_ids": [5, 6, 1], "labels": [-100, 6, 1], "loss_weights": [0, 1, 1.0]}
    packed = Collator(pad_id=0, packing=True)([a, b])
    with torch.no_grad():
        together = model(input_ids=packed["input_ids"], position_ids=packed["position_ids"],
                         use_cache=False).logits  # as in training: a cache disables packing
        alone = [model(input_ids=torch.tensor([e["input_ids"]])).logits for e in (a, b)]
    assert torch.allclose(together, torch.cat(alone, dim=1), atol=1e-5)
    rounded = Collator(pad_id=0, packing=True, pad_to_multiple_of=4)([a, b])
    assert rounded["input_ids"].shape == (1, 8)
    with torch.no_grad():
        filled = model(input_ids=rounded["input_ids"], position_ids=rounded["position_ids"],
                       use_cache=False).logits
    assert torch.allclose(filled[:, :7], together, atol=1e-5)  # the filler changes nothing
