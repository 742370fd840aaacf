"""A local causal LM as a policy: a trained adapter, a merged folder, or an untuned base model.

    policy = load_model_policy("runs/training/smollm2-135m-cpu")        # the run's adapter
    policy = load_model_policy("smollm2")                               # the untuned baseline
    turn = await policy.next_turn(situation)
    policy.stats()     # prompts, batches, generated tokens, seconds, tokens/s

A trained model gets the conversation rendered exactly as in training (``render_prompt``: the
brief system prompt, no tool list); an untuned one gets ``untuned_system_prompt`` (the tool list,
the call format and two worked examples) in place of the system prompt. Decoding is greedy and
stops at ``<bu_end>`` or the end of the turn; with ``settings.alternatives`` an answer that
repeats a call the step already refused is replaced by the most likely one that does not
(``pipeline.agent.alternatives``); with ``settings.copy_values`` (the default) a typed text or a
selected option that copies nothing of the conversation is decoded again as the most likely copy
and its letter case set as the task asks or as the conversation writes it
(``pipeline.agent.copied_values``); with ``settings.distinct_values`` (the default) a typed text
that another field of the form already holds is decoded again as another copy
(``pipeline.agent.repeated_values``).
With ``settings.backend`` "llama.cpp" a GGUF export of the model decodes instead
(``pipeline.model.llamacpp_engine``: the same interface, drafts and choosers).
``next_turn`` calls made at the same time (episodes or offline steps run concurrently) are
decoded together by the policy's ``Engine``
(``pipeline.model.engine``: continuous batching in its own thread, so browsers keep running
while the model generates; a call joins the running batch of up to ``batch_size`` answers
between two decode steps). ``generate(messages)`` is the same for callers with a conversation
of their own, such as the server's chat endpoint.
The policy keeps a ``PrefixCache`` (``settings.prefix_cache`` entries): a call prefills only what
follows the longest prefix an earlier call computed, keyed by token ids, so concurrent episodes
share the system prompt and nothing else. An answer decoded alone verifies
``settings.lookup_tokens`` prompt-lookup draft ids per forward (``pipeline.model.greedy``: the
same answers in fewer forwards). Under bf16 the policy stores its model's linear weights in bf16
once (``bf16_linear_weights``: what autocast computes, without its per-token casts).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import torch

from pipeline.agent.alternatives import fork_prefixes, refused_calls
from pipeline.agent.copied_values import (
    asked_case,
    cased,
    close_copy,
    copy_source,
    uncopied_value,
    value_prefix,
)
from pipeline.agent.policy import Situation, Turn, calls_before, turn_from_text
from pipeline.agent.prompts import is_agent_prompt, mode_of, untuned_system_prompt
from pipeline.agent.repeated_values import repeated_value, values_source, without_value
from pipeline.errors import PagescoutError
from pipeline.model.copy_span import CopySpan, is_span
from pipeline.model.engine import Engine
from pipeline.model.generate import (
    Generation,
    bf16_linear_weights,
    bf16_supported,
    generation_of,
    stop_ids,
    thread_count,
)
from pipeline.model.greedy import DecodeStats
from pipeline.model.lookup import LOOKUP_TOKENS
from pipeline.model.prefix_cache import PrefixCache
from pipeline.model.render import render_prompt
from pipeline.tools import ToolCall

Kind = Literal["trained", "untuned"]


@dataclass(frozen=True, slots=True)
class GenerationSettings:
    max_length: int = 1536  # prompt + answer tokens; prompts are cut as in training
    max_new_tokens: int = 96
    batch_size: int = 8  # answers decoded together at most
    bf16: bool | None = None  # None: where the machine has native bf16
    # torch CPU threads for generation, at most OMP_NUM_THREADS when that is set (processes
    # sharing a machine, as the test suite's workers do); None keeps torch's default (all cores,
    # or OMP_NUM_THREADS). Beside live Chromium workers on a small machine, 1 is several times
    # faster and steadier: OpenMP threads that wait on each other stall whenever the browser
    # takes a core.
    threads: int | None = None
    # sequences whose keys and values are kept for the next calls (their common prefix is not
    # prefilled again: the step's conversation so far, the system prompt); 0 turns it off
    prefix_cache: int = 16
    # prompt-lookup draft ids a lone answer verifies per decode forward (the answer is the same;
    # it copies spans of its prompt, so some forwards give several of its tokens); 0: off
    lookup_tokens: int = LOOKUP_TOKENS
    # prompts prefilled in one forward at most when several arrive together. 1: each alone, so
    # an answer never depends on which requests came with it (in bf16 a batched prefill rounds
    # differently from a lone one); a server under load gains 1.5-2.3x prefill throughput with 4-16
    prefill_batch: int = 1
    # answers forked where the model was least sure, tried when the greedy one repeats a call
    # the step already refused (``pipeline.agent.alternatives``); 0 (the default): the greedy
    # answer only. On BrowserGym's first 250 episodes 4 forks finished 105 of 246 against 104
    # and took 21% longer an episode (benchmarks/NOTES.md): off until a model gains from it
    alternatives: int = 0
    # a ``type`` text or ``select`` option that is no whole-word span of the conversation is
    # decoded again as the most likely copy (``pipeline.agent.copied_values``)
    copy_values: bool = True
    # a ``type`` text that another text field of the form already holds (not one confirming the
    # other) is decoded again as a copy without that value (``pipeline.agent.repeated_values``)
    distinct_values: bool = True
    # what decodes: "torch" (the model's own forward, fp32 or bf16) or "llama.cpp" (a GGUF
    # export of the model, ``pipeline.model.llamacpp_engine``; needs the llamacpp extra; bf16
    # and prefill_batch do not apply)
    backend: Literal["torch", "llama.cpp"] = "torch"
    # the llama.cpp backend's weights: "f16" (logits within ~0.03 of torch's fp32), "q8_0" (int8
    # blocks: faster decoding, logits within ~0.7) or "f32" (within ~0.01, the slowest)
    gguf_weights: Literal["f16", "q8_0", "f32"] = "f16"


class ModelPolicy:
    def __init__(self, model: Any, tokenizer: Any, kind: Kind, name: str,
                 settings: GenerationSettings = GenerationSettings()) -> None:
        self.model, self.tokenizer, self.kind, self.name = model, tokenizer, kind, name
        self.settings = settings
        torch_decodes = settings.backend == "torch"
        self.bf16 = torch_decodes and (bf16_supported() if settings.bf16 is None
                                       else settings.bf16)
        if self.bf16:  # the same bf16 autocast results, without casting weights every token
            bf16_linear_weights(model)
        elif torch_decodes and _bf16_stored(model):
            raise PagescoutError(
                f"{name}: the model's linear weights are stored in bf16 (a bf16 policy on the "
                "same model stored them so) but this policy decodes in fp32 (bf16=False); load "
                "the model again for it")
        if settings.threads is not None:
            torch.set_num_threads(thread_count(settings.threads))
        self.cache = PrefixCache(settings.prefix_cache) \
            if settings.prefix_cache > 0 and torch_decodes else None
        self._stats = {"prompts": 0, "prompt_tokens": 0, "generated_tokens": 0}
        self._work = DecodeStats()
        self.engine = self._engine(model, tokenizer, settings)

    def _engine(self, model: Any, tokenizer: Any, settings: GenerationSettings) -> Any:
        """The decoding engine of ``settings.backend`` (both take ``submit(ids, limit,
        choose)``)."""
        if settings.backend == "llama.cpp":
            from pipeline.model.llamacpp_engine import LlamaCppEngine

            return LlamaCppEngine(model, tokenizer, stops=stop_ids(tokenizer),
                                  batch_size=settings.batch_size,
                                  cache_entries=settings.prefix_cache, stats=self._work,
                                  threads=thread_count(settings.threads or os.cpu_count() or 1),
                                  weights=settings.gguf_weights,
                                  lookup=settings.lookup_tokens)
        return Engine(model, stops=stop_ids(tokenizer), batch_size=settings.batch_size,
                      lookup=settings.lookup_tokens, cache=self.cache, stats=self._work,
                      bf16=self.bf16, prefill_batch=settings.prefill_batch)

    async def next_turn(self, situation: Situation) -> Turn:
        """The greedy answer; when it repeats a call the step already refused, the first of
        ``settings.alternatives`` answers forked where the model was least sure that writes
        another valid call (``pipeline.agent.alternatives``; ``meta["fork"]``: which one); then
        its value repaired as a copy (``_copied``, ``_distinct``) and cased (``cased``)."""
        started = time.perf_counter()
        messages = self.prompt_messages(situation.messages)
        generation = await self.generate(messages)
        ids: list[int] = []  # the rendered prompt, once a fork or a copy needs it
        position = calls_before(situation.messages)
        text = generation.text  # the answer the turn is read from (a fork's, once taken)
        turn = turn_from_text(text, position)
        prompt_tokens, completion_tokens = generation.prompt_tokens, generation.completion_tokens
        refused = refused_calls(situation.messages) if self.settings.alternatives else []
        if turn.call in refused:
            ids = self.prompt_ids(messages)
            for number, prefix in enumerate(fork_prefixes(generation,
                                                          self.settings.alternatives), 1):
                limit = self.settings.max_new_tokens - len(prefix)
                if limit < 1:
                    continue
                forked = await self.generate_ids(ids + prefix, limit)
                prompt_tokens += forked.prompt_tokens
                completion_tokens += forked.completion_tokens
                forked_text = self.tokenizer.decode([*prefix, *forked.ids],
                                                    skip_special_tokens=False)
                candidate = turn_from_text(forked_text, position)
                if isinstance(candidate.call, ToolCall) and candidate.call not in refused:
                    turn, text = candidate, forked_text
                    turn.meta["fork"] = number
                    break
        if self.settings.copy_values or self.settings.distinct_values:
            source = copy_source(messages)
            for repair in (self._copied, self._distinct):
                repaired = await repair(turn, text, source, messages, position, ids, situation)
                if repaired is not None:
                    prompt_tokens += repaired.prompt_tokens
                    completion_tokens += repaired.completion_tokens
                    repaired.meta = {**turn.meta, **repaired.meta}
                    turn = repaired
            if self.settings.copy_values:
                turn = cased(turn, source, asked_case(situation.task), position)
        turn.prompt_tokens, turn.completion_tokens = prompt_tokens, completion_tokens
        turn.seconds = time.perf_counter() - started
        return turn

    async def _copied(self, turn: Turn, text: str, source: str, messages: list[dict[str, Any]],
                      position: int, ids: list[int], situation: Situation) -> Turn | None:
        """The turn (read from answer ``text`` to ``messages``, whose rendered ``ids`` a fork
        already made, else []) with its value that copies nothing of the messages' ``source``
        decoded again as a copy (``meta["copied"]``: the value it replaces); None when its
        values are copies or numbers, or no copy close to the value comes out, or
        ``settings.copy_values`` is off."""
        uncopied = uncopied_value(turn, source) if self.settings.copy_values else None
        if uncopied is None:
            return None
        copied = await self._decoded_as_copy(text, uncopied[0], uncopied[1], source, messages,
                                             position, ids)
        value = _value_of(copied, uncopied[0], uncopied[1])
        if value is None or not is_span(value, source) or not close_copy(uncopied[2], value):
            return None
        copied.meta["copied"] = uncopied[2]
        return copied

    async def _distinct(self, turn: Turn, text: str, source: str,
                        messages: list[dict[str, Any]], position: int, ids: list[int],
                        situation: Situation) -> Turn | None:
        """The turn with a typed value another field of the form already holds
        (``repeated_value``) decoded again as a copy of the task and the tools' results without
        that value (``values_source``; ``meta["repeated"]``: the value it replaces); None when
        no value repeats, the copy comes out empty or repeats a held value itself, or
        ``settings.distinct_values`` is off."""
        repeated = repeated_value(turn, situation.page, situation.task) \
            if self.settings.distinct_values else None
        if repeated is None:
            return None
        rest = without_value(values_source(situation.task, messages), repeated[0])
        distinct = await self._decoded_as_copy(text, "type", "text", rest, messages, position,
                                               ids)
        value = _value_of(distinct, "type", "text")
        if value is None or not value.strip() or not is_span(value, rest) \
                or repeated_value(distinct, situation.page, situation.task) is not None:
            return None
        distinct.meta["repeated"] = repeated[0]
        return distinct

    async def _decoded_as_copy(self, text: str, action: str, argument: str, source: str,
                               messages: list[dict[str, Any]], position: int,
                               ids: list[int]) -> Turn | None:
        """The answer ``text`` decoded again from the opening quote of ``action``'s
        ``argument``, each id keeping the value a copy of ``source`` (``CopySpan``), with its
        tokens; None when the answer wrote the value in no form a prefix can be cut from."""
        prefix = value_prefix(text, action, argument)
        if prefix is None:
            return None
        ids = (ids or self.prompt_ids(messages)) + self.tokenizer.encode(
            prefix, add_special_tokens=False)
        answer = await asyncio.wrap_future(self.engine.submit(
            ids, self.settings.max_new_tokens, CopySpan(self.tokenizer, source)))
        generation = generation_of(answer, len(ids), self.tokenizer)
        self._count(generation)
        decoded = turn_from_text(prefix + generation.text, position)
        decoded.prompt_tokens, decoded.completion_tokens = \
            generation.prompt_tokens, generation.completion_tokens
        return decoded

    def prompt_messages(self, messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The conversation as this model reads it (the untuned one gets the long system prompt
        with the tool list and examples in place of an agent system prompt; a caller's own
        system prompt, such as a judge's, is left as it is)."""
        out = [dict(m) for m in messages]
        if self.kind == "untuned" and out and out[0].get("role") == "system" \
                and is_agent_prompt(out[0].get("content") or ""):
            out[0]["content"] = untuned_system_prompt(mode_of(out[0]["content"]))
        return out

    def _count(self, generation: Generation) -> None:
        self._stats["prompts"] += 1
        self._stats["prompt_tokens"] += generation.prompt_tokens
        self._stats["generated_tokens"] += generation.completion_tokens

    def new_token_limit(self, asked: int | None) -> int:
        """The answer length for a caller's ``asked`` limit: it may lower the settings', never
        raise it."""
        return min(asked or self.settings.max_new_tokens, self.settings.max_new_tokens)

    def stats(self) -> dict[str, Any]:
        """Calls, tokens and seconds so far: ``seconds`` is the time the model spent in
        prefill and decode forwards, ``tokens_per_s`` generated tokens over those seconds,
        ``batches`` the decode forwards and ``mean_batch`` the answers each one decoded on
        average; ``prefill_tokens_per_s`` is prompt tokens actually prefilled (not
        taken from the prefix cache) per prefill second, ``prefill_forwards`` the forwards
        that prefilled them (a chunk of one prompt, or of several prefilled together),
        ``decode_tokens_per_s`` answer tokens per decode second, ``cache_hit_share`` the share
        of prompt tokens the cache held, ``lookup_acceptance`` the share of prompt-lookup draft
        ids the model confirmed."""
        s: dict[str, Any] = dict(self._stats)
        w = self._work
        seconds = w.prefill_seconds + w.decode_seconds
        s["tokens_per_s"] = _rate(s["generated_tokens"], seconds)
        s["seconds"] = round(seconds, 3)
        s["batches"] = w.decode_steps
        s["mean_batch"] = round(w.decode_rows / w.decode_steps, 2) if w.decode_steps else 0.0
        s["cached_tokens"] = w.cached_tokens
        s["cache_hit_share"] = round(w.cached_tokens / w.prompt_tokens, 4) if w.prompt_tokens \
            else 0.0
        s["prefill_seconds"] = round(w.prefill_seconds, 3)
        s["prefill_tokens_per_s"] = _rate(w.prompt_tokens - w.cached_tokens, w.prefill_seconds)
        s["prefill_forwards"] = w.prefill_forwards
        s["decode_seconds"] = round(w.decode_seconds, 3)
        s["decode_steps"] = w.decode_steps
        s["decode_rows"] = w.decode_rows
        s["decode_tokens_per_s"] = _rate(w.decode_tokens, w.decode_seconds)
        s["lookup_acceptance"] = round(w.accepted_tokens / w.drafted_tokens, 4) \
            if w.drafted_tokens else 0.0
        s["bf16"] = self.bf16
        s["backend"] = self.settings.backend
        return s

    async def generate(self, messages: list[dict[str, Any]],
                       max_new_tokens: int | None = None) -> Generation:
        """The next turn of ``messages`` (as ``prompt_messages`` gives them), decoded beside the
        calls made at the same time (the agent loop, the server's chat requests);
        ``max_new_tokens`` may lower the settings' limit, never raise it."""
        return await self.generate_ids(self.prompt_ids(messages), max_new_tokens)

    def prompt_ids(self, messages: list[dict[str, Any]]) -> list[int]:
        """The rendered prompt of ``messages``, cut as in training to leave room for
        ``settings.max_new_tokens``; ``RenderError`` when it cannot be rendered."""
        s = self.settings
        return render_prompt(messages, self.tokenizer, max_length=s.max_length - s.max_new_tokens)

    async def generate_ids(self, ids: list[int], max_new_tokens: int | None = None
                           ) -> Generation:
        """``generate`` from a prompt ``prompt_ids`` rendered."""
        answer = await asyncio.wrap_future(
            self.engine.submit(ids, self.new_token_limit(max_new_tokens)))
        generation = generation_of(answer, len(ids), self.tokenizer)
        self._count(generation)
        return generation


