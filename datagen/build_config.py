"""Config of ``python -m datagen build`` (the ``build:`` section of a datagen YAML).

    build:
      input: [outputs/datagen/miniwob/dump]     # Mind2Web task files: folders, globs or files
      output_dir: outputs/datagen/miniwob/dataset
      modes: [query_only]
      teacher: {kind: oracle}
      verify: {top_k: 10, judge: {kind: off}}
      splits: {by: holdout, test_websites: [click-tab-2], test_task_percent: 10}
      paraphrases: {per_step: 2}                # reworded instructions, train split only
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from datagen.teachers import TeacherConfig
from datagen.verify import VerifyConfig
from pipeline.agent.modes import MODES, Mode
from pipeline.errors import FormatError


@dataclass(slots=True)
class SplitConfig:
    """Where a step's trajectories go. ``input``: the split of the dump's folder (Mind2Web's
    train / test_task / test_website / test_domain). ``holdout``: websites listed in
    ``test_websites`` (null: the MiniWoB++ held-out tasks, ``datagen.miniwob.heldout``) go to
    ``test_website`` whole; of the rest, ``test_task_percent`` of the tasks
    (chosen by a hash of the annotation id, so a task never straddles two splits) go to
    ``test_task``; the remainder to ``train``. No page of a test split is ever in train."""

    by: Literal["input", "holdout"] = "input"
    test_websites: list[str] | None = None
    test_task_percent: float = 10.0

    def heldout_websites(self) -> frozenset[str]:
        """``test_websites``, or the MiniWoB++ held-out tasks when it is null."""
        from datagen.miniwob.heldout import HELDOUT_TASKS

        return frozenset(HELDOUT_TASKS if self.test_websites is None else self.test_websites)

    def validate(self) -> list[str]:
        if not 0.0 <= self.test_task_percent < 100.0:
            return [f"test_task_percent: {self.test_task_percent} must be in [0, 100)"]
        return []


@dataclass(slots=True)
class ParaphraseConfig:
    """Per accepted training step, ``per_step`` more records with the instruction reworded
    (``datagen.paraphrase``); 0 = off. Test splits never get variants."""

    per_step: int = 2
    wordnet_dir: str = "/usr/share/wordnet"  # WordNet 3.0 dict files (Debian's wordnet-base)

    def validate(self) -> list[str]:
        if self.per_step < 0:
            return [f"per_step: {self.per_step} must be 0 (off) or more"]
        if self.per_step and not Path(self.wordnet_dir, "data.verb").is_file():
            return [(f"wordnet_dir: {self.wordnet_dir} holds no WordNet dict files; "
                     "install Debian's wordnet-base (apt-get install wordnet-base) or set "
                     "paraphrases.per_step=0")]
        return []


@dataclass(slots=True)
class BuildConfig:
    input: list[str] = field(default_factory=list)
    output_dir: str = "outputs/datagen/dataset"
    source: str = "mind2web"  # the Step's source tag ("miniwob" for recorded dumps)
    modes: list[Mode] = field(default_factory=lambda: ["query_only"])
    seed: int = 0
    limit: int | None = None  # at most this many steps (in input order)
    num_proc: int = 1  # worker processes (each loads its own teacher and judge)
    shard_size: int = 1000  # records per output shard
    teacher: TeacherConfig = field(default_factory=TeacherConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    splits: SplitConfig = field(default_factory=SplitConfig)
    paraphrases: ParaphraseConfig = field(default_factory=ParaphraseConfig)

    def validate(self) -> list[str]:
        problems = []
        if not self.input:
            problems.append("input: give the task files to read, e.g. input=/data/mind2web/train")
        else:
            from datagen.mind2web import resolve_inputs

            try:
                found = resolve_inputs(self.input)
            except FormatError as exc:
                problems.append(f"input: {exc}")
            else:
                if not found:
                    problems.append(f"input: no .json/.json.gz task files in {self.input}; "
                                    "record a dump first (python -m datagen record) or fix the path")
        unknown = [m for m in self.modes if m not in MODES]
        if unknown or not self.modes:
            problems.append(f"modes: {self.modes} must be a non-empty list of {', '.join(MODES)}")
        if self.num_proc < 1:
            problems.append(f"num_proc: {self.num_proc} must be at least 1")
        if self.shard_size < 1:
            problems.append(f"shard_size: {self.shard_size} must be at least 1")
        if self.limit is not None and self.limit < 1:
            problems.append(f"limit: {self.limit} must be at least 1 (or null)")
        return problems
