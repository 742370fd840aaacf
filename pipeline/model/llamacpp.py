"""A GGUF model in llama.cpp (through llama-cpp-python's C bindings), as the decoding engine
uses it: sequences of keys and values in one cache, a forward over tokens of several
sequences at once, the logits of chosen positions.

    model = LlamaCppModel("model-f16.gguf", context=16384, sequences=24, threads=2)
    logits = model.forward([(0, prompt_ids, 0)])[0][-1]   # sequence 0 from position 0
    model.copy(0, 5, 300)                                   # sequence 5 shares 0's first 300
    rows = model.forward([(0, [next_id, *draft], len(prompt_ids)), (5, [other_id], 300)],
                         last=[1 + len(draft), 1])          # logits after each draft id too
    model.remove(5)                                         # forget sequence 5's cells

The cache is unified: a sequence copied from another shares its cells (``copy`` marks them,
no keys or values move), so a prompt whose prefix an earlier one computed prefills only the
rest. ``forward`` splits its tokens into llama.cpp batches of at most ``batch`` positions and
returns, per entry, the fp32 logits of its last positions (a copy: llama.cpp reuses its
buffer).
A forward the cache has no room for raises ``CacheFull`` having decoded nothing more of that
batch; the caller frees sequences and tries again. llama.cpp's log lines are silenced.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pipeline.errors import PagescoutError

INSTALL_HINT = "pip install 'pagescout[llamacpp]' (builds llama-cpp-python, ~4 minutes on 2 cores)"

Entry = tuple[int, Sequence[int], int]  # sequence id, its tokens, the position of the first


class LlamaCppError(PagescoutError):
    """llama.cpp is missing, or refused a model file or a forward; the message says which."""


class CacheFull(LlamaCppError):
    """The keys-and-values cache has no room for a forward's tokens."""


def _bindings():
    try:
        import llama_cpp
    except ImportError as exc:
        raise LlamaCppError(f"the llama.cpp backend needs llama-cpp-python: {INSTALL_HINT}") \
            from exc
    return llama_cpp


@ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)
def _quiet(level: int, text: bytes, data: int) -> None:  # llama.cpp's log callback
    return None


class LlamaCppModel:
    """One llama.cpp model and context (see module doc)."""

    def __init__(self, path: str | Path, *, context: int, sequences: int, threads: int,
                 batch: int = 512) -> None:
        lib = self.lib = _bindings()
        lib.llama_log_set(_quiet, ctypes.c_void_p())
        lib.llama_backend_init()
        params = lib.llama_model_default_params()
        self.model = lib.llama_model_load_from_file(str(path).encode(), params)
        if not self.model:
            raise LlamaCppError(f"{path}: llama.cpp could not load this GGUF file")
        settings = lib.llama_context_default_params()
        settings.n_ctx, settings.n_batch, settings.n_ubatch = context, batch, batch
        settings.n_seq_max, settings.kv_unified = sequences, True
        settings.n_threads = settings.n_threads_batch = threads
        self.ctx = lib.llama_init_from_model(self.model, settings)
        if not self.ctx:
            lib.llama_model_free(self.model)
            raise LlamaCppError(f"{path}: llama.cpp could not make a context of {context} "
                                f"positions and {sequences} sequences")
        self.memory = lib.llama_get_memory(self.ctx)
        self.vocab = lib.llama_vocab_n_tokens(lib.llama_model_get_vocab(self.model))
        self.batch_size, self.sequences, self.context = batch, sequences, context
        self._batch = lib.llama_batch_init(batch, 0, 1)

    def forward(self, entries: Sequence[Entry], last: Sequence[int] | None = None
                ) -> list[np.ndarray]:
        """Decode every entry's tokens (sequence, ids, first position) and return, per entry,
        the logits after each of its last ``last[e]`` ids (default 1), as an array of
        ``(last[e], vocabulary)``, in entry order."""
        lib, batch = self.lib, self._batch
        kept = list(last) if last is not None else [1] * len(entries)
        slots: list[tuple[int, int]] = [(e, i) for e, (_, ids, _) in enumerate(entries)
                                        for i in range(len(ids))]
        logits: list[list[np.ndarray]] = [[] for _ in entries]
        for start in range(0, len(slots), self.batch_size):
            part = slots[start:start + self.batch_size]
            batch.n_tokens = len(part)
            outputs = []
            for j, (e, i) in enumerate(part):
                sequence, ids, first = entries[e]
                batch.token[j], batch.pos[j] = ids[i], first + i
                batch.n_seq_id[j], batch.seq_id[j][0] = 1, sequence
                wanted = i >= len(ids) - kept[e]
                batch.logits[j] = wanted
                if wanted:
                    outputs.append((e, j))
            code = lib.llama_decode(self.ctx, batch)
            if code == 1:
                raise CacheFull(f"no room in the cache of {self.context} positions for "
                                f"{len(part)} more")
            if code != 0:
                raise LlamaCppError(f"llama_decode failed with code {code}")
            for e, j in outputs:
                row = lib.llama_get_logits_ith(self.ctx, j)
                logits[e].append(np.ctypeslib.as_array(row, shape=(self.vocab,)).copy())
        return [np.stack(rows) for rows in logits]

    def copy(self, source: int, target: int, length: int) -> None:
        """Sequence ``target`` becomes ``source``'s first ``length`` positions (shared)."""
        self.lib.llama_memory_seq_rm(self.memory, target, 0, -1)
        if length > 0:
            self.lib.llama_memory_seq_cp(self.memory, source, target, 0, length)

    def truncate(self, sequence: int, length: int) -> None:
        """Forget ``sequence``'s positions from ``length`` on."""
        self.lib.llama_memory_seq_rm(self.memory, sequence, length, -1)

    def remove(self, sequence: int) -> None:
        self.truncate(sequence, 0)

    def close(self) -> None:
        if getattr(self, "ctx", None):
            self.lib.llama_batch_free(self._batch)
            self.lib.llama_free(self.ctx)
            self.lib.llama_model_free(self.model)
            self.ctx = None

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # the bindings may be gone at interpreter exit
            self.close()
