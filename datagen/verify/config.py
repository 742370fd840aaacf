"""The verifier's config: one dataclass per concern, loadable with ``pipeline.config.load_config``
as the ``verify:`` block of a datagen YAML::

    verify:
      top_k: 10              # the target must come back within a query's top k
      grounded_values: true  # typed text must appear in what the model read
      judge:
        kind: local          # off | openai | local
        model: null          # local: HF folder, hub id or .gguf (null: SmolLM2-135M-Instruct)
        threshold: 0.5       # local: pass when p(yes) >= threshold
        openai: {base_url: http://127.0.0.1:8000/v1, model: qwen2.5-7b-instruct}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pipeline.agent.openai_client import ClientConfig

JudgeKind = Literal["off", "openai", "local"]


@dataclass(slots=True)
class JudgeConfig:
    kind: JudgeKind = "off"
    model: str | None = None  # local judge: model spec for ``pipeline.model.hf.load_causal_lm``
    dtype: str = "float32"  # local judge: weights dtype
    threshold: float = 0.5  # local judge: pass when p(yes) >= threshold
    batch_size: int = 8  # local judge: prompts per forward pass
    openai: ClientConfig | None = None  # openai judge: the endpoint
    result_lines: int = 4  # lines of each tool result shown to the judge
    result_chars: int = 160  # characters per shown line

    def validate(self) -> list[str]:
        problems = []
        if self.kind == "openai" and self.openai is None:
            problems.append("openai: the openai judge needs an endpoint, e.g. judge.openai.model="
                            "gpt-4o-mini judge.openai.base_url=http://127.0.0.1:8000/v1")
        if not 0.0 < self.threshold < 1.0:
            problems.append(f"threshold: {self.threshold} must be between 0 and 1 (exclusive)")
        for key in ("batch_size", "result_lines", "result_chars"):
            if getattr(self, key) < 1:
                problems.append(f"{key}: must be >= 1")
        return problems


@dataclass(slots=True)
class VerifyConfig:
    top_k: int = 10
    grounded_values: bool = True  # reject typed text the task and the screen never show
    judge: JudgeConfig = field(default_factory=JudgeConfig)

    def validate(self) -> list[str]:
        return [] if self.top_k >= 1 else [f"top_k: {self.top_k} must be >= 1"]
