"""Statistics of a built dataset, read back from its files: ``python -m datagen stats <output>``.

Counts come from what is on disk — every accepted record under ``data/<split>/`` and every
rejected one in ``rejects.jsonl`` — so they are right after any number of resumed runs:
records per split, mode and website; paraphrased instructions written and dropped; the verifier's pass rates per stage and reject reasons
(``datagen.verify.report``); bad input records by reason.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from datagen.dataset import DATA_DIR, REJECTS_FILE, trajectory_from_record
from datagen.paraphrase.records import DROPPED_REASON, KEY_MARK
from datagen.records import Trajectory
from datagen.verify.report import build_report, to_markdown
from pipeline.errors import FormatError


def iter_records(path: Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as exc:
                    raise FormatError(f"{path}:{number}: not a JSON record ({exc.msg})") from exc


def data_files(root: str | Path) -> dict[str, list[str]]:
    """``{split: [shard paths]}`` for ``datasets.load_dataset("json", data_files=...)``."""
    data = Path(root) / DATA_DIR
    return {d.name: sorted(str(p) for p in d.glob("shard-*.jsonl"))
            for d in sorted(data.glob("*")) if d.is_dir() and any(d.glob("shard-*.jsonl"))}


def dataset_stats(root: str | Path) -> dict[str, Any]:
    root = Path(root)
    if not (root / DATA_DIR).is_dir() and not (root / REJECTS_FILE).exists():
        raise FormatError(f"{root}: not a datagen output (no {DATA_DIR}/ and no {REJECTS_FILE}); "
                          "give the build's output_dir")
    splits: Counter[str] = Counter()
    modes: Counter[str] = Counter()
    websites: Counter[str] = Counter()
    trajectories: list[Trajectory] = []
    paraphrases = Counter(written=0, dropped=0)
    for split, files in data_files(root).items():
        for path in files:
            for record in iter_records(Path(path)):
                splits[split] += 1
                modes[record.get("mode", "")] += 1
                websites[record.get("website", "")] += 1
                if KEY_MARK in record.get("key", ""):
                    paraphrases["written"] += 1  # a copy of a verified record: not re-counted
                else:
                    trajectories.append(_verdicts_only(record, path))
    inputs: Counter[str] = Counter()
    rejects = root / REJECTS_FILE
    for record in iter_records(rejects) if rejects.exists() else ():
        if "messages" in record:
            trajectories.append(_verdicts_only(record, str(rejects)))
        elif record.get("reason") == DROPPED_REASON:
            paraphrases["dropped"] += 1
        else:
            inputs[record.get("reason", "unknown")] += 1
    tried = paraphrases["written"] + paraphrases["dropped"]
    verify = build_report(trajectories)
    return {
        "accepted": sum(splits.values()),
        "splits": dict(splits),
        "modes": dict(modes),
        "websites": len(websites),
        "records_per_website": dict(websites.most_common()),
        "verify": verify.to_dict(),
        "verify_markdown": to_markdown(verify),
        "input_rejects": dict(inputs.most_common()),
        "paraphrases": {**paraphrases,
                        "acceptance": round(paraphrases["written"] / tried, 4) if tried else None},
    }


def format_stats(stats: dict[str, Any]) -> str:
    splits = ", ".join(f"{k} {v}" for k, v in sorted(stats["splits"].items())) or "none"
    modes = ", ".join(f"{k} {v}" for k, v in stats["modes"].items()) or "none"
    head = (f"accepted trajectories: {stats['accepted']} ({splits}) over {stats['websites']} "
            f"websites; modes: {modes}")
    lines = [head, "", stats["verify_markdown"].rstrip()]
    para = stats["paraphrases"]
    if para["written"] or para["dropped"]:
        lines += ["", (f"paraphrased instructions: {para['written']} written, "
                       f"{para['dropped']} dropped by the value check")]
    if stats["input_rejects"]:
        lines += ["", "| input reject | count |", "|---|---:|"]
        lines += [f"| {reason} | {count} |" for reason, count in stats["input_rejects"].items()]
    return "\n".join(lines)


def _verdicts_only(record: dict[str, Any], origin: str) -> Trajectory:
    """A Trajectory carrying what the report reads (verdicts), without the heavy messages."""
    slim = {k: v for k, v in record.items() if k not in ("messages", "tools")}
    return trajectory_from_record({**slim, "messages": [], "tools": []}, origin=origin)
