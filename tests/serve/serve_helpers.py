"""Small builders the server tests share."""

from __future__ import annotations

import asyncio

from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
from pipeline.model.generate import Generation
from pipeline.serve.config import Limits, ServeConfig


def serve_config(limits: dict | None = None, **changes) -> ServeConfig:
    """Small limits (20 kB bodies, 64 tokens) for tests; ``limits`` overrides them."""
    small = {"max_body_bytes": 20_000, "max_tokens": 64} | (limits or {})
    return ServeConfig(limits=Limits(**small), **changes)


class ScriptedPolicy(ModelPolicy):
    """A ModelPolicy whose "model" answers with ``reply(conversation)`` (agent runs) or
    ``reply(rendered prompt text)`` (the chat endpoint, which renders first): the server's queue,
    rendering checks, timeouts and codec run for real, in milliseconds. ``delay_s`` stands for
    the time an answer takes (the engine's batching is tested with the real model)."""

    def __init__(self, tokenizer, reply=lambda messages: CLICK, delay_s: float = 0.0,
                 batch_size: int = 8) -> None:
        super().__init__(None, tokenizer, "trained", "scripted",  # no weights: no bf16 copy
                         GenerationSettings(max_new_tokens=12, batch_size=batch_size, bf16=False))
        self.reply, self.delay_s = reply, delay_s

    async def generate(self, messages, max_new_tokens=None):
        await asyncio.sleep(self.delay_s)
        return Generation(self.reply(messages), 10, 5)

    async def generate_ids(self, ids, max_new_tokens=None):
        return await self.generate(self.tokenizer.decode(ids), max_new_tokens)


CLICK = 'Clicking the "OK" button: [3].\n<bu_click>{"index": 3}<bu_end>'
