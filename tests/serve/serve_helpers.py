"""Small builders the server tests share."""

from __future__ import annotations

import time

from pipeline.agent.model_policy import GenerationSettings, ModelPolicy
from pipeline.model.generate import Generation
from pipeline.serve.config import Limits, ServeConfig


def serve_config(limits: dict | None = None, **changes) -> ServeConfig:
    """Small limits (20 kB bodies, 64 tokens) for tests; ``limits`` overrides them."""
    small = {"max_body_bytes": 20_000, "max_tokens": 64} | (limits or {})
    return ServeConfig(limits=Limits(**small), **changes)


class ScriptedPolicy(ModelPolicy):
    """A ModelPolicy whose "model" answers with ``reply(conversation)``: the server's batching,
    rendering checks and codec run for real, in milliseconds. ``delay_s`` stands for the time a
    batch takes; ``batch_sizes`` records every batch."""

    def __init__(self, tokenizer, reply=lambda messages: CLICK, delay_s: float = 0.0,
                 batch_size: int = 8) -> None:
        super().__init__(None, tokenizer, "trained", "scripted",  # no weights: no bf16 copy
                         GenerationSettings(max_new_tokens=12, batch_size=batch_size, bf16=False))
        self.reply, self.delay_s, self.batch_sizes = reply, delay_s, []

    def generate_now(self, conversations, max_new_tokens=None):
        time.sleep(self.delay_s)
        self.batch_sizes.append(len(conversations))
        return [Generation(self.reply(c), 10, 5) for c in conversations]


CLICK = 'Clicking the "OK" button: [3].\n<bu_click>{"index": 3}<bu_end>'
