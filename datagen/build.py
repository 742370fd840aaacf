"""``python -m datagen build``: Mind2Web task files in, verified query-tool trajectories out.

    task files ─► steps (page from raw_html) ─► distill ─► teacher ─► verify ×3 ─► data/<split>/

A task's steps go in order: each step's conversation states what the previous recorded action did
to the page, and for pagescout's own recordings its history is written from the recorded pages,
as the live loop writes both (``datagen.context``).

Tasks are read in a stable order (``datagen.mind2web.read_tasks``, bounded memory) and handed to
``num_proc`` worker processes one task at a time; results come back in task order, so the output
is the same for any ``num_proc``. Each record's key is ``<step_id>|<mode>``: a killed run restarts,
skips every key already on disk (``DatasetWriter``) and appends the rest, with nothing lost or
duplicated. Accepted steps of a training split get ``paraphrases.per_step`` more records with
the instruction reworded (``datagen.paraphrase``), written before the step's own record; the
variants the value check drops go to ``rejects.jsonl`` and are counted in the manifest. Bad
input (malformed JSON, a task or action without a required field, HTML that does not parse, no
positive) goes to ``rejects.jsonl`` with its reason and the run goes on; so do the
trajectories the verifier rejects, with their verdicts. At the end ``manifest.json`` and
``verify_report.{json,md}`` describe everything on disk.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import platform
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from tqdm import tqdm

from datagen.build_config import BuildConfig, SplitConfig
from datagen.context import TaskContext
from datagen.dataset import DatasetWriter, dataset_record
from datagen.mind2web.reader import Reject, read_tasks, reject_of
from datagen.mind2web.steps import Problem, TaskRecord, check_task, make_step
from datagen.miniwob.heldout import is_training_split
from datagen.paraphrase.records import variant_records
from datagen.records import Step, Trajectory
from datagen.stats import dataset_stats, format_stats
from datagen.teachers import make_teacher, step_rng
from datagen.verify import make_judge, verify
from pipeline.agent.progress import PreviousStep
from pipeline.config import config_to_dict
from pipeline.distill import distill
from pipeline.distill.model import DistilledPage
from pipeline.errors import PagescoutError

Output = tuple[str, str, str, dict[str, Any]]  # ("write" | "reject", key, split, record)


def record_key(step_id: str, mode: str) -> str:
    return f"{step_id}|{mode}"


def reject_key(reject: Reject) -> str:
    where = reject.annotation_id or Path(reject.origin).name
    return f"reject|{where}|{reject.action_uid}|{reject.reason}|{reject.offset}"


def assign_split(step: Step, splits: SplitConfig) -> str:
    """The output split of a step (see ``SplitConfig``)."""
    return split_for(step.annotation_id, step.website, step.split, splits)


def split_for(annotation_id: str, website: str, input_split: str, splits: SplitConfig) -> str:
    """The output split of a task's steps, from its id, website and input folder's split."""
    if splits.by == "input":
        return input_split or "train"
    if website in splits.heldout_websites():
        return "test_website"
    digest = hashlib.sha256(annotation_id.encode()).digest()
    share = int.from_bytes(digest[:4], "big") / 2**32 * 100
    return "test_task" if share < splits.test_task_percent else "train"


@dataclass(slots=True)
class TaskJob:
    task: TaskRecord
    indices: list[int]  # actions still to do (resume skips the rest)


class Worker:
    """One process's teacher and judge, built once; turns a task into output records."""

    def __init__(self, config: BuildConfig) -> None:
        self.config = config
        self.teacher = make_teacher(config.teacher)
        self.judge = make_judge(config.verify.judge) if config.verify.judge.kind != "off" else None

    def run(self, job: TaskJob) -> list[Output]:
        """The job's steps, each told of the step before it (``datagen.context``): the steps
        before the first one to do are read too (a resumed task), but not written again."""
        out: list[Output] = []
        context = TaskContext()
        todo = set(job.indices)
        for index in range(max(job.indices) + 1):
            notes: list[Problem] = []
            uid = _uid(job.task, index)
            try:
                step = make_step(job.task, index, notes, self.config.source)
            except Problem as problem:
                context.broken()
                if index in todo:
                    reject = reject_of(job.task, uid, problem)
                    out.append(("reject", reject_key(reject), "", reject.to_dict()))
                continue
            page = distill(step.load_page())
            if index in todo:
                shown, previous = context.before(step)
                out.extend(self._trajectories(shown, page, previous, [n.reason for n in notes]))
            context.after(step, page)
        return out

    def _trajectories(self, step: Step, page: DistilledPage, previous: PreviousStep | None,
                      notes: list[str]) -> Iterator[Output]:
        split = assign_split(step, self.config.splits)
        for mode in self.config.modes:
            rng = step_rng(self.config.seed, step.step_id, mode)
            try:
                proposed = self.teacher.propose(step, page, mode, rng, previous)
                checked = verify(proposed, step, page, self.config.verify, self.judge)
            except PagescoutError as exc:  # one step's failure, not the run's
                yield "reject", record_key(step.step_id, mode), "", {
                    "step_id": step.step_id, "mode": mode, "reason": "teacher_failed",
                    "message": str(exc)}
                continue
            checked.split = split
            checked.meta.update({
                "task": step.task, "annotation_id": step.annotation_id,
                "step_index": step.step_index, "op": step.operation.op,
                "value": step.operation.value, "source": step.source, "input_notes": notes,
            })
            key = record_key(step.step_id, mode)
            if checked.accepted and is_training_split(split):  # before the step's own record,
                yield from self._variants(checked, step, key)  # so a resume redoes them all
            yield "write" if checked.accepted else "reject", key, split, dataset_record(checked)

    def _variants(self, checked: Trajectory, step: Step, key: str) -> Iterator[Output]:
        """The step's paraphrased records (``datagen.paraphrase.records``), each seeded by the
        run seed and the step, so the same seed gives the same variants."""
        config = self.config.paraphrases
        if not config.per_step:
            return
        rng = step_rng(self.config.seed, step.step_id, f"{checked.mode}|paraphrase")
        for kind, suffix, record in variant_records(checked, step.task, config.per_step, rng,
                                                    config.wordnet_dir):
            yield kind, key + suffix, checked.split if kind == "write" else "", record


