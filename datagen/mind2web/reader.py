"""Read Mind2Web task files -- a folder, a glob, a file or a list of them -- into Steps.

    rejects = Rejects()
    for step in iter_steps("mind2web/data/train", rejects=rejects, page_dir="out/pages"):
        ...
    rejects.write_jsonl("out/rejects.jsonl"); print(rejects.summary())

    for task in read_tasks(["data/test_task", "extra/*.json.gz"]): task.split, task.data

Inputs are resolved to ``.json``/``.json.gz`` files in a stable (natural) order; a folder is
searched recursively. The split of a file is the nearest enclosing folder named ``train``,
``test_task``, ``test_website`` or ``test_domain`` (as in ``data/<split>/...``); ``split=``
overrides it. Files are streamed (``stream.iter_json_elements``), so memory holds one task.

Bad records never stop the run: each is reported as a ``Reject`` (origin file, annotation_id,
action_uid, reason code, message) to the ``rejects`` callable -- a ``Rejects`` collector counts
them by reason and writes a JSONL file; without one they are logged as warnings. The reason codes
are ``steps.REASONS``. With ``page_dir`` each page is saved as ``.json.gz`` there
(``datagen.records.step_path``) and the Step carries ``page_path`` instead of the page.
"""

from __future__ import annotations

import glob
import json
import logging
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from datagen.mind2web.steps import REASONS, Problem, TaskRecord, check_task, make_step
from datagen.mind2web.stream import (
    DEFAULT_CHUNK,
    JsonStreamError,
    UnreadableFileError,
    iter_json_elements,
)
from datagen.records import Step, step_path
from pipeline.errors import FormatError

SPLITS = ("train", "test_task", "test_website", "test_domain")
TASK_SUFFIXES = (".json", ".json.gz")
# Files the stages write next to task files, skipped when a folder is read: the record stage's
# manifest (datagen.miniwob.manifest.MANIFEST_NAME), the build's, the chain's (scripts/chain.py).
BOOKKEEPING = frozenset({"record_manifest.json", "manifest.json", "chain_stage.json"})
Inputs = str | Path | Iterable[str | Path]
_GLOB_CHARS = re.compile(r"[*?\[]")
_DIGITS = re.compile(r"(\d+)")
_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Reject:
    """A record that gave no Step (``dropped``), or a defect a Step survived."""

    origin: str  # the task file
    reason: str  # a code from steps.REASONS
    message: str
    annotation_id: str = ""
    action_uid: str = ""
    offset: int | None = None  # byte offset of the task (or of the break) in the file
    dropped: bool = True

    def to_dict(self) -> dict:
        return asdict(self)


class Rejects:
    """Collects Rejects: counts by reason, keeps them, writes them as JSON Lines."""

    def __init__(self) -> None:
        self.records: list[Reject] = []
        self.counts: Counter[str] = Counter()

    def __call__(self, reject: Reject) -> None:
        self.records.append(reject)
        self.counts[reject.reason] += 1

    def __len__(self) -> int:
        return len(self.records)

    def write_jsonl(self, path: str | Path) -> Path:
        path = Path(path)
        with open(path, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in self.records)
        return path

    def summary(self) -> str:
        """One line per reason, most frequent first."""
        if not self.counts:
            return "no rejects"
        width = max(map(len, self.counts))
        return "\n".join(f"{reason:<{width}}  {count:>7}  {REASONS.get(reason, '')}"
                         for reason, count in self.counts.most_common())  # fmt: skip


ReportFn = Callable[[Reject], None]


def resolve_inputs(inputs: Inputs) -> list[Path]:
    """Task files named by ``inputs`` (folders, globs, files), deduplicated, in natural order."""
    items = [inputs] if isinstance(inputs, (str, Path)) else list(inputs)
    if not items:
        raise FormatError("no Mind2Web input given; pass a folder (data/train), a glob or files")
    seen: set[Path] = set()
    out: list[Path] = []
    for item in items:
        for path in _expand(item):
            key = path.resolve()
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out


def split_of(path: str | Path) -> str:
    """The split a task file belongs to by its folders (``data/test_task/x.json``), or ""."""
    for parent in Path(path).parents:
        if parent.name in SPLITS:
            return parent.name
    return ""


