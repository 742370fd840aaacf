"""Shared fixtures for the training tests: the SmolLM2 base folder, its tokenizer with the
functional tokens, and a tiny dataset in datagen's layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from training_helpers import write_dataset


@pytest.fixture(scope="session")
def tokenizer(base_folder: Path):
    from transformers import AutoTokenizer

    from pipeline.tools import functional_tokens

    tok = AutoTokenizer.from_pretrained(str(base_folder))
    tok.add_tokens(functional_tokens(), special_tokens=True)
    return tok


@pytest.fixture(scope="session")
def dataset_dir(tmp_path_factory) -> Path:
    return write_dataset(tmp_path_factory.mktemp("dataset"), train=4, test=2)
