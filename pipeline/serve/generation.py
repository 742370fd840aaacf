"""Generation behind the chat endpoint: a bounded queue in front of ModelPolicy's batching.

    generator = Generator(policy, limits, metrics)
    generation = await generator(messages)      # ApiError 429 when the queue is full

Requests are decoded by ``ModelPolicy.generate_ids``: its engine decodes up to ``batch_size``
answers together, and a request joins the running batch between two decode steps. A request's
``max_tokens`` may lower the answer's length below ``generation.max_new_tokens``, never raise
it. At most ``limits.max_queue`` requests wait for or are in generation; the next one gets 429
with ``Retry-After``. Each prompt is rendered before it is queued, so a conversation that cannot
be rendered (a bad tool call, longer than the context) gets its own 400 instead of failing the
batch it would have joined; a request waiting longer than ``request_timeout_s`` gets 504.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pipeline.model.generate import Generation
from pipeline.model.render import RenderError
from pipeline.serve.config import Limits
from pipeline.serve.errors import ApiError
from pipeline.serve.metrics import Metrics


class Generator:
    def __init__(self, policy: Any, limits: Limits, metrics: Metrics) -> None:
        self.policy, self.limits, self.metrics = policy, limits, metrics
        self.waiting = 0

    async def __call__(self, messages: list[dict[str, Any]],
                       max_tokens: int | None = None) -> Generation:
        if self.waiting >= self.limits.max_queue:
            self.metrics.rejected["queue_full"] += 1
            raise ApiError(429, f"the server is busy ({self.waiting} requests queued); retry "
                           "shortly", "queue_full", headers={"Retry-After": "1"})
        ids = self._render(self.policy.prompt_messages(messages))
        self.waiting += 1
        try:
            return await asyncio.wait_for(self.policy.generate_ids(ids, max_tokens),
                                          self.limits.request_timeout_s)
        except TimeoutError:
            self.metrics.rejected["timeout"] += 1
            raise ApiError(504, f"generation took longer than {self.limits.request_timeout_s} "
                           "s; retry, or ask when the server is less busy", "timeout") from None
        finally:
            self.waiting -= 1

    def _render(self, prompt: list[dict[str, Any]]) -> list[int]:
        try:
            return self.policy.prompt_ids(prompt)
        except RenderError as exc:
            raise ApiError(400, f"messages: {exc}", "invalid_messages", "messages") from None
