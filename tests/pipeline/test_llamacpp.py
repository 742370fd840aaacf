"""The llama.cpp backend with the real SmolLM2 code: the GGUF export of a LoRA-adapted model with
the functional tokens (merged) gives torch's logits, and the engine's answers are torch's, with
prefixes reused, a full cache emptied of old prefixes, a chooser obeyed and a bad request
failed alone; ``python -m pipeline export-gguf`` writes a file llama.cpp's own tokenizer reads
as the checkpoint's."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
import torch
from model_helpers import STEPS, adapted_model, conversations

from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
from pipeline.cli.main import main as cli_main
from pipeline.model.generate import stop_ids
from pipeline.model.gguf_export import GGUFExportError, write_gguf
from pipeline.model.greedy import DecodeStats
from pipeline.model.llamacpp import LlamaCppModel
from pipeline.model.llamacpp_engine import LlamaCppEngine
from pipeline.model.render import render_prompt
from pipeline.model.trained import load_model

OPTIONS = {"max_length": 1024, "max_new_tokens": 12}
PROMPTS = [c for step in STEPS for c in conversations(step)]


@pytest.fixture(scope="module")
def adapted(base_folder):
    return adapted_model(base_folder)


@pytest.fixture(scope="module")
def merged(base_folder):
    model, tokenizer = adapted_model(base_folder)
    return model.merge_and_unload().eval(), tokenizer


def prompt_ids(tokenizer, messages) -> list[int]:
    return render_prompt(messages, tokenizer, max_length=OPTIONS["max_length"] - 12)


def engine(model, tokenizer, **options) -> LlamaCppEngine:
    settings = {"batch_size": 2, "cache_entries": 4, "threads": 1, "weights": "f32", **options}
    return LlamaCppEngine(model, tokenizer, stops=stop_ids(tokenizer), stats=DecodeStats(),
                          **settings)


@pytest.mark.slow
def test_the_gguf_export_gives_the_torch_logits(merged, tmp_path):
    model, tokenizer = merged
    ids = prompt_ids(tokenizer, PROMPTS[-1])
    with torch.inference_mode():
        expected = model(torch.tensor([ids])).logits[0, -1].numpy()
    sizes = {}
    for weights, tolerance in (("f32", 0.05), ("f16", 0.2), ("q8_0", 2.0)):
        path = write_gguf(model, tokenizer, tmp_path / f"model-{weights}.gguf", weights)
        sizes[weights] = path.stat().st_size
        llm = LlamaCppModel(path, context=1024, sequences=1, threads=1)
        got = llm.forward([(0, ids, 0)])[0][-1]
        llm.close()
        assert got.shape == expected.shape  # the functional tokens' rows are there
        assert np.abs(got - expected).max() < tolerance, weights
        if weights != "q8_0":  # int8 blocks may flip a near-tie
            assert got.argmax() == expected.argmax(), weights
    assert sizes["f32"] > 1.9 * sizes["f16"] > 3.4 * sizes["q8_0"]


@pytest.mark.slow
def test_the_engine_answers_as_torch_does_and_reuses_the_conversation_so_far(merged):
    model, tokenizer = merged
    torch_policy = ModelPolicy(model, tokenizer, "trained", "torch", GenerationSettings(
        bf16=False, prefix_cache=0, **OPTIONS))
    cpp_policy = ModelPolicy(model, tokenizer, "trained", "llama.cpp", GenerationSettings(
        backend="llama.cpp", gguf_weights="f32", batch_size=2, threads=1, **OPTIONS))

    async def answers(policy) -> list[str]:
        return [g.text for g in await asyncio.gather(*(policy.generate(p) for p in PROMPTS))]

    expected = asyncio.run(answers(torch_policy))
    assert asyncio.run(answers(cpp_policy)) == expected
    assert asyncio.run(answers(cpp_policy)) == expected  # again, from the cached prefixes
    stats = cpp_policy.stats()
    assert stats["backend"] == "llama.cpp" and stats["prompts"] == 2 * len(PROMPTS)
    assert stats["cache_hit_share"] > 0.7  # the second round reuses nearly every prompt
    assert stats["mean_batch"] > 1  # answers were decoded together
    assert stats["lookup_acceptance"] > 0  # drafts were verified, and some confirmed


@pytest.mark.slow
def test_a_full_cache_gives_up_the_oldest_prefixes_and_the_answers_stay(merged):
    model, tokenizer = merged
    prompts = [prompt_ids(tokenizer, p) for p in PROMPTS]
    roomy = engine(model, tokenizer)
    expected = [roomy.submit(ids, 12).result(timeout=120).ids for ids in prompts]
    longest = max(len(ids) for ids in prompts)
    tight = engine(model, tokenizer, batch_size=1, context=longest + 64)  # one prompt at a time
    assert [tight.submit(ids, 12).result(timeout=120).ids for ids in prompts] == expected
    assert sum(bool(slot.fed) for slot in tight.slots) < len(prompts)  # older ones given up
    uncached = engine(model, tokenizer, cache_entries=0)
    answers = [uncached.submit(ids, 12).result(timeout=120) for ids in prompts]
    assert [a.ids for a in answers] == expected and not any(a.cached for a in answers)


@pytest.mark.slow
def test_a_chooser_takes_every_id_and_a_bad_request_fails_alone(merged):
    model, tokenizer = merged
    cpp = engine(model, tokenizer)
    ids = prompt_ids(tokenizer, PROMPTS[0])
    wanted = tokenizer.encode("Clicking it.", add_special_tokens=False) + [stop_ids(tokenizer)[0]]
    seen = []

    def choose(generated, logits):
        seen.append(logits.shape[0])
        return wanted[len(generated)]

    answer = cpp.submit(ids, 24, choose).result(timeout=120)
    assert answer.ids == wanted and len(answer.runners_up) == len(answer.gaps) == len(wanted)
    assert set(seen) == {len(tokenizer)}
    broken = cpp.submit([*ids[:-1], 10 ** 9], 12)
    with pytest.raises(IndexError, match="outside the model's vocabulary"):
        broken.result(timeout=120)
    assert cpp.submit(ids, 12).result(timeout=120).ids  # the engine goes on


def test_a_model_with_its_adapter_unmerged_is_not_exported(adapted, tmp_path):
    model, tokenizer = adapted
    with pytest.raises(GGUFExportError, match="adapters merged"):
        write_gguf(model, tokenizer, tmp_path / "model.gguf")


@pytest.mark.slow
def test_export_gguf_writes_a_file_llama_cpp_tokenizes_as_the_checkpoint_does(tiny_checkpoint,
                                                                               tmp_path):
    import llama_cpp

    out = tmp_path / "model.gguf"
    assert cli_main(["export-gguf", str(tiny_checkpoint), "--out", str(out),
                     "--weights", "q8_0"]) == 0
    _, tokenizer, folder = load_model(tiny_checkpoint)
    assert folder is not None
    text = tokenizer.apply_chat_template([
        {"role": "user", "content": 'Task: type "naïve 3.5 😀" into the field'},
        {"role": "assistant", "content": '<bu_type>{"index": 4, "text": "naïve"}<bu_end>'}],
        tokenize=False)
    llm = llama_cpp.Llama(str(out), vocab_only=True, verbose=False)
    ids = tokenizer.encode(text, add_special_tokens=False)
    assert llm.tokenize(text.encode(), add_bos=False, special=True) == ids
    assert {"<bu_type>", "<bu_end>"} <= set(tokenizer.convert_ids_to_tokens(ids))
    assert llm.metadata["tokenizer.ggml.pre"] == "smollm"
    assert llm.metadata["tokenizer.chat_template"] == tokenizer.chat_template


def test_export_gguf_into_a_missing_folder_fails_before_loading_the_model(tmp_path, capsys):
    assert cli_main(["export-gguf", "smollm2", "--out", str(tmp_path / "no" / "m.gguf")]) == 2
    assert "does not exist" in capsys.readouterr().err
