"""An append-only JSON-lines journal of finished units (episodes or steps), safe to kill.

    journal = Journal(out / "episodes.jsonl")
    done = journal.keys()                  # keys of every complete line
    journal.append({"key": "...", ...})    # one line, flushed and fsynced

A kill can leave a torn last line; ``keys``/``rows`` skip it and the next ``append`` first cuts
the file back to its last complete line, so a resumed run neither repeats a finished unit nor
loses one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._checked = False

    def rows(self) -> Iterator[dict[str, Any]]:
        if not self.path.exists():
            return
        with self.path.open("rb") as handle:
            for line in handle:
                if not line.endswith(b"\n"):
                    return  # a torn last line: the unit did not finish
                try:
                    yield json.loads(line)
                except ValueError:
                    continue

    def keys(self) -> set[str]:
        return {row["key"] for row in self.rows() if "key" in row}

    def append(self, row: dict[str, Any]) -> None:
        if not self._checked:
            self._cut_torn_tail()
            self._checked = True
        line = json.dumps(row, ensure_ascii=False, default=str) + "\n"
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())

    def _cut_torn_tail(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(end)
