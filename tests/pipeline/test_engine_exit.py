"""A process that ends while the engine still decodes an answer nobody waits for (an episode
that timed out) exits cleanly and at once: the engine's thread ends after the forward it is in
before Python finalizes, instead of being unwound through torch's C++ frames (an abort, exit
code 134), and the abandoned answer fails instead of being decoded to its limit."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from pipeline.model.engine import Engine
from pipeline.model.engine_thread import EngineClosed
from pipeline.model.greedy import DecodeStats

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = textwrap.dedent("""
    import time
    from pipeline.model.engine import Engine
    from pipeline.model.greedy import DecodeStats
    from tests.pipeline.test_engine_exit import random_model

    engine = Engine(random_model(), stops=[], batch_size=4, lookup=0, cache=None,
                    stats=DecodeStats(), bf16=False)
    future = engine.submit(list(range(3, 40)), limit=300)  # abandoned, as a timed-out episode's
    time.sleep(0.5)
    print("exiting while decoding:", not future.done(), flush=True)
""")


def random_model() -> LlamaForCausalLM:
    """A Llama whose forward takes long enough to be inside one at exit."""
    torch.manual_seed(0)
    return LlamaForCausalLM(LlamaConfig(
        vocab_size=256, hidden_size=512, intermediate_size=1024, num_hidden_layers=8,
        num_attention_heads=8, num_key_value_heads=8)).eval()


def test_close_fails_the_answers_in_flight_after_one_forward_and_a_later_request_is_served():
    stats = DecodeStats()
    engine = Engine(random_model(), stops=[], batch_size=1, lookup=0, cache=None, stats=stats,
                    bf16=False)
    decoding = engine.submit(list(range(3, 40)), limit=300)
    waiting = engine.submit(list(range(3, 20)), limit=300)  # the batch holds one row: it waits
    while stats.decode_tokens < 2:
        time.sleep(0.01)
    engine.close()
    for future in (decoding, waiting):
        assert isinstance(future.exception(timeout=0), EngineClosed)
    assert stats.decode_tokens < 100  # not decoded to its limit of 300
    assert len(engine.submit([3, 4, 5], limit=4).result(timeout=60).ids) == 4


@pytest.mark.slow
def test_exit_while_the_engine_decodes_is_clean():
    for _ in range(3):  # the abort came at some exits, not all
        done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, check=False,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        assert "exiting while decoding: True" in done.stdout
