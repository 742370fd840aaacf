"""Policies by name, built once per evaluation and shared by every run that uses them.

    policies = PolicyFactory(cfg)
    policy = policies.get("checkpoint")      # loaded on first use, then the same object

``checkpoint`` is the trained model (``cfg.checkpoint``: a run folder, adapter or merged
folder), ``base`` the untuned model (``cfg.model``) prompted with the tool list and two worked
examples, ``openai`` any OpenAI-compatible endpoint (``cfg.openai``), ``oracle``, ``random`` and
``planner`` (the engine's plan from the task alone) the baselines of ``eval.baselines``.
"""

from __future__ import annotations

from typing import Any

from eval.baselines import OraclePolicy, PlannerPolicy, RandomPolicy
from eval.config import EvalConfig
from pipeline.agent.policy import Policy
from pipeline.errors import PagescoutError


class PolicyFactory:
    def __init__(self, cfg: EvalConfig) -> None:
        self.cfg = cfg
        self._built: dict[str, Policy] = {}

    def get(self, name: str) -> Policy:
        if name not in self._built:
            self._built[name] = self._build(name)
        return self._built[name]

    def register(self, name: str, policy: Policy) -> None:
        """Use ``policy`` for runs of ``name`` (a policy built elsewhere, e.g. in a test or a
        notebook: anything with ``name`` and ``async next_turn(situation)``)."""
        self._built[name] = policy

    def stats(self, name: str) -> dict[str, Any]:
        """Generation figures of a model policy (prompts, tokens, tokens/s), else {}."""
        policy = self._built.get(name)
        return policy.stats() if hasattr(policy, "stats") else {}

    def _build(self, name: str) -> Policy:
        cfg = self.cfg
        if name == "oracle":
            return OraclePolicy(cfg.oracle, cfg.seed)
        if name == "random":
            return RandomPolicy(cfg.seed)
        if name == "planner":
            return PlannerPolicy()
        if name == "openai":
            from pipeline.agent.openai_client import OpenAIClient
            from pipeline.agent.openai_policy import OpenAIPolicy

            return OpenAIPolicy(OpenAIClient(cfg.openai), seed=cfg.seed)
        from pipeline.agent.model_policy import GenerationSettings, load_model_policy

        g = cfg.generation
        settings = GenerationSettings(g.max_length, g.max_new_tokens, g.batch_size,
                                      bf16=g.bf16, threads=g.threads,
                                      prefix_cache=g.prefix_cache, lookup_tokens=g.lookup_tokens,
                                      alternatives=g.alternatives, copy_values=g.copy_values,
                                      distinct_values=g.distinct_values, backend=g.backend,
                                      gguf_weights=g.gguf_weights)
        if name == "checkpoint":
            from pipeline.model.trained import trained_folder

            if trained_folder(cfg.checkpoint) is None:
                raise PagescoutError(
                    f"checkpoint: {cfg.checkpoint} holds no trained model (no adapter/, "
                    "adapter_config.json or merged folder with functional tokens); train one "
                    "with python -m training, or pass checkpoint=PATH")
            return load_model_policy(cfg.checkpoint, settings, g.dtype)
        return load_model_policy(cfg.model, settings, g.dtype)
