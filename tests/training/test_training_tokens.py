"""Functional tokens: one id each, codec round trip through the tokenizer, embedding init with
the tie kept."""

from __future__ import annotations

import pytest
import torch

from pipeline.model.functional_tokens import add_functional_tokens, functional_token_ids
from pipeline.tools import functional_tokens, make_call, parse_calls, to_tokens, token_descriptions

CALLS = [
    make_call("query_elements", text="add to cart", role="button"),
    make_call("click", index=12),
    make_call("type", index=3, text='say "hi" — ünïcode <bu_end>'),
    make_call("select", index=4, option="Large"),
    make_call("press", key="Enter"),
    make_call("get_page_summary"),
    make_call("done", answer="42"),
]


def test_each_functional_token_is_one_id(tokenizer):
    ids = functional_token_ids(tokenizer)
    assert len(set(ids)) == len(functional_tokens())
    assert all(i >= 49152 for i in ids)  # new rows after SmolLM2's vocabulary


@pytest.mark.parametrize("call", CALLS, ids=lambda c: c.name)
def test_codec_round_trip_through_tokenizer(tokenizer, call):
    ids = tokenizer.encode(to_tokens(call) + tokenizer.eos_token, add_special_tokens=False)
    text = tokenizer.decode(ids, skip_special_tokens=False)
    assert parse_calls(text) == [call]
    assert ids[0] in functional_token_ids(tokenizer)


@pytest.fixture(scope="module")
def model_with_tokens(base_folder):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(str(base_folder), dtype=torch.float32)
    tok = AutoTokenizer.from_pretrained(str(base_folder))
    original = model.get_input_embeddings().weight.detach().clone()
    ids = add_functional_tokens(model, tok)
    return model, tok, ids, original


def test_embeddings_resized_tied_and_initialised(model_with_tokens):
    model, tok, ids, original = model_with_tokens
    weight = model.get_input_embeddings().weight
    assert weight.shape[0] == len(tok) == original.shape[0] + len(ids)
    assert model.get_output_embeddings().weight.data_ptr() == weight.data_ptr()
    assert torch.equal(weight[: original.shape[0]], original)
    for token, row in zip(functional_tokens(), ids, strict=True):
        words = tok.encode(token_descriptions()[token], add_special_tokens=False)
        assert torch.allclose(weight[row], original[words].mean(dim=0))


def test_adding_again_is_a_no_op(model_with_tokens):
    model, tok, ids, _ = model_with_tokens
    before = model.get_input_embeddings().weight.detach().clone()
    assert add_functional_tokens(model, tok) == ids
    assert torch.equal(model.get_input_embeddings().weight, before)