_WORKER: Worker | None = None  # one per worker process (multiprocessing initializer)


def _init_worker(config: BuildConfig) -> None:
    global _WORKER
    _WORKER = Worker(config)


def _run_job(job: TaskJob) -> list[Output]:
    return _WORKER.run(job)  # type: ignore[union-attr]


def run_build(config: BuildConfig) -> dict[str, Any]:
    """Build the dataset; returns the manifest (also written to ``manifest.json``)."""
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    written = {"records": 0, "steps": 0}
    with DatasetWriter(out, config.shard_size) as writer:
        input_rejects: deque[Reject] = deque()  # filled by the reader (a pool thread may read)
        jobs = _jobs(config, writer.done, input_rejects)
        progress = tqdm(desc="steps", unit="step", total=config.limit)
        for outputs in _map(config, jobs):
            _flush_input_rejects(writer, input_rejects)
            for kind, key, split, record in outputs:
                if key in writer.done:  # a variant written before a kill
                    continue
                (writer.write(key, split, record) if kind == "write" else writer.reject(key, record))
                written["records"] += 1
            steps = len({key.split("|")[0] for _, key, _, _ in outputs})
            written["steps"] += steps
            progress.update(steps)
        _flush_input_rejects(writer, input_rejects)
        progress.close()
    seconds = time.perf_counter() - started
    return _finish(config, out, written, seconds)


def _jobs(config: BuildConfig, done: set[str], input_rejects: deque[Reject]) -> Iterator[TaskJob]:
    """Tasks in input order with the actions still to do, up to ``limit`` steps."""
    budget = config.limit
    seen: set[str] = set()
    for task in read_tasks(config.input, rejects=input_rejects.append):
        try:
            check_task(task)
        except Problem as problem:
            input_rejects.append(reject_of(task, "", problem))
            continue
        indices = []
        for index in range(len(task.data["actions"])):
            if budget is not None and budget <= 0:
                break
            uid = _uid(task, index)
            step_id = f"{task.annotation_id}:{uid}"
            if uid and step_id in seen:
                input_rejects.append(reject_of(task, uid, Problem(
                    "duplicate_step", f"{step_id} was read before")))
                continue
            seen.add(step_id)
            if budget is not None:
                budget -= 1
            if not all(record_key(step_id, m) in done for m in config.modes):
                indices.append(index)
        if indices:
            yield TaskJob(task, indices)
        if budget is not None and budget <= 0:
            return


def _map(config: BuildConfig, jobs: Iterator[TaskJob]) -> Iterator[list[Output]]:
    if config.num_proc == 1:
        worker = Worker(config)
        yield from map(worker.run, jobs)
        return
    context = multiprocessing.get_context("spawn")  # no forked browser or torch state
    with context.Pool(config.num_proc, _init_worker, (config,)) as pool:
        yield from pool.imap(_run_job, jobs, chunksize=1)


def _flush_input_rejects(writer: DatasetWriter, rejects: deque[Reject]) -> None:
    while rejects:
        reject = rejects.popleft()
        key = reject_key(reject)
        if reject.dropped and key not in writer.done:
            writer.reject(key, reject.to_dict())


def _uid(task: TaskRecord, index: int) -> str:
    action = task.data["actions"][index]
    uid = action.get("action_uid") if isinstance(action, dict) else None
    return uid if isinstance(uid, str) else ""


def _finish(config: BuildConfig, out: Path, written: dict[str, int],
            seconds: float) -> dict[str, Any]:
    stats = dataset_stats(out)
    manifest = {
        "command": "python -m datagen build",
        "config": config_to_dict(config),
        "seed": config.seed,
        "versions": {name: _version(name) for name in
                     ("pagescout", "transformers", "datasets", "openai", "playwright")}
        | {"python": platform.python_version()},
        "this_run": {"steps": written["steps"], "records": written["records"],
                     "seconds": round(seconds, 2),
                     "steps_per_s": round(written["steps"] / seconds, 2) if seconds else None},
        **{k: v for k, v in stats.items() if k != "verify_markdown"},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    (out / "verify_report.json").write_text(json.dumps(stats["verify"], indent=1),
                                            encoding="utf-8")
    (out / "verify_report.md").write_text(stats["verify_markdown"], encoding="utf-8")
    print(format_stats(stats))
    return manifest


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"
