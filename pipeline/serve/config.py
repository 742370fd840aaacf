"""The server's config: one dataclass, loaded like every stage's (``pipeline.config``).

    python -m pipeline serve --config configs/serve/default.yaml checkpoint=runs/training/x
    cfg = load_config(ServeConfig, "configs/serve/default.yaml", ["model=smollm2", "port=8011"])

``checkpoint`` (a training run, adapter or merged folder) wins over ``model`` (a base model spec
served untuned). ``host`` other than loopback needs a bearer token in the environment variable
``token_env``; the limits bound what one request may ask for and how many wait at once.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from typing import Literal

from pipeline.agent.loop import StepLimits
from pipeline.agent.model_policy import GenerationSettings
from pipeline.agent.modes import MODES, Mode
from pipeline.live.browser import BrowserConfig

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


@dataclass(slots=True)
class Limits:
    max_body_bytes: int = 1_000_000  # a larger request body gets 413
    max_messages: int = 64
    max_tools: int = 16
    max_tokens: int = 512  # the largest ``max_tokens`` a request may ask for
    request_timeout_s: float = 120.0  # a chat request waiting longer gets 504
    max_queue: int = 64  # chat requests waiting for or in generation; beyond it 429

    def validate(self) -> list[str]:
        return [f"{key}: must be > 0" for key in ("max_body_bytes", "max_messages", "max_tools",
                                                   "max_tokens", "request_timeout_s",
                                                   "max_queue") if getattr(self, key) <= 0]


@dataclass(slots=True)
class SessionSettings:
    """Browser sessions and agent runs."""

    max_sessions: int = 4
    max_runs: int = 2  # agent runs at once
    idle_timeout_s: float = 300.0  # a session untouched this long is closed
    run_timeout_s: float = 600.0  # an agent run taking longer is stopped (504)
    allow_private: bool = False  # loopback / private / link-local addresses (tests, intranets)
    mode: Mode = "query_only"  # the observation mode of sessions and runs unless asked
    limits: StepLimits = field(default_factory=StepLimits)
    browser: BrowserConfig = field(default_factory=BrowserConfig)

    def validate(self) -> list[str]:
        problems = [f"{key}: must be > 0" for key in ("max_sessions", "max_runs",
                                                       "idle_timeout_s", "run_timeout_s")
                    if getattr(self, key) <= 0]
        if self.mode not in MODES:
            problems.append(f"mode: {self.mode!r} is not one of {', '.join(MODES)}")
        return problems


@dataclass(slots=True)
class ServeConfig:
    model: str = "smollm2"  # a base model spec, served untuned when no checkpoint is given
    checkpoint: str | None = None  # a training run, adapter or merged folder
    served_name: str = "pagescout"  # the id clients send as ``model``
    host: str = "127.0.0.1"
    port: int = 8000
    token_env: str = "PAGESCOUT_TOKEN"  # bearer token's environment variable
    dtype: Literal["float32", "bfloat16", "float16"] = "float32"
    log_level: str = "info"
    generation: GenerationSettings = field(default_factory=GenerationSettings)
    limits: Limits = field(default_factory=Limits)
    sessions: SessionSettings = field(default_factory=SessionSettings)

    def validate(self) -> list[str]:
        problems = []
        if not 0 < self.port < 65536:
            problems.append(f"port: {self.port} is not a TCP port (1..65535)")
        if not is_loopback(self.host) and not os.environ.get(self.token_env):
            problems.append(f"host: {self.host} is not loopback, so clients must send a bearer "
                            f"token: set the environment variable {self.token_env}, or bind "
                            "host=127.0.0.1")
        if self.generation.max_new_tokens > self.limits.max_tokens:
            problems.append("generation.max_new_tokens: larger than limits.max_tokens")
        return problems

    @property
    def spec(self) -> str:
        return self.checkpoint or self.model

    def token(self) -> str | None:
        """The bearer token clients must send (None: none needed on a loopback bind)."""
        return os.environ.get(self.token_env) or None


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
