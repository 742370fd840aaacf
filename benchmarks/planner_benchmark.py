"""How often the planner's first candidate is the oracle's target, on the turns a student learns.

    python benchmarks/planner_benchmark.py [--records outputs/dagger/record/train]
                                           [--before earlier.json] [--show-families]
                                           [--out benchmarks/results/planner.json]

Builds the recorded episodes in the ``planned`` mode with the engine of this checkout (``python
-m datagen build --config configs/datagen/miniwob.yaml input=[RECORDS] modes=[planned]
teacher.rationale=false``, into a temporary folder) and reads every action turn of the train
split (the paraphrased copies left out: the same page and history). Per task family, a turn's
target -- the refs the oracle acted on (``meta.targets``) -- is the first candidate the step
lists, another of them, or missing from them (the student has to query), or the action names no
element (a key press, done). A student that follows candidate [1] gets the first kind right
without a query; the others are where it must read, compare or search. A drag's drop is
counted apart: whether the element it drops onto is the first place the step lists after the
dragged one (``drop_first``) or another (``drop_other``). The records are the
recipe's own (``configs/chain/dagger.yaml``: 8 seeds of every trained task), so this reads the
training tasks only, never a held-out one.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from common import REPO, finish, machine_info, print_table

from pipeline.agent.observe import CANDIDATES_HEADER

KINDS = ("first", "listed", "missing", "no_element")
DROP_KINDS = ("drop_first", "drop_other")
_REF = re.compile(r"^\[(\d+)\]", re.MULTILINE)


def build(records: str, folder: Path) -> Path:
    """The planned-mode dataset of ``records``, built by datagen into ``folder``."""
    command = [sys.executable, "-m", "datagen", "build", "--config",
               "configs/datagen/miniwob.yaml", f"input=[{records}]", f"output_dir={folder}",
               "modes=[planned]", "teacher.rationale=false"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"error: datagen build failed:\n{done.stderr[-2000:]}")
    return folder / "data" / "train"


def kind_of(record: dict, meta: dict) -> str:
    """Where the turn's target sits among the step's candidates."""
    targets = set(meta.get("targets") or [])
    if not targets or not _names_an_element(record):
        return "no_element"
    candidates = _candidates(record)
    if candidates and candidates[0] in targets:
        return "first"
    return "listed" if targets.intersection(candidates) else "missing"


def drop_kind(record: dict) -> str | None:
    """For a drag onto an element, whether that element is the first place the step lists
    after the dragged one; None for any other action."""
    to_index = _arguments(record).get("to_index")
    if to_index is None:
        return None
    candidates = _candidates(record)
    return "drop_first" if candidates[1:2] == [to_index] else "drop_other"


def _candidates(record: dict) -> list[int]:
    """The refs the step's planned candidates list, in order."""
    user = next(m["content"] for m in record["messages"] if m["role"] == "user")
    block = user.split(CANDIDATES_HEADER, 1)[1].split("\n\n", 1)[0] if (
        CANDIDATES_HEADER in user) else ""
    return [int(ref) for ref in _REF.findall(block)]


def _arguments(record: dict) -> dict:
    arguments = record["messages"][-1]["tool_calls"][0]["function"]["arguments"]
    return json.loads(arguments) if isinstance(arguments, str) else arguments


def _names_an_element(record: dict) -> bool:
    """Whether the turn's action names an element (a key press goes where the focus is)."""
    return "index" in _arguments(record)


def count(train: Path) -> dict[str, Counter]:
    """Per family, the turns of each kind (one copy of each turn: paraphrase 0)."""
    families: dict[str, Counter] = defaultdict(Counter)
    for shard in sorted(train.glob("*.jsonl")):
        for line in shard.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            meta = json.loads(record["meta"])  # the record keeps its meta as JSON text
            if meta.get("paraphrase", {}).get("index", 0) == 0:
                families[record["website"]][kind_of(record, meta)] += 1
                drop = drop_kind(record)
                if drop:
                    families[record["website"]][drop] += 1
    return dict(sorted(families.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", default="outputs/dagger/record/train")
    parser.add_argument("--before", help="an earlier run's JSON (another commit) to compare with")
    parser.add_argument("--show-families", action="store_true")
    parser.add_argument("--out", default="benchmarks/results/planner.json")
    args = parser.parse_args()
    if not (REPO / args.records).is_dir():
        raise SystemExit(f"error: {args.records}: no recorded episodes; run the recipe's record "
                         "stage first (python scripts/chain.py --config configs/chain/dagger.yaml)")
    with tempfile.TemporaryDirectory(prefix="planner-") as folder:
        families = count(build(args.records, Path(folder)))
    total = sum(families.values(), Counter())
    turns = sum(total[kind] for kind in KINDS)
    summary = {"turns": turns, **{kind: total[kind] for kind in KINDS + DROP_KINDS},
               "first_share": total["first"] / turns if turns else 0.0}
    before = json.loads(Path(args.before).read_text(encoding="utf-8")) if args.before else None
    rows = [["all", turns, *(total[k] for k in KINDS), 100 * summary["first_share"],
             drops_cell(total)]]
    if before:
        old = before["summary"]
        rows.append([f"all at {before.get('commit')}", old["turns"], *(old[k] for k in KINDS),
                     100 * old["first_share"], drops_cell(old)])
    if args.show_families:
        rows += [[name, sum(c[k] for k in KINDS), *(c[k] for k in KINDS),
                  100 * c["first"] / sum(c[k] for k in KINDS), drops_cell(c)]
                 for name, c in families.items()]
    print_table("Action turns by where the oracle's target sits among the planned candidates",
                ["family", "turns", *KINDS, "first %", "drops first"], rows)
    payload = {"machine": machine_info(), "records": args.records, "summary": summary,
               "families": {name: dict(c) for name, c in families.items()}}
    if before:
        payload["before"] = {"commit": before.get("commit"), "summary": before["summary"]}
    finish(payload, args.out)


def drops_cell(counts: dict) -> str:
    """``first of all`` drags, "–" for a run (or a family) without them."""
    if "drop_first" not in counts and "drop_other" not in counts:
        return "–"
    drops = counts.get("drop_first", 0) + counts.get("drop_other", 0)
    return f"{counts.get('drop_first', 0)} of {drops}"


if __name__ == "__main__":
    main()
