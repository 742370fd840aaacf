"""Functional tokens on a model and its tokenizer (Octopus v2).

The tokens come from the tool registry (``pipeline.tools.functional_tokens()``: one per tool,
then ``<bu_end>``), so the codec and the model agree on them. They are added as special tokens
(each is ONE id, never split by the tokenizer), the embedding matrix is resized with the tie
between input and output embeddings kept, and each new row starts as the mean embedding of its
token's description words (``token_descriptions()``), e.g. ``<bu_click>`` from "click press
button link":

    new_ids = add_functional_tokens(model, tokenizer)

Adding is idempotent: a tokenizer saved by a training run already holds the tokens, and only
rows of tokens added now are initialised.

A checkpoint trained before a tool joined the registry (issue 15 added ``<bu_scroll>``,
``<bu_hover>``, ``<bu_drag>``, ``<bu_clear>``; ``<bu_select_text>`` came after) is loaded with its
own tokenizer as saved: ``fit_to_tokenizer`` sizes the model to it and returns the tokens it
lacks. Such a model never learnt those tools; their names reach it as ordinary text, and the
parser reads whatever it writes.
"""

from __future__ import annotations

from typing import Any

import torch

from pipeline.errors import PagescoutError
from pipeline.tools import functional_tokens, token_descriptions


def add_functional_tokens(model: Any, tokenizer: Any, *, init: bool = True) -> list[int]:
    """Add the registry's functional tokens, resize the (tied) embeddings and initialise the rows
    of the tokens added now; returns the ids of all functional tokens in registry order."""
    tokens = functional_tokens()
    missing = [t for t in tokens if t not in tokenizer.get_vocab()]
    tokenizer.add_tokens(missing, special_tokens=True)
    ids = functional_token_ids(tokenizer)
    if model.get_input_embeddings().weight.shape[0] != len(tokenizer):
        model.resize_token_embeddings(len(tokenizer), mean_resizing=False)
    check_tied(model)
    if init and missing:
        init_rows(model, tokenizer, {t: i for t, i in zip(tokens, ids, strict=True) if t in missing})
    return ids


def functional_token_ids(tokenizer: Any) -> list[int]:
    """The id of each functional token; each must encode to exactly one id."""
    ids = []
    for token in functional_tokens():
        encoded = tokenizer.encode(token, add_special_tokens=False)
        if len(encoded) != 1:
            raise PagescoutError(f"functional token {token} encodes to {len(encoded)} ids "
                                 f"{encoded}; add it with add_functional_tokens first")
        ids.append(encoded[0])
    return ids


def missing_tokens(tokenizer: Any) -> list[str]:
    """The registry's functional tokens this tokenizer does not hold (in registry order)."""
    vocab = tokenizer.get_vocab()
    return [t for t in functional_tokens() if t not in vocab]


def fit_to_tokenizer(model: Any, tokenizer: Any) -> list[str]:
    """Size the (tied) embeddings to a saved tokenizer without adding tokens to it, as a saved
    adapter expects; returns the functional tokens the tokenizer lacks (an older checkpoint)."""
    if model.get_input_embeddings().weight.shape[0] != len(tokenizer):
        model.resize_token_embeddings(len(tokenizer), mean_resizing=False)
    check_tied(model)
    return missing_tokens(tokenizer)


def init_rows(model: Any, tokenizer: Any, rows: dict[str, int]) -> None:
    """Set each new row (token -> id) to the mean input embedding of its description words."""
    descriptions = token_descriptions()
    weight = model.get_input_embeddings().weight
    with torch.no_grad():
        for token, row in rows.items():
            word_ids = tokenizer.encode(descriptions[token], add_special_tokens=False)
            weight[row] = weight[word_ids].mean(dim=0)


def check_tied(model: Any) -> None:
    """Input and output embeddings still share one matrix (when the model ties them)."""
    if not getattr(model.config, "tie_word_embeddings", False):
        return
    output = model.get_output_embeddings()
    if output is None or output.weight.data_ptr() != model.get_input_embeddings().weight.data_ptr():
        raise PagescoutError("resizing the embeddings untied them from the LM head; use "
                             "resize_token_embeddings(len(tokenizer), mean_resizing=False)")
