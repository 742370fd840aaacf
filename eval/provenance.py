"""What wrote each run's rows in an output folder, so a reused folder never scores one model's
run with another model's rows.

    notes = check_provenance(out, cfg, journal)   # FormatError on a model mismatch

``runs.json`` beside the journal records, per run (``checkpoint/planned``), the model it plays
-- the checkpoint folder and when its weights last changed, the base model, the endpoint's
model -- and the commits of the code that journaled its rows. Resuming a run whose model
changed stops with an error naming the folder, the run and both models: the journal would mix
two models' rows under one name (a new ``output_dir``, or the folder deleted, starts over).
Rows written by other code are kept, as resuming a killed run after a fix is what the journal
is for, and the report's notes say which commits wrote them, as they do for rows journaled
before this file existed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eval.config import EvalConfig
from eval.journal import Journal
from pipeline.errors import FormatError

RECORD = "runs.json"


def check_provenance(out: Path, cfg: EvalConfig, journal: Journal,
                     commit: str | None) -> list[str]:
    """Check this config's runs against the folder's record, record them, and return the notes
    a resumed run's report carries."""
    path = out / RECORD
    recorded: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    journaled = {row.get("run") for row in journal.rows()}
    notes = []
    for run, model in run_models(cfg).items():
        before = recorded.get(run)
        if run in journaled and before is None:
            notes.append(f"{run}: rows resumed from a journal that did not record its model "
                         "or code; start a new output_dir to be sure of them")
        if run in journaled and before is not None and before["model"] != model:
            raise FormatError(
                f"{out}: its journal holds rows of {run} played by {before['model']}, and this "
                f"config plays {run} with {model}; give a new output_dir (or delete the folder) "
                "to start over")
        commits = list(before["commits"]) if before and run in journaled else []
        if commit and commit not in commits:
            commits.append(commit)
        if len(commits) > 1:
            notes.append(f"{run}: rows journaled by the code of commits "
                         f"{', '.join(c[:10] for c in commits)}")
        recorded[run] = {"model": model, "commits": commits}
    path.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
    return notes


def run_models(cfg: EvalConfig) -> dict[str, str]:
    """Run name -> the model it plays, as ``runs.json`` records it."""
    return {f"{policy}/{mode}": _model_of(policy, cfg) for policy, mode in cfg.runs()}


def _model_of(policy: str, cfg: EvalConfig) -> str:
    if policy == "checkpoint":
        return _folder_identity(cfg.checkpoint)
    if policy == "base":
        return _folder_identity(cfg.model)
    if policy == "openai":
        return f"{cfg.openai.model} at {cfg.openai.base_url}"
    return policy  # the oracle, the planner, random: the code itself


def _folder_identity(spec: str) -> str:
    """A path with the time its newest file was written (a folder retrained in place is another
    model); a name that is no path (a hub model, ``smollm2``) as it is."""
    path = Path(spec)
    if not path.exists():
        return spec
    files = [p for p in path.rglob("*") if p.is_file()] if path.is_dir() else [path]
    newest = max((p.stat().st_mtime for p in files), default=path.stat().st_mtime)
    written = datetime.fromtimestamp(newest, UTC).isoformat(timespec="seconds")
    return f"{path.resolve()} (written {written})"
