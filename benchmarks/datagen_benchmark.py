"""Datagen end to end on MiniWoB++: record, build, throughput, retrieval, verifier pass rates.

    python benchmarks/datagen_benchmark.py [--config configs/datagen/miniwob.yaml]
                                           [--work outputs/bench-datagen] [--reuse-dump]
                                           [--out benchmarks/results/datagen.json]

1. ``record`` with the default config (unless ``--reuse-dump`` finds a dump), then ``build`` with
   the default config into a fresh folder: wall time of each, verified trajectories and tasks.
   Target (issue 4): >= 1,000 verified trajectories from >= 25 tasks in <= 10 minutes.
2. Throughput without LLM calls: a one-process build of the first ``--throughput-steps`` steps,
   steps per second per core and peak RSS.
3. Retrieval on the recorded steps: Recall@1/5/10/20 of the target for a query built from the
   task alone — the whole task (``query_from_instruction``, one query for all of a task's
   steps), and the task's clause at the step's position (``query_for_step``: what a model also
   knows, how many actions it took) — and for the oracle teacher's last query before its action.
   Targets: Recall@5 >= 97% and Recall@1 >= 60%.
4. Verifier pass rates per stage for the oracle teacher (target: execution >= 95%).
"""

from __future__ import annotations

import argparse
import resource
import shutil
import time
from pathlib import Path

from common import finish, machine_info, print_table
from targets import Target
from tqdm import tqdm

from datagen.build import run_build
from datagen.build_config import BuildConfig
from datagen.dataset import trajectory_from_record
from datagen.mind2web import iter_steps
from datagen.miniwob import RecordConfig, run_record
from datagen.stats import data_files, iter_records
from datagen.teachers import target_refs
from pipeline.agent.execute import execute_offline
from pipeline.config import load_config
from pipeline.distill import distill
from pipeline.query import query_elements
from pipeline.query.instruction import query_for_step, query_from_instruction
from pipeline.tools import validate_call

KS = (1, 5, 10, 20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default="configs/datagen/miniwob.yaml")
    parser.add_argument("--work", default="outputs/bench-datagen")
    parser.add_argument("--reuse-dump", action="store_true")
    parser.add_argument("--throughput-steps", type=int, default=300)
    parser.add_argument("--out", default="benchmarks/results/datagen.json")
    args = parser.parse_args()
    work = Path(args.work)
    dump = work / "dump"
    record_s = None
    if not (args.reuse_dump and (dump / "train").is_dir()):
        shutil.rmtree(dump, ignore_errors=True)
        config = load_config(RecordConfig, args.config, [f"output_dir={dump}"], section="record")
        started = time.perf_counter()
        run_record(config)
        record_s = time.perf_counter() - started
    shutil.rmtree(work / "dataset", ignore_errors=True)
    build = load_config(BuildConfig, args.config,
                        [f"input=[{dump / 'train'}]", f"output_dir={work / 'dataset'}"],
                        section="build")
    started = time.perf_counter()
    manifest = run_build(build)
    build_s = time.perf_counter() - started
    throughput = measure_throughput(args.config, dump, work, args.throughput_steps)
    retrieval = measure_retrieval(dump, work / "dataset")
    result = summarise(manifest, record_s, build_s, throughput, retrieval)
    report(result)
    finish({"machine": machine_info(), **result}, args.out)


