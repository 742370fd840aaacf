"""Generalisation: the page engine on sources without runtime evidence, and on families never tuned on.

    python benchmarks/unseen_benchmark.py [--dump outputs/unseen/dump] [--seeds 10]
                                          [--before earlier.json] [--rows]
                                          [--out benchmarks/results/unseen.json]

1. Records (unless ``--dump`` already holds a recording) every family of the tuning pool
   (``unseen_cases.TUNING_POOL``: datagen's 41 policies while the engine was tuned), ``--seeds``
   seeded episodes each from seed 5000 (seeds the training data never uses), as Mind2Web task
   files (``datagen record``), into ``--extra`` the families recorded after the first tuning
   round with ``unseen_policies.py``, and into ``--breadth`` every other family datagen has a
   policy for (``unseen_cases.breadth_families``: written by the breadth issue, after all tuning).
2. Reads every action three ways (``unseen_cases.VARIANTS``): raw_html as recorded, raw_html
   with the listener evidence stripped, cleaned_html only; distils each page and reports per
   variant, apart for the families tuned on, the held-out ones (``unseen_cases.held_out``, never
   looked at while tuning), the new ones (recorded after the first round, read in the second),
   the breadth half read in the third round (``breadth-read``) and the breadth half never read
   (``breadth``): the share of targets without a ref, pages with no ref at all, Recall@1/5/10 of
   ``query_for_step`` (the task's clause at the step's position) against a plain word-overlap
   ranking of every element, refs and rendered characters per page.
   Targets (issue 13): targets without a ref <= 5% on stripped dumps and no page with zero refs;
   Recall@5 >= 95% and Recall@1 >= 65% from the task alone on stripped dumps, at least the
   overlap baseline's at every k.

Per-family rows go to the JSON (``--show-families`` prints the tuned families'; the held-out,
new and breadth ones are printed only in aggregate, so that tuning cannot look at them by
accident).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from common import finish, machine_info, print_table
from targets import Target
from tqdm import tqdm
from unseen_cases import KS, TUNING_POOL, VARIANTS, breadth_families, iter_cases, measure
from unseen_policies import record_extra

RECORD_SEED = 5000
RECORD_SPLIT = "test_task"  # no training split: datagen records held-out tasks into it too
REFLESS_TARGET = 0.05
RECALL_TARGETS = {1: 0.65, 5: 0.95}


def record(dump: Path, seeds: int, families: list[str]) -> None:
    """``seeds`` episodes of every one of ``families`` from ``RECORD_SEED``, into ``dump``."""
    from datagen.miniwob import RecordConfig, run_record
    from pipeline.config import load_config

    tasks = ",".join(sorted(families))
    config = load_config(RecordConfig, "configs/datagen/miniwob.yaml", section="record",
                         overrides=[f"output_dir={dump}", f"seed={RECORD_SEED}",
                                    f"seeds_per_task={seeds}", f"tasks=[{tasks}]",
                                    f"split={RECORD_SPLIT}"])
    run_record(config)


def summarise(rows: list[dict]) -> dict:
    n = len(rows)
    if not n:
        return {"steps": 0}

    def recall(key: str) -> dict[int, float]:
        return {k: sum(1 for r in rows if r[key] is not None and r[key] <= k) / n for k in KS}

    return {
        "steps": n, "families": len({r["family"] for r in rows}),
        "refless": sum(not r["covered"] for r in rows) / n,
        "zero_ref_pages": sum(r["zero_refs"] for r in rows),
        "fallback_pages": sum(r["fallback"] for r in rows),
        "engine": recall("rank"), "overlap": recall("rank_overlap"),
        "refs_per_page": sum(r["refs"] for r in rows) / n,
        "chars_per_page": sum(r["chars"] for r in rows) / n,
    }


def groups(rows: list[dict]) -> dict[str, dict]:
    out: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        out[f"{row['variant']}/{row['part']}"].append(row)
        out[f"{row['variant']}/all"].append(row)
    return {name: summarise(group) for name, group in sorted(out.items())}


def families(rows: list[dict]) -> dict[str, dict]:
    out: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        out[f"{row['variant']}/{row['family']}"].append(row)
    return {name: {**summarise(g), "part": g[0]["part"]} for name, g in sorted(out.items())}


def targets(summary: dict) -> list[Target]:
    out = []
    for part in ("all", "held-out", "new", "breadth-read", "breadth"):
        s = summary[f"stripped/{part}"]
        out.append(Target(f"stripped dumps ({part}): targets without a ref", f"<= {REFLESS_TARGET:.0%}",
                          f"{s['refless']:.1%}", s["refless"] <= REFLESS_TARGET))
        out.append(Target(f"stripped dumps ({part}): pages with zero refs", "0",
                          str(s["zero_ref_pages"]), s["zero_ref_pages"] == 0))
        for k, goal in RECALL_TARGETS.items():
            got = s["engine"][k]
            out.append(Target(f"stripped dumps ({part}): Recall@{k} from the task", f">= {goal:.0%}",
                              f"{got:.1%} (overlap {s['overlap'][k]:.1%})", got >= goal))
        beaten = [k for k in KS if s["engine"][k] < s["overlap"][k]]
        out.append(Target(f"stripped dumps ({part}): at least the overlap baseline at every k",
                          "every k", "below at k=" + ",".join(map(str, beaten)) if beaten else "met",
                          not beaten))
    return out


def report(summary: dict, per_family: dict, show_families: bool) -> None:
    columns = ["variant/part", "steps", "fam", "no ref %", "0-ref pages", "fallback",
               *(f"R@{k}" for k in KS), *(f"ovl@{k}" for k in KS), "refs", "chars"]

    def line(name: str, s: dict) -> list:
        return [name, s["steps"], s["families"], 100 * s["refless"], s["zero_ref_pages"],
                s["fallback_pages"], *(100 * s["engine"][k] for k in KS),
                *(100 * s["overlap"][k] for k in KS), s["refs_per_page"], s["chars_per_page"]]

    print_table("Targets with a ref and Recall@k (%) of query_for_step vs word overlap (ovl)",
                columns, [line(name, s) for name, s in summary.items() if s["steps"]])
    if show_families:
        print_table("Per family (tuned families only)", columns,
                    [line(name, s) for name, s in per_family.items() if s["part"] == "tuned"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dump", default="outputs/unseen/dump")
    parser.add_argument("--extra", default="outputs/unseen/extra",
                        help="families without a datagen policy (unseen_policies.py)")
    parser.add_argument("--breadth", default="outputs/unseen/breadth",
                        help="datagen's later families, never read while tuning")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--show-families", action="store_true")
    parser.add_argument("--before", help="an earlier run's JSON (another commit) to compare with")
    parser.add_argument("--rows", action="store_true", help="keep every step's row in the JSON")
    parser.add_argument("--out", default="benchmarks/results/unseen.json")
    args = parser.parse_args()
    dump = Path(args.dump)
    if not (dump / RECORD_SPLIT).is_dir():  # the pool the parts are drawn from, never more
        record(dump, args.seeds, sorted(TUNING_POOL))
    extra = Path(args.extra)
    if not (extra / "train").is_dir():
        record_extra(extra, args.seeds)
    breadth = Path(args.breadth)
    if not (breadth / RECORD_SPLIT).is_dir():
        from datagen.miniwob.policies import POLICIES

        record(breadth, args.seeds, breadth_families(POLICIES))
    recorded = [*iter_cases(dump / RECORD_SPLIT), *iter_cases(extra / "train"),
                *iter_cases(breadth / RECORD_SPLIT)]
    cases = [case for case in recorded if case.names_element]
    passages = len(recorded) - len(cases)
    print(f"{passages} select_text steps name a passage and no element: not measured")
    rows = [measure(case, variant)
            for case in tqdm(cases, desc="steps", unit="step") for variant in args.variants]
    summary, per_family = groups(rows), families(rows)
    report(summary, per_family, args.show_families)
    payload = {"machine": machine_info(), "summary": summary, "families": per_family,
               "passage_steps": passages}
    if args.before:
        before = json.loads(Path(args.before).read_text(encoding="utf-8"))
        payload["before"] = {"commit": before.get("commit"), "summary": before["summary"]}
        compare(before["summary"], summary, before.get("commit"))
    checks = targets(summary) if "stripped" in args.variants else []
    for t in checks:
        print(f"target {t.name}: {t.target}; measured {t.measured}: {'met' if t.met else 'NOT met'}")
    payload["targets"] = [t.to_dict() for t in checks]
    if args.rows:
        payload["rows"] = rows
    finish(payload, args.out)


def compare(before: dict, after: dict, commit: str | None) -> None:
    """Before -> after per variant/part: targets without a ref, zero-ref pages, Recall@k."""
    rows = []
    for name, now in after.items():
        then = before.get(name)
        if not then or not now["steps"]:
            continue
        rows.append([name, now["steps"], f"{100 * then['refless']:.1f} -> {100 * now['refless']:.1f}",
                     f"{then['zero_ref_pages']} -> {now['zero_ref_pages']}",
                     *(f"{100 * then['engine'][str(k)]:.1f} -> {100 * now['engine'][k]:.1f}"
                       if str(k) in then["engine"] else "" for k in KS)])
    print_table(f"Before ({commit or 'earlier run'}) -> now", ["variant/part", "steps", "no ref %",
                "0-ref pages", *(f"R@{k}" for k in KS)], rows)


if __name__ == "__main__":
    main()
