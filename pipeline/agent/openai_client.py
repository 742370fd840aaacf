"""A small client for any OpenAI-compatible chat endpoint: retries, bounded concurrency, usage.

Datagen's ``openai`` teacher and the verifier's LLM judge both talk to models through it::

    client = OpenAIClient(ClientConfig(base_url="http://127.0.0.1:8000/v1", model="qwen2.5-7b"))
    result = client.chat(messages, tools=openai_tools(), temperature=0.2)
    result.message      # the assistant message as a plain dict (tool_calls arguments are JSON text)
    result.usage        # Usage(prompt_tokens, completion_tokens, total_tokens) of this call
    client.totals()     # calls, failures, retries and the usage summed over the client's life
    client.map(fn, items)   # fn over items on a pool of ``concurrency`` threads, order kept

Retries: 408, 409, 429, 5xx, timeouts and connection errors are retried up to ``retries`` times
with exponential backoff and jitter (a 429's ``Retry-After`` is honoured, capped at
``max_backoff``); anything else (400, 401, 404 ...) fails at once. Every failure is an
``LLMError`` whose ``kind`` says what went wrong. At most ``concurrency`` requests are in flight
per client, however many threads call ``chat``. The key comes from ``api_key``, else the
environment variable ``api_key_env``; local servers that need no key get a placeholder.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlparse

import openai

from pipeline.errors import FormatError, PagescoutError

T = TypeVar("T")
R = TypeVar("R")
_RETRY_STATUS = frozenset({408, 409, 429})
_NO_KEY = "none"  # sent to servers that need no key (the openai client insists on one)
_OPENAI_HOSTS = ("api.openai.com",)


@dataclass(slots=True)
class ClientConfig:
    """Where the model is and how to call it (one block of a stage's YAML config)."""

    base_url: str = "http://127.0.0.1:8000/v1"
    model: str = ""
    api_key: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = 0.0
    max_tokens: int | None = 512
    timeout: float = 60.0  # seconds per request
    retries: int = 3  # extra attempts after the first
    backoff: float = 1.0  # seconds before the first retry; doubles each time
    max_backoff: float = 30.0
    concurrency: int = 4  # requests in flight at most
    params: dict[str, Any] = field(default_factory=dict)  # sent with every request (e.g. seed)

    def validate(self) -> list[str]:
        """Checks of the values given; an empty ``model`` is left to its user (a block that
        is not used may leave it empty), see ``missing``."""
        problems = []
        if urlparse(self.base_url).scheme not in ("http", "https"):
            problems.append(f"base_url: {self.base_url!r} is not an http(s) URL, e.g. "
                            "http://127.0.0.1:8000/v1")
        for key in ("timeout", "backoff", "max_backoff"):
            if getattr(self, key) <= 0:
                problems.append(f"{key}: must be > 0")
        if self.retries < 0:
            problems.append("retries: must be >= 0")
        if self.concurrency < 1:
            problems.append("concurrency: must be >= 1")
        return problems

    def missing(self) -> list[str]:
        """What must be set before the client can be used."""
        hint = "model: empty; name the served model, e.g. model=gpt-4o-mini"
        return [] if self.model else [hint]

    def resolve_key(self) -> str:
        """``api_key``, else ``$api_key_env``; a placeholder for servers that need none."""
        key = self.api_key or os.environ.get(self.api_key_env, "")
        if key:
            return key
        if urlparse(self.base_url).hostname in _OPENAI_HOSTS:
            raise FormatError(f"no API key for {self.base_url}: set api_key in the config or "
                              f"export {self.api_key_env}")
        return _NO_KEY


@dataclass(slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt_tokens + other.prompt_tokens,
                     self.completion_tokens + other.completion_tokens,
                     self.total_tokens + other.total_tokens)

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass(slots=True)
class ChatResult:
    message: dict[str, Any]  # {"role": "assistant", "content", "tool_calls"?}
    usage: Usage
    latency: float  # seconds, retries and waits included
    attempts: int = 1
    finish_reason: str | None = None
    model: str = ""


class LLMError(PagescoutError):
    """A chat request that failed for good. ``kind``: timeout, rate_limit, server, connection,
    bad_request (a 4xx that retrying cannot fix) or bad_response."""

    def __init__(self, kind: str, message: str, attempts: int = 1, status: int | None = None):
        super().__init__(message)
        self.kind = kind
        self.attempts = attempts
        self.status = status


class OpenAIClient:
    """Thread-safe; one instance per endpoint. ``sleep`` is replaceable for tests of timing."""

    def __init__(self, config: ClientConfig, sleep: Callable[[float], None] = time.sleep):
        problems = config.validate() + config.missing()
        if problems:
            raise FormatError("openai client config: " + "; ".join(problems))
        self.config = config
        self._client = openai.OpenAI(base_url=config.base_url, api_key=config.resolve_key(),
                                     timeout=config.timeout, max_retries=0)
        self._slots = threading.BoundedSemaphore(config.concurrency)
        self._lock = threading.Lock()
        self._sleep = sleep
        self._jitter = random.Random()
        self._totals = {"calls": 0, "failures": 0, "retries": 0}
        self._usage = Usage()

    def chat(self, messages: Sequence[Mapping[str, Any]], tools: list[dict] | None = None,
             **params: Any) -> ChatResult:
        """One chat completion; ``params`` override the config's (temperature, max_tokens ...)."""
        request = self._request(messages, tools, params)
        started = time.perf_counter()
        attempt = 0
        while True:
            attempt += 1
            try:
                with self._slots:
                    completion = self._client.chat.completions.create(**request)
                result = _result(completion, time.perf_counter() - started, attempt)
                self._count(result.usage, attempt - 1, failed=False)
                return result
            except (openai.APIError, LLMError) as exc:
                error = exc if isinstance(exc, LLMError) else _as_llm_error(exc, attempt)
                if not _retryable(error) or attempt > self.config.retries:
                    self._count(Usage(), attempt - 1, failed=True)
                    raise _final(error, attempt, self.config) from exc
                self._sleep(self._delay(attempt, exc))

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
        """``[fn(item) for item in items]`` on ``concurrency`` threads, results in input order."""
        with ThreadPoolExecutor(max_workers=self.config.concurrency) as pool:
            return list(pool.map(fn, items))

    def totals(self) -> dict[str, Any]:
        """Calls, failures, retries and summed token usage so far."""
        with self._lock:
            return {**self._totals, **self._usage.to_dict()}

    def _request(self, messages: Sequence[Mapping[str, Any]], tools: list[dict] | None,
                 params: dict[str, Any]) -> dict[str, Any]:
        config = self.config
        request: dict[str, Any] = {"model": config.model, "messages": list(messages)}
        defaults = {"temperature": config.temperature, "max_tokens": config.max_tokens}
        request |= {k: v for k, v in defaults.items() if v is not None}
        request |= config.params | params
        if tools:
            request["tools"] = tools
        return request

    def _delay(self, attempt: int, exc: Exception) -> float:
        """Exponential backoff with equal jitter; a server's Retry-After wins when it says more."""
        cap = self.config.max_backoff
        base = min(cap, self.config.backoff * 2 ** (attempt - 1))
        delay = base / 2 + self._jitter.uniform(0, base / 2)
        return max(delay, min(cap, _retry_after(exc)))

    def _count(self, usage: Usage, retries: int, failed: bool) -> None:
        with self._lock:
            self._totals["calls"] += 1
            self._totals["retries"] += retries
            self._totals["failures"] += int(failed)
            self._usage = self._usage + usage


def _result(completion: Any, latency: float, attempts: int) -> ChatResult:
    if not getattr(completion, "choices", None):
        raise LLMError("bad_response", f"the endpoint answered without choices: "
                       f"{str(completion)[:200]}", attempts)
    choice = completion.choices[0]
    message = choice.message.model_dump(exclude_none=True)
    message["role"] = "assistant"
    message.setdefault("content", None)
    raw = completion.usage
    usage = Usage()
    if raw is not None:
        prompt, done = raw.prompt_tokens or 0, raw.completion_tokens or 0
        usage = Usage(prompt, done, raw.total_tokens or prompt + done)
    return ChatResult(message, usage, latency, attempts, choice.finish_reason,
                      getattr(completion, "model", "") or "")


def _as_llm_error(exc: openai.APIError, attempt: int) -> LLMError:
    if isinstance(exc, openai.APITimeoutError):
        return LLMError("timeout", "the request timed out", attempt)
    if isinstance(exc, openai.APIConnectionError):
        return LLMError("connection", f"cannot connect: {exc}", attempt)
    status = getattr(exc, "status_code", None)
    if status == 429:
        return LLMError("rate_limit", f"rate limited (429): {exc.message}", attempt, status)
    if status is not None and status >= 500:
        return LLMError("server", f"server error ({status}): {exc.message}", attempt, status)
    if status in _RETRY_STATUS:
        return LLMError("server", f"retryable error ({status}): {exc.message}", attempt, status)
    if status is not None:
        return LLMError("bad_request", f"request rejected ({status}): {exc.message}", attempt,
                        status)
    return LLMError("bad_response", f"unusable response: {exc}", attempt)


def _retryable(error: LLMError) -> bool:
    return error.kind in ("timeout", "connection", "rate_limit", "server")


def _final(error: LLMError, attempts: int, config: ClientConfig) -> LLMError:
    """The error to raise, saying how often it was tried and what to change."""
    fixes = {
        "timeout": f"raise timeout (now {config.timeout}s) or check the server's load",
        "connection": f"check that a server listens at {config.base_url}",
        "rate_limit": "lower concurrency or raise retries/backoff",
        "server": "check the server's log",
        "bad_request": f"check model ({config.model!r}), the key and the request parameters",
        "bad_response": "check that the endpoint is OpenAI-compatible",
    }
    message = (f"{config.base_url} model {config.model!r}: {error} after {attempts} "
               f"attempt(s); {fixes[error.kind]}")
    return LLMError(error.kind, message, attempts, error.status)


def _retry_after(exc: Exception) -> float:
    """Seconds from a ``Retry-After`` header (0 when absent or unreadable)."""
    response = getattr(exc, "response", None)
    value = response.headers.get("retry-after") if response is not None else None
    try:
        return max(0.0, float(value)) if value else 0.0
    except ValueError:
        return 0.0
