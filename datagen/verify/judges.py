"""The semantic stage's judges: each answers yes/no for a batch of judge prompts.

    judge = make_judge(config.judge)             # None when the judge is off
    answers = judge.judge([prompt, ...])         # [JudgeAnswer(status, reason, p_yes, tokens)]

``OpenAIJudge`` asks any OpenAI-compatible endpoint (through ``pipeline.agent.openai_client``, with its
retries and bounded concurrency) and parses a yes/no out of the reply; a reply that is neither, or
a request that fails for good, is a ``fail`` with reason ``judge_unparsable`` / ``judge_error``.
``LocalJudge`` scores a local Hugging Face causal LM: the prompt is rendered with the model's chat
template (generation prompt added) and p(yes) is the next-token probability mass of the "yes"
spellings (``yes``, `` yes``, ``Yes``, `` Yes``) over that of yes + no; it passes when
p(yes) >= threshold. Batched (left padding, last-position logits only), under ``torch.no_grad``,
deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from datagen.records import Status
from datagen.verify.config import JudgeConfig
from pipeline.agent.openai_client import ClientConfig, LLMError, OpenAIClient

JUDGE_SYSTEM = "You review one step of a web agent's work. Answer with one word: yes or no."
YES_SPELLINGS = ("yes", " yes", "Yes", " Yes", "YES")
NO_SPELLINGS = ("no", " no", "No", " No", "NO")
_THINK = re.compile(r"<think>.*?(</think>|$)", re.DOTALL | re.IGNORECASE)
_WORD = re.compile(r"[a-z]+")


@dataclass(slots=True)
class JudgeAnswer:
    status: Status  # "pass" or "fail"
    reason: str
    p_yes: float | None = None  # the local judge's probability of yes
    tokens: int = 0  # tokens the request used (openai judge)


class Judge(Protocol):
    name: str

    def judge(self, prompts: Sequence[str]) -> list[JudgeAnswer]: ...


def judge_messages(prompt: str) -> list[dict[str, str]]:
    """The chat messages both judges send."""
    return [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": prompt}]


def make_judge(config: JudgeConfig) -> Judge | None:
    """The judge ``config`` asks for (loads the local model); None when ``kind`` is off."""
    if config.kind == "openai":
        return OpenAIJudge(config.openai or ClientConfig())
    if config.kind == "local":
        return LocalJudge.load(config)
    return None


def parse_yes_no(text: str) -> bool | None:
    """True for yes, False for no, None when the reply says neither (or both without leading
    with one). Reasoning in ``<think>`` blocks is ignored."""
    words = _WORD.findall(_THINK.sub(" ", text).lower())
    if not words:
        return None
    if words[0] in ("yes", "no"):
        return words[0] == "yes"
    said = {w for w in words if w in ("yes", "no")}
    return said.pop() == "yes" if len(said) == 1 else None


class OpenAIJudge:
    """A judge behind an OpenAI-compatible chat endpoint."""

    def __init__(self, config: ClientConfig, client: OpenAIClient | None = None) -> None:
        self.client = client or OpenAIClient(config)
        self.name = f"openai:{self.client.config.model}"

    def judge(self, prompts: Sequence[str]) -> list[JudgeAnswer]:
        return self.client.map(self._one, prompts)

    def _one(self, prompt: str) -> JudgeAnswer:
        try:
            result = self.client.chat(judge_messages(prompt))
        except LLMError as exc:
            return JudgeAnswer("fail", f"judge_error: {exc}")
        reply = str(result.message.get("content") or "")
        said = parse_yes_no(reply)
        tokens = result.usage.total_tokens
        shown = " ".join(reply.split())[:80]
        if said is None:
            return JudgeAnswer("fail", f"judge_unparsable: the judge answered {shown!r}, not yes "
                               "or no", tokens=tokens)
        if said:
            return JudgeAnswer("pass", "judge_yes", tokens=tokens)
        return JudgeAnswer("fail", f"judge_no: {shown}", tokens=tokens)


class LocalJudge:
    """A local causal LM scored by the likelihood of yes vs no as its next token."""

    def __init__(self, model: Any, tokenizer: Any, name: str, threshold: float = 0.5,
                 batch_size: int = 8) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.name = name
        self.threshold = threshold
        self.batch_size = batch_size
        yes = _first_token_ids(tokenizer, YES_SPELLINGS)
        no = _first_token_ids(tokenizer, NO_SPELLINGS)
        self.yes_ids, self.no_ids = sorted(yes - no), sorted(no - yes)  # a shared " " says neither
        if not self.yes_ids or not self.no_ids:
            raise ValueError(f"judge model {name}: its tokenizer has no distinct first tokens for "
                             "yes and no; use another model")

    @classmethod
    def load(cls, config: JudgeConfig) -> LocalJudge:
        from pipeline.model.hf import load_causal_lm

        model, tokenizer = load_causal_lm(config.model, dtype=config.dtype)
        return cls(model, tokenizer, f"local:{config.model or 'smollm2'}", config.threshold,
                   config.batch_size)

    def judge(self, prompts: Sequence[str]) -> list[JudgeAnswer]:
        answers = []
        for p_yes in self.yes_probabilities(prompts):
            status: Status = "pass" if p_yes >= self.threshold else "fail"
            code = "judge_yes" if status == "pass" else "judge_no"
            answers.append(JudgeAnswer(status, f"{code}: p(yes)={p_yes:.3f} "
                                       f"(threshold {self.threshold})", p_yes))
        return answers

    def yes_probabilities(self, prompts: Sequence[str]) -> list[float]:
        """p(yes) / (p(yes) + p(no)) of the next token after each rendered prompt."""
        texts = [self.tokenizer.apply_chat_template(judge_messages(p), tokenize=False,
                                                    add_generation_prompt=True) for p in prompts]
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths batch
        out = [0.0] * len(texts)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start:start + self.batch_size]
            for index, p_yes in zip(chunk, self._score([texts[i] for i in chunk])):
                out[index] = p_yes
        return out

    def _score(self, texts: list[str]) -> list[float]:
        """Left-padded batch, positions counted from each prompt's first real token, logits
        of the last position only."""
        import torch

        batch = self.tokenizer(texts, add_special_tokens=False, padding=True,
                               padding_side="left", return_tensors="pt")
        mask = batch["attention_mask"]
        positions = (mask.cumsum(dim=1) - 1).clamp(min=0)
        with torch.no_grad():
            logits = self.model(input_ids=batch["input_ids"], attention_mask=mask,
                                position_ids=positions, logits_to_keep=1).logits
        final = logits[:, -1].float().log_softmax(dim=-1)
        yes = final[:, self.yes_ids].logsumexp(dim=-1)
        no = final[:, self.no_ids].logsumexp(dim=-1)
        return torch.sigmoid(yes - no).tolist()


def _first_token_ids(tokenizer: Any, spellings: Sequence[str]) -> set[int]:
    ids = set()
    for word in spellings:
        encoded = tokenizer.encode(word, add_special_tokens=False)
        if encoded:
            ids.add(encoded[0])
    return ids