def measure_throughput(config_path: str, dump: Path, work: Path, steps: int) -> dict:
    out = work / "throughput"
    shutil.rmtree(out, ignore_errors=True)
    config = load_config(BuildConfig, config_path, [
        f"input=[{dump / 'train'}]", f"output_dir={out}", "num_proc=1", f"limit={steps}"],
        section="build")
    started = time.perf_counter()
    run_build(config)
    seconds = time.perf_counter() - started
    return {"steps": steps, "seconds": round(seconds, 2),
            "steps_per_s_per_core": round(steps / seconds, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def measure_retrieval(dump: Path, dataset: Path) -> dict:
    """Ranks of the target for the task-only query and for the oracle's last query."""
    oracle = _oracle_calls(dataset)
    task_ranks, step_ranks, oracle_ranks = [], [], []
    for step in tqdm(iter_steps(dump / "train", source="miniwob"), desc="retrieval", unit="step"):
        page = distill(step.load_page())
        targets = set(target_refs(page, step.positives))
        plan = query_from_instruction(step.task)
        task_ranks.append(_rank(query_elements(page, **plan.arguments).refs, targets))
        plan = query_for_step(step.task, step.history)
        step_ranks.append(_rank(query_elements(page, **plan.arguments).refs, targets))
        call = oracle.get(step.step_id)
        if call is not None:
            oracle_ranks.append(_rank(execute_offline(call, page).refs, targets))
    return {"task_only": _recall(task_ranks), "task_and_step": _recall(step_ranks),
            "oracle": _recall(oracle_ranks),
            "steps": len(task_ranks), "oracle_steps": len(oracle_ranks)}


def _oracle_calls(dataset: Path) -> dict:
    """The last query_elements call of each oracle trajectory (accepted and rejected)."""
    calls = {}
    paths = [Path(p) for files in data_files(dataset).values() for p in files]
    paths += [dataset / "rejects.jsonl"] if (dataset / "rejects.jsonl").exists() else []
    for path in paths:
        for record in iter_records(path):
            if "messages" not in record:
                continue
            trajectory = trajectory_from_record(record)
            queries = [c for m in trajectory.messages for c in m.get("tool_calls") or ()
                       if c["function"]["name"] == "query_elements"]
            if queries:
                function = queries[-1]["function"]
                calls[trajectory.step_id] = validate_call(function["name"], function["arguments"])
    return calls


def _rank(refs: list[int], targets: set[int]) -> int | None:
    return next((i + 1 for i, ref in enumerate(refs) if ref in targets), None)


def _recall(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {str(k): sum(1 for r in ranks if r is not None and r <= k) / n for k in KS}


def summarise(manifest: dict, record_s: float | None, build_s: float, throughput: dict,
              retrieval: dict) -> dict:
    stages = {s["stage"]: s for s in manifest["verify"]["stages"]}
    total_s = (record_s or 0.0) + build_s
    accepted, websites = manifest["accepted"], manifest["websites"]
    targets = [
        Target("verified trajectories, default MiniWoB++ config",
               ">= 1,000 from >= 25 tasks in <= 10 min (record + build)",
               f"{accepted:,} from {websites} tasks in {total_s / 60:.1f} min "
               f"(record {record_s or 0:.0f} s, build {build_s:.0f} s)",
               accepted >= 1000 and websites >= 25 and total_s <= 600 if record_s else None),
        Target("oracle teacher, execution stage pass rate", ">= 95%",
               f"{stages['execution']['pass_rate']:.1%}",
               stages["execution"]["pass_rate"] >= 0.95),
        _recall_target("whole task, one query for every step", retrieval["task_only"]),
        _recall_target("task + step position (query_for_step)", retrieval["task_and_step"]),
    ]
    return {"record_seconds": record_s, "build_seconds": round(build_s, 1),
            "manifest": {k: manifest[k] for k in ("accepted", "splits", "websites", "verify",
                                                   "input_rejects", "this_run")},
            "throughput": throughput, "retrieval": retrieval,
            "targets": [t.to_dict() for t in targets]}


def _recall_target(how: str, recall: dict[str, float]) -> Target:
    met = recall["5"] >= 0.97 and recall["1"] >= 0.60
    gaps = [f"R@5 {0.97 - recall['5']:.1%} short" if recall["5"] < 0.97 else "",
            f"R@1 {0.60 - recall['1']:.1%} short" if recall["1"] < 0.60 else ""]
    return Target(f"query from the task: {how}", "R@5 >= 97%, R@1 >= 60%",
                  f"R@5 {recall['5']:.1%}, R@1 {recall['1']:.1%}", met,
                  "; ".join(g for g in gaps if g))


def report(result: dict) -> None:
    stages = result["manifest"]["verify"]["stages"]
    print_table("Verifier stages (oracle teacher)", ["stage", "passed", "failed", "skipped",
                                                     "pass rate %"],
                [[s["stage"], s["passed"], s["failed"], s["skipped"],
                  None if s["pass_rate"] is None else 100 * s["pass_rate"]] for s in stages])
    retrieval = result["retrieval"]
    print_table("Recall@k (%) of the target on the recorded steps", ["query", *map(str, KS)],
                [[name, *(100 * retrieval[name][str(k)] for k in KS)]
                 for name in ("task_only", "task_and_step", "oracle")])
    t = result["throughput"]
    print(f"throughput: {t['steps_per_s_per_core']} steps/s per core, peak RSS "
          f"{t['peak_rss_mb']} MB")
    for target in result["targets"]:
        print(f"target {target['name']}: {target['measured']} -> "
              f"{ {True: 'met', False: 'NOT met', None: 'not measured'}[target['met']]}")


if __name__ == "__main__":
    main()
