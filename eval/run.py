"""``python -m eval``: run every (policy, mode) of the config on the benchmark, then report.

    results = main(load_eval_config("configs/eval/miniwob.yaml", ["checkpoint=runs/x"]))

Writes into ``output_dir``: ``episodes.jsonl`` (live) or ``steps.jsonl`` (offline) with every
observation, call, result, action and reward; ``results.json``; ``report.md`` and PNG plots.
A killed run resumes from the journal without repeating finished episodes or steps; a folder
whose journal holds a run played by another model is refused (``provenance``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tqdm import tqdm

from eval.config import EvalConfig
from eval.journal import Journal
from eval.policies import PolicyFactory
from eval.provenance import check_provenance
from eval.report import write_report
from eval.results import COMMIT_AT_IMPORT, summarize_live, summarize_offline, write_results

JOURNALS = {"miniwob": "episodes.jsonl", "browsergym": "episodes.jsonl",
            "mind2web": "steps.jsonl"}


def main(cfg: EvalConfig) -> dict[str, Any]:
    out = Path(cfg.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    journal = Journal(out / JOURNALS[cfg.benchmark])
    extra: dict[str, Any] = {"notes": check_provenance(out, cfg, journal, COMMIT_AT_IMPORT)}
    policies = PolicyFactory(cfg)
    if cfg.benchmark == "mind2web":
        _mind2web(cfg, policies, journal)
        runs = summarize_offline(_current(journal, cfg))
    elif cfg.benchmark == "miniwob":
        _miniwob(cfg, policies, journal, extra)
        runs = summarize_live(_current(journal, cfg))
    else:
        from eval.browsergym_harness import run_browsergym

        runs = summarize_live(asyncio.run(run_browsergym(cfg, policies, journal, extra)))
    for data in runs.values():
        data["generation"] = policies.stats(data["policy"])
    results = write_results(out, cfg, cfg.benchmark, runs, extra)
    write_report(out, results)
    return results


def _miniwob(cfg: EvalConfig, policies: PolicyFactory, journal: Journal,
             extra: dict[str, Any]) -> None:
    from datagen.miniwob.policies import POLICIES
    from eval.miniwob_harness import plan_episodes, run_miniwob

    tasks = cfg.miniwob.tasks or sorted(POLICIES)
    plans = plan_episodes(cfg, tasks)
    done = journal.keys()
    todo = [p for p in plans if p.key not in done]
    design = (f"{len(tasks)} tasks x {cfg.miniwob.seeds_per_task} seeds (from "
              f"{cfg.miniwob.first_seed}; the recorder's seeds start at 0) per run; success = "
              "raw reward >= 1; groups: trained = tasks in training, new seeds; heldout_task = "
              f"{', '.join(cfg.miniwob.heldout_tasks) or 'none'} (no training run saw them)")
    if cfg.miniwob.seeds_per_run:
        design += "; seeds per task of some runs: " + ", ".join(
            f"{run} {seeds}" for run, seeds in cfg.miniwob.seeds_per_run.items())
    extra["notes"] += [design, f"{len(plans) - len(todo)} episodes resumed from the journal"]
    with tqdm(total=len(todo), desc="episodes", unit="ep", disable=not cfg.progress) as bar:
        def done_one(row: dict[str, Any]) -> None:
            bar.update(1)
            bar.set_postfix(run=row["run"], ok=row["success"])

        asyncio.run(run_miniwob(cfg, plans, policies, journal, done_one))


def _mind2web(cfg: EvalConfig, policies: PolicyFactory, journal: Journal) -> None:
    from eval.mind2web_harness import run_mind2web

    with tqdm(desc="steps", unit="step", disable=not cfg.progress) as bar:
        def done_one(row: dict[str, Any]) -> None:
            bar.update(1)
            bar.set_postfix(run=row["run"])

        asyncio.run(run_mind2web(cfg, policies, journal, done_one))


def _current(journal: Journal, cfg: EvalConfig) -> list[dict[str, Any]]:
    """The journal's rows of this config's runs (a reused folder may hold others)."""
    runs = {f"{p}/{m}" for p, m in cfg.runs()}
    return [row for row in journal.rows() if row.get("run") in runs]
