"""``init_adapter``: a run starts from an earlier run's adapter (a DAgger round from the round
before) -- REAL SmolLM2-135M runs; a misfit adapter or a folder without one is a clear error."""

from __future__ import annotations

import pytest
import torch
from safetensors.torch import load_file

from pipeline.errors import FormatError, PagescoutError
from training.config import load_training_config
from training.recipe import setup

pytestmark = pytest.mark.slow

SMALL = ["max_length=256", "batch_size=1", "grad_accum=1", "precision=fp32", "eval_split=null",
         "progress=false", "max_steps=1"]


def test_setup_holds_the_earlier_adapters_weights(tiny_checkpoint, dataset_dir, tmp_path):
    cfg = load_training_config(None, [f"dataset_dir={dataset_dir}", f"output_dir={tmp_path}",
                                      f"init_adapter={tiny_checkpoint}", *SMALL])
    from peft import get_peft_model_state_dict

    run = setup(cfg)
    started = get_peft_model_state_dict(run.trainer.model)
    saved = load_file(str(tiny_checkpoint / "adapter" / "adapter_model.safetensors"))
    assert started.keys() == saved.keys()
    assert all(torch.equal(started[k], saved[k]) for k in saved)
    trained_b = [k for k in saved if "lora_B" in k]
    assert trained_b and any(saved[k].abs().sum() > 0 for k in trained_b)  # not a fresh init


def test_a_misfit_adapter_is_named(tiny_checkpoint, dataset_dir, tmp_path):
    cfg = load_training_config(None, [f"dataset_dir={dataset_dir}", f"output_dir={tmp_path}",
                                      f"init_adapter={tiny_checkpoint}", "lora.rank=4", *SMALL])
    with pytest.raises(PagescoutError, match=r"init_adapter: .* does not fit this run's LoRA"):
        setup(cfg)


def test_a_folder_without_an_adapter_is_refused(dataset_dir, tmp_path):
    with pytest.raises(FormatError, match="init_adapter: .* holds no adapter"):
        load_training_config(None, [f"dataset_dir={dataset_dir}", f"init_adapter={tmp_path}"])