def read_tasks(
    inputs: Inputs,
    split: str | None = None,
    *,
    rejects: ReportFn | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> Iterator[TaskRecord]:
    """Every element of every task file as a TaskRecord (unchecked; ``steps.check_task``)."""
    report = rejects if rejects is not None else _log_reject
    for path in resolve_inputs(inputs):
        file_split = split if split is not None else split_of(path)
        count = 0
        try:
            for offset, element in iter_json_elements(path, chunk_size):
                yield TaskRecord(str(path), offset, count, file_split, element)
                count += 1
        except JsonStreamError as exc:
            unreadable = isinstance(exc, UnreadableFileError)
            reason = "unreadable_file" if unreadable else "malformed_json"
            report(
                Reject(str(path), reason, _lost(exc.problem, count, unreadable), offset=exc.offset)
            )
        except OSError as exc:
            report(Reject(str(path), "unreadable_file", f"cannot open the file: {exc}"))


def iter_steps(
    inputs: Inputs,
    *,
    split: str | None = None,
    rejects: ReportFn | None = None,
    page_dir: str | Path | None = None,
    source: str = "mind2web",
    chunk_size: int = DEFAULT_CHUNK,
) -> Iterator[Step]:
    """One Step per usable action of every task in ``inputs``; see the module docstring."""
    report = rejects if rejects is not None else _log_reject
    if page_dir is not None:
        Path(page_dir).mkdir(parents=True, exist_ok=True)
    seen: set[str] = set()
    for task in read_tasks(inputs, split, rejects=report, chunk_size=chunk_size):
        try:
            check_task(task)
        except Problem as problem:
            report(reject_of(task, "", problem))
            continue
        for index, action in enumerate(task.data["actions"]):
            uid = _action_uid(action)
            step_id = f"{task.annotation_id}:{uid}"
            if uid and step_id in seen:
                duplicate = Problem("duplicate_step", f"{step_id} was read before")
                report(reject_of(task, uid, duplicate))
                continue
            seen.add(step_id)
            step = _step(task, index, uid, source, report)
            if step is None:
                continue
            if page_dir is not None:
                _store_page(step, page_dir)
            yield step


def _action_uid(action: object) -> str:
    uid = action.get("action_uid") if isinstance(action, dict) else None
    return uid if isinstance(uid, str) else ""


def _step(task: TaskRecord, index: int, uid: str, source: str, report: ReportFn) -> Step | None:
    notes: list[Problem] = []
    try:
        step = make_step(task, index, notes, source)
    except Problem as problem:
        step = None
        notes.append(problem)
    for note in notes:
        report(reject_of(task, uid, note))
    return step


def _store_page(step: Step, page_dir: str | Path) -> None:
    """Save the page next to the others (atomically) and keep only its path on the Step."""
    path = step_path(page_dir, step.step_id)
    partial = path.with_name(path.name + ".partial")
    step.page.save(partial)  # type: ignore[union-attr]
    os.replace(partial, path)
    step.page_path = str(path)
    step.page = None


def reject_of(task: TaskRecord, action_uid: str, problem: Problem) -> Reject:
    return Reject(task.origin, problem.reason, problem.message, task.annotation_id, action_uid,
                  task.offset, problem.dropped)  # fmt: skip


def _lost(problem: str, count: int, unreadable: bool) -> str:
    why = "the file cannot be read further" if unreadable else "the JSON structure is broken here"
    return (f"{problem}; the {count} task(s) before this point were read, the rest of the file "
            f"is skipped because {why}")  # fmt: skip


def _log_reject(reject: Reject) -> None:
    ids = ":".join(x for x in (reject.annotation_id, reject.action_uid) if x)
    _log.warning("%s %s %s: %s", reject.origin, ids, reject.reason, reject.message)


def _expand(item: str | Path) -> list[Path]:
    text = str(item)
    path = Path(item)
    if path.is_dir():
        found = [p for p in path.rglob("*") if p.is_file() and _is_task_file(p)]
        if not found:
            raise FormatError(f"{path}: the folder holds no .json or .json.gz task files")
        return sorted(found, key=_natural)
    if path.is_file():
        return [path]
    if _GLOB_CHARS.search(text):
        found = [Path(p) for p in glob.glob(text, recursive=True) if Path(p).is_file()]
        if not found:
            raise FormatError(f"{text}: the pattern matches no task files")
        return sorted(found, key=_natural)
    raise FormatError(f"{text}: no such file or folder; pass a Mind2Web data folder "
                      "(e.g. data/train), a glob (data/*/*.json) or task files")  # fmt: skip


def _is_task_file(path: Path) -> bool:
    return path.name.lower().endswith(TASK_SUFFIXES) and path.name not in BOOKKEEPING


def _natural(path: Path) -> list:
    """``train_2.json`` before ``train_10.json``."""
    return [int(part) if part.isdigit() else part for part in _DIGITS.split(str(path))]