def _bf16_stored(model: Any) -> bool:
    """Whether ``bf16_linear_weights`` stored the model's linear weights in bf16 while its
    embedding stays fp32 (fp32 activations would then meet bf16 weights outside autocast)."""
    embedding = model.get_input_embeddings() if hasattr(model, "get_input_embeddings") else None
    if embedding is None or embedding.weight.dtype != torch.float32:
        return False
    return any(isinstance(m, torch.nn.Linear) and m.weight.dtype == torch.bfloat16
               for m in model.modules())


def _value_of(turn: Turn | None, action: str, argument: str) -> str | None:
    """The ``argument`` of the turn's call when it is an ``action`` call; None otherwise."""
    if turn is None or not isinstance(turn.call, ToolCall) or turn.call.name != action:
        return None
    value = turn.call.arguments.get(argument)
    return value if isinstance(value, str) else None


def _rate(count: float, seconds: float) -> float:
    return round(count / seconds, 2) if seconds else 0.0


def load_model_policy(spec: str | Path, settings: GenerationSettings = GenerationSettings(),
                      dtype: str = "float32") -> ModelPolicy:
    """A policy from a training run folder (its ``adapter/``), an adapter folder or
    ``checkpoint-N``, a merged folder holding the functional tokens, or a base model spec
    (``smollm2``, a folder, a .gguf, a hub id) for the untuned baseline."""
    from pipeline.model.trained import load_model

    model, tokenizer, folder = load_model(spec, dtype)
    if folder is not None:
        return ModelPolicy(model, tokenizer, "trained", f"checkpoint:{folder}", settings)
    return ModelPolicy(model, tokenizer, "untuned", f"base:{spec}", settings)
