"""Resumable, sharded JSONL output: one folder per split, fixed-size shards, a rejects file.

    out/
      data/train/shard-00000.jsonl      accepted trajectories (TRL conversational tool format)
      data/test_task/shard-00000.jsonl
      rejects.jsonl                     rejected trajectories and bad input records, with reasons
      manifest.json                     written by the build at the end

Records are written in the order the build produces them (a deterministic order), each line
flushed as soon as it is complete. A killed run leaves at most one partial line per file; on
restart ``DatasetWriter`` truncates it and reports which record keys are already written, so the
build skips exactly those and appends the rest: the finished output equals an uninterrupted run's,
with nothing lost or duplicated.

On disk a trajectory is ``dataset_record(trajectory)``: its fields, with the parts whose shape
varies from record to record made uniform so that Arrow infers one schema for every shard —
tool-call ``arguments`` and ``meta`` are JSON strings (the OpenAI wire format for arguments), and
every message has the same keys (``role``, ``content``, ``name``, ``tool_calls``; null where they
do not apply). ``trajectory_from_record`` reverses it. Read the splits with
``datasets.load_dataset("json", data_files=datagen.stats.data_files(out))``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Self, TextIO

from datagen.records import Trajectory

DATA_DIR = "data"
REJECTS_FILE = "rejects.jsonl"
SHARD_PATTERN = "shard-{:05d}.jsonl"


class DatasetWriter:
    """Append records to ``<root>/data/<split>/shard-*.jsonl`` and ``<root>/rejects.jsonl``."""

    def __init__(self, root: str | Path, shard_size: int = 1000) -> None:
        if shard_size < 1:
            raise ValueError(f"shard_size must be at least 1, got {shard_size}")
        self.root = Path(root)
        self.shard_size = shard_size
        self.done: set[str] = set()  # keys already written (accepted or rejected)
        self.counts: dict[str, int] = {}  # records per split (accepted)
        self.rejected = 0
        self._open: dict[str, tuple[TextIO, int, int]] = {}  # split -> (file, shard, lines)
        self._rejects: TextIO | None = None
        self._scan()

    # --- resume ----------------------------------------------------------------------------
    def _scan(self) -> None:
        data = self.root / DATA_DIR
        for split_dir in sorted(p for p in data.glob("*") if p.is_dir()):
            for shard in sorted(split_dir.glob("shard-*.jsonl")):
                keys = _read_keys(shard)
                self.done.update(keys)
                self.counts[split_dir.name] = self.counts.get(split_dir.name, 0) + len(keys)
        rejects = self.root / REJECTS_FILE
        if rejects.exists():
            keys = _read_keys(rejects)
            self.done.update(keys)
            self.rejected = len(keys)

    # --- writing ---------------------------------------------------------------------------
    def write(self, key: str, split: str, record: dict[str, Any]) -> None:
        """An accepted record; ``key`` must be unique across the output."""
        handle, shard, lines = self._shard(split)
        _append(handle, key, record)
        self._open[split] = (handle, shard, lines + 1)
        self.counts[split] = self.counts.get(split, 0) + 1
        self.done.add(key)

    def reject(self, key: str, record: dict[str, Any]) -> None:
        """A rejected record (a trajectory with its verdicts, or a bad input with its reason)."""
        if self._rejects is None:
            self.root.mkdir(parents=True, exist_ok=True)
            self._rejects = open(self.root / REJECTS_FILE, "a", encoding="utf-8")  # noqa: SIM115
        _append(self._rejects, key, record)
        self.rejected += 1
        self.done.add(key)

    def _shard(self, split: str) -> tuple[TextIO, int, int]:
        """The open shard of ``split`` with room left (the next one once it is full)."""
        if split in self._open and self._open[split][2] < self.shard_size:
            return self._open[split]
        if split in self._open:
            self._open[split][0].close()
            shard = self._open[split][1] + 1
        else:
            shard = self._last_shard(split)
        while True:
            path = self.root / DATA_DIR / split / SHARD_PATTERN.format(shard)
            lines = len(_read_keys(path)) if path.exists() else 0
            if lines < self.shard_size:
                break
            shard += 1
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open across writes
        self._open[split] = (handle, shard, lines)
        return self._open[split]

    def _last_shard(self, split: str) -> int:
        shards = sorted((self.root / DATA_DIR / split).glob("shard-*.jsonl"))
        return int(shards[-1].stem.split("-")[1]) if shards else 0

    def close(self) -> None:
        for handle, _, _ in self._open.values():
            handle.close()
        self._open.clear()
        if self._rejects is not None:
            self._rejects.close()
            self._rejects = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _append(handle: TextIO, key: str, record: dict[str, Any]) -> None:
    line = json.dumps({"key": key, **record}, ensure_ascii=False, separators=(",", ":"))
    handle.write(line + "\n")
    handle.flush()


def _read_keys(path: Path) -> list[str]:
    """Keys of the complete lines of a JSONL file; a trailing partial line (a killed write) is
    cut off the file so that appending continues on a clean line boundary."""
    keys: list[str] = []
    good = 0
    with open(path, "rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                break
            try:
                keys.append(json.loads(raw)["key"])
            except (json.JSONDecodeError, KeyError, TypeError):
                break
            good += len(raw)
    if good < path.stat().st_size:
        with open(path, "r+b") as fh:
            fh.truncate(good)
            os.fsync(fh.fileno())
    return keys


_MESSAGE_KEYS = ("role", "content", "name", "tool_calls")


def dataset_record(trajectory: Trajectory) -> dict[str, Any]:
    """The trajectory as a record with one schema for every shard (see the module docstring)."""
    record = trajectory.to_dict()
    record["messages"] = [_uniform_message(m) for m in trajectory.messages]
    record["meta"] = json.dumps(trajectory.meta, ensure_ascii=False, sort_keys=True)
    return record


def trajectory_from_record(record: dict[str, Any], origin: str = "<record>") -> Trajectory:
    data = {k: v for k, v in record.items() if k != "key"}
    if isinstance(data.get("meta"), str):
        data["meta"] = json.loads(data["meta"])
    data["messages"] = [_message_back(m) for m in data.get("messages", [])]
    return Trajectory.from_dict(data, origin=origin)


def _uniform_message(message: dict[str, Any]) -> dict[str, Any]:
    out = {key: message.get(key) for key in _MESSAGE_KEYS}
    if out["tool_calls"]:
        out["tool_calls"] = [_string_arguments(call) for call in out["tool_calls"]]
    return out


def _string_arguments(call: dict[str, Any]) -> dict[str, Any]:
    function = dict(call["function"])
    if not isinstance(function.get("arguments"), str):
        function["arguments"] = json.dumps(function.get("arguments", {}), ensure_ascii=False)
    return {"id": call.get("id"), "type": call.get("type", "function"), "function": function}


def _message_back(message: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in message.items() if v is not None}
    if out.get("tool_calls"):
        out["tool_calls"] = [
            {**call, "function": {**call["function"],
                                  "arguments": json.loads(call["function"]["arguments"])}}
            for call in out["tool_calls"]
        ]
    return out


def trl_features():
    """``datasets.Features`` for the ``messages`` and ``tools`` columns of a trajectory row."""
    from datasets import Features, Json, List, Value

    call = {"id": Value("string"), "type": Value("string"),
            "function": {"name": Value("string"), "arguments": Json()}}
    message = {"role": Value("string"), "content": Value("string"), "name": Value("string"),
               "tool_calls": List(call)}
    return Features({"messages": List(message), "tools": List(Json())})
