"""A process that ends while the engine still decodes an answer nobody waits for (an episode
that timed out) exits cleanly: the engine's thread finishes its forwards before Python
finalizes, instead of being unwound through torch's C++ frames (an abort, exit code 134)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import time
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    from pipeline.model.engine import Engine
    from pipeline.model.greedy import DecodeStats

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=256, hidden_size=512, intermediate_size=1024, num_hidden_layers=8,
        num_attention_heads=8, num_key_value_heads=8)).eval()
    engine = Engine(model, stops=[], batch_size=4, lookup=0, cache=None, stats=DecodeStats(),
                    bf16=False)
    future = engine.submit(list(range(3, 40)), limit=300)  # abandoned, as a timed-out episode's
    time.sleep(0.5)
    print("exiting while decoding:", not future.done(), flush=True)
""")


@pytest.mark.slow
def test_exit_while_the_engine_decodes_is_clean():
    for _ in range(3):  # the abort came at some exits, not all
        done = subprocess.run([sys.executable, "-c", SCRIPT], check=False, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "exiting while decoding: True" in done.stdout
