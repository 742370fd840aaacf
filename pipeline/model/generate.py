"""Batched greedy generation of the next assistant turn, for training's held-out metrics, the
eval policies and the server.

    outs = generate_turns(model, tokenizer, conversations, max_length=1536, max_new_tokens=96,
                          batch_size=8)
    outs[0].text              # "Searching ...\\n<bu_query>{...}<bu_end>" (special tokens kept)
    outs[0].prompt_tokens, outs[0].completion_tokens

Each conversation is rendered with ``render_prompt`` (exactly as training renders it, truncated
the same way), prompts are sorted by length and batched, decoded greedily (``greedy``: each
prompt prefilled alone, the batch's answers decoded together, a lone one verifying up to
``lookup_tokens`` prompt-lookup draft ids per forward), and each answer is cut after its
first stop token: ``<bu_end>`` (a call is complete) or the end-of-turn token. With a
``PrefixCache`` only the tokens after the longest prefix an earlier call computed are prefilled
(``Generation.cached_tokens``); ``stats`` collects prefill and decode work and seconds. ``bf16``
runs under bf16 autocast (``bf16_supported()`` says whether the CPU has native bf16). Answers
come back in input order.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from pipeline.model.greedy import Answer, DecodeStats, greedy
from pipeline.model.lookup import LOOKUP_TOKENS, AnswerMemory
from pipeline.model.prefix_cache import PrefixCache
from pipeline.model.render import render_prompt
from pipeline.tools import functional_tokens

CALL_END = functional_tokens()[-1]  # "<bu_end>"


@dataclass(frozen=True, slots=True)
class Generation:
    text: str  # the answer up to and including its stop token, special tokens kept
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0  # prompt tokens whose keys and values came from the prefix cache
    ids: tuple[int, ...] = ()  # the answer's ids, as ``text`` holds them
    runners_up: tuple[int, ...] = ()  # per id: the model's second choice there
    gaps: tuple[float, ...] = ()  # per id: its logit gap to the choice (a log-prob gap)


def stop_ids(tokenizer: Any) -> list[int]:
    """Ids generation stops at: end of turn, and ``<bu_end>`` when the tokenizer knows it."""
    ids = [tokenizer.eos_token_id]
    end = tokenizer.convert_tokens_to_ids(CALL_END)
    if isinstance(end, int) and end != tokenizer.unk_token_id and end not in ids:
        ids.append(end)
    return [i for i in ids if i is not None]


def bf16_supported() -> bool:
    """Whether this machine runs bf16 matmuls natively (a CUDA device, or a CPU with AVX-512
    BF16 / AMX); elsewhere bf16 autocast is emulated and slower than fp32."""
    if torch.cuda.is_available():
        return torch.cuda.is_bf16_supported()
    capability = torch.backends.cpu.get_cpu_capability()
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return False
    return capability.startswith("AVX512") and (" avx512_bf16" in flags or " amx_bf16" in flags)


def thread_count(wanted: int) -> int:
    """The torch CPU threads to use for a setting of ``wanted``: at most ``OMP_NUM_THREADS``
    when that is a positive number, the standard cap of processes that share a machine (each
    with all cores, OpenMP threads that wait on each other stall: two test workers decoding at 2
    threads each on 2 cores took 8x as long as at 1)."""
    cap = os.environ.get("OMP_NUM_THREADS", "")
    return min(wanted, int(cap)) if cap.isdigit() and int(cap) > 0 else wanted


def bf16_linear_weights(model: Any, *, frozen_only: bool = False) -> int:
    """Store every ``nn.Linear`` weight of ``model`` in bf16 (a new tensor, so a tied
    embedding keeps its fp32 rows); returns how many. Under bf16 autocast the results are the
    same -- autocast casts each fp32 weight to bf16 before its matmul -- but that cast is no
    longer made on every forward: it read and wrote all 135M weights per generated token, and
    took bf16 decoding from ~55 to ~95 ms per token on a 2-core CPU. ``frozen_only`` (training):
    leave trainable weights (LoRA's) and weights tied to an embedding in fp32 -- the casts were
    ~10% of a training step of SmolLM2-135M here."""
    tied = {id(m.weight) for m in model.modules() if isinstance(m, torch.nn.Embedding)}
    count = 0
    for module in model.modules():
        if not isinstance(module, torch.nn.Linear) or module.weight.dtype != torch.float32:
            continue
        if frozen_only and (module.weight.requires_grad or id(module.weight) in tied):
            continue
        module.weight = torch.nn.Parameter(module.weight.detach().to(torch.bfloat16),
                                           requires_grad=False)
        if module.bias is not None:
            module.bias = torch.nn.Parameter(module.bias.detach().to(torch.bfloat16),
                                             requires_grad=False)
        count += 1
    return count


def generate_turns(
    model: Any, tokenizer: Any, conversations: Sequence[Sequence[Mapping[str, Any]]], *,
    max_length: int, max_new_tokens: int, batch_size: int, progress: bool = False,
    bf16: bool = False, cache: PrefixCache | None = None, stats: DecodeStats | None = None,
    lookup_tokens: int = LOOKUP_TOKENS, memory: AnswerMemory | None = None,
) -> list[Generation]:
    """The greedy next assistant turn of each conversation, in input order (see module doc);
    every batch drafts from the answers of the ones before (``memory``: also from a caller's
    earlier answers)."""
    from tqdm.auto import tqdm

    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    stats = DecodeStats() if stats is None else stats
    rendered = [render_prompt(c, tokenizer, max_length=max_length - max_new_tokens)
                for c in conversations]
    order = sorted(range(len(rendered)), key=lambda i: len(rendered[i]))
    out: list[Generation | None] = [None] * len(rendered)
    stops = stop_ids(tokenizer)
    memory = AnswerMemory() if memory is None else memory
    for start in tqdm(range(0, len(order), batch_size), desc="generate", unit="batch",
                      disable=not progress, leave=False):
        batch = order[start:start + batch_size]
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            answers = greedy(model, [rendered[i] for i in batch], max_new_tokens=max_new_tokens,
                             stops=stops, cache=cache, stats=stats, lookup=lookup_tokens,
                             memory=memory)
        for i, answer in zip(batch, answers, strict=True):
            out[i] = generation_of(answer, len(rendered[i]), tokenizer)
    if was_training:
        model.train()
    return [g for g in out if g is not None]


def generation_of(answer: Answer, prompt_tokens: int, tokenizer: Any) -> Generation:
    """The ``Generation`` of a decoded answer: its ids up to and including ``<bu_end>`` (an
    end-of-turn id is dropped), as text with the special tokens kept."""
    ids = _until_stop(answer.ids, stop_ids(tokenizer))
    return Generation(tokenizer.decode(ids, skip_special_tokens=False), prompt_tokens, len(ids),
                      answer.cached, tuple(ids), tuple(answer.runners_up[:len(ids)]),
                      tuple(answer.gaps[:len(ids)]))


def _until_stop(ids: list[int], stops: Sequence[int]) -> list[int]:
    """The ids up to and including the first stop id; the end-of-turn id itself is dropped."""
    for position, token in enumerate(ids):
        if token in stops:
            return ids[:position + 1] if token != stops[0] else ids[:position]
    return ids
