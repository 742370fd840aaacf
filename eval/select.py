"""``python -m eval select``: compare checkpoints by live success on the validation seeds.

    python -m eval select --config configs/eval/select.yaml checkpoints=[runs/r1,runs/r2]

Every checkpoint plays the same validation episodes (``miniwob.first_seed`` in
``VALIDATION_SEEDS``: not eval's test seeds, not DAgger's or the recorder's training seeds, and
no BrowserGym benchmark page) with the live harness, as ``python -m eval`` with
``policy=checkpoint`` would, each into ``<output_dir>/<name>/`` (its journal makes a killed
selection resume). The best checkpoint has the highest success rate; ties go to fewer steps per
episode, then to the later checkpoint in the list. ``select.json`` and ``select.md`` hold each
checkpoint's success overall, per task family and per task, in the order given (e.g. DAgger
round 1, round 2: the before and after of each round), and the winner; ``best`` is a symlink to
the winning checkpoint, for the stage that evaluates it on the test seeds.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from datagen.miniwob.heldout import family_of
from eval.config import TEST_SEEDS, VALIDATION_SEEDS, EvalConfig
from eval.journal import Journal
from eval.results import by
from pipeline.errors import FormatError

SELECT_NAME = "select.json"
REPORT_NAME = "select.md"
BEST_NAME = "best"  # a symlink to the winning checkpoint


def check_select(cfg: EvalConfig, tasks: list[str]) -> None:
    """The selection's problems in one FormatError: no checkpoints, seeds outside validation,
    held-out tasks (choosing a checkpoint by them would tune on them)."""
    from datagen.miniwob.heldout import heldout_in
    from eval.browsergym.benchmark import training_conflicts

    problems = []
    if not cfg.checkpoints:
        problems.append("checkpoints: give the checkpoints to compare, e.g. "
                        "checkpoints=[outputs/r1/train,outputs/r2/train]")
    if cfg.benchmark != "miniwob":
        problems.append(f"benchmark: select plays live MiniWoB++ (not {cfg.benchmark})")
    seeds = range(cfg.miniwob.first_seed, cfg.miniwob.first_seed + cfg.miniwob.seeds_per_task)
    if not (seeds[0] in VALIDATION_SEEDS and seeds[-1] in VALIDATION_SEEDS):
        problems.append(f"miniwob.first_seed: seeds {seeds[0]}..{seeds[-1]} leave the validation "
                        f"seeds {VALIDATION_SEEDS.start}..{VALIDATION_SEEDS.stop - 1} (eval's "
                        f"test seeds are {TEST_SEEDS.start}..{TEST_SEEDS.stop - 1})")
    if held := heldout_in(tasks):
        problems.append(f"miniwob.tasks: {', '.join(held)} are held out of training "
                        "(datagen/miniwob/heldout.py); selecting by them would tune on them: "
                        "select on trained tasks, report held-out ones with `python -m eval`")
    conflicts = training_conflicts([(t, s) for t in tasks for s in seeds])
    if conflicts:
        problems.append(f"miniwob.first_seed: {conflicts[:3]} are BrowserGym benchmark pages")
    if problems:
        raise FormatError("eval select: " + "; ".join(problems))


def select(cfg: EvalConfig, evaluate: Any = None) -> dict[str, Any]:
    """Play the validation episodes per checkpoint, write select.json/.md; returns the
    selection. ``evaluate`` runs one eval config (``eval.run.main``; tests pass their own)."""
    from datagen.miniwob.config import playable_tasks
    from eval.run import main as run_eval

    tasks = cfg.miniwob.tasks or playable_tasks("train")
    check_select(cfg, tasks)
    evaluate = evaluate or run_eval
    out = Path(cfg.output_dir)
    mode = cfg.modes[0]
    rows: dict[str, dict[str, Any]] = {}
    for name, checkpoint in zip(checkpoint_names(cfg.checkpoints), cfg.checkpoints, strict=True):
        one = replace(cfg, checkpoint=checkpoint, policy="checkpoint", mode=mode,
                      output_dir=str(out / name), checkpoints=[],
                      miniwob=replace(cfg.miniwob, tasks=tasks))  # never the held-out tasks
        evaluate(one)
        episodes = [r for r in Journal(out / name / "episodes.jsonl").rows()
                    if r.get("run") == f"checkpoint/{mode}" and r["task"] in tasks]
        rows[name] = {"checkpoint": checkpoint, **checkpoint_figures(episodes)}
    winner = best(rows)
    selection = {"mode": mode, "tasks": tasks,
                 "seeds": [cfg.miniwob.first_seed,
                           cfg.miniwob.first_seed + cfg.miniwob.seeds_per_task - 1],
                 "winner": winner, "winner_checkpoint": rows[winner]["checkpoint"],
                 "checkpoints": rows}
    (out / SELECT_NAME).write_text(json.dumps(selection, indent=2) + "\n", encoding="utf-8")
    (out / REPORT_NAME).write_text(select_markdown(selection), encoding="utf-8")
    point_best(out / BEST_NAME, Path(rows[winner]["checkpoint"]))
    return selection


def point_best(link: Path, target: Path) -> None:
    """``<output_dir>/best`` -> the winner (what a chain's next stage evaluates), replaced
    atomically."""
    temporary = link.with_name(f".{link.name}.tmp")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(target.resolve(), target_is_directory=True)
    temporary.replace(link)


def checkpoint_names(paths: list[str]) -> list[str]:
    """Folder names for the checkpoints: the shortest tail of their paths that tells them apart
    (``outputs/r1/train``, ``outputs/r2/train`` -> ``r1_train``, ``r2_train``)."""
    parts = [Path(p).resolve().parts for p in paths]
    for k in range(1, max(len(p) for p in parts) + 1):
        names = ["_".join(p[-k:]) for p in parts]
        if len(set(names)) == len(names):
            return names
    return [f"{i}_{name}" for i, name in enumerate(names)]  # the same path twice


def checkpoint_figures(episodes: list[dict[str, Any]]) -> dict[str, Any]:
    """Success and steps overall, per task family (``click``, ``enter``, ``login`` ...) and task."""
    def figures(group: list[dict[str, Any]]) -> dict[str, Any]:
        n = len(group)
        return {"success": sum(bool(r["success"]) for r in group) / n if n else None,
                "episodes": n, "steps": sum(r["steps"] for r in group) / n if n else None,
                "seconds": sum(r["seconds"] for r in group) / n if n else None}

    return {**figures(episodes),
            "families": {k: figures(v) for k, v in
                         sorted(by(episodes, lambda r: family_of(r["task"])).items())},
            "tasks": {k: figures(v) for k, v in sorted(by(episodes, lambda r: r["task"]).items())}}


def best(rows: dict[str, dict[str, Any]]) -> str:
    """Highest success; ties: fewer steps per episode, then the later checkpoint."""
    order = list(rows)
    return max(order, key=lambda n: (rows[n]["success"] or 0.0, -(rows[n]["steps"] or 0.0),
                                     order.index(n)))


def select_markdown(selection: dict[str, Any]) -> str:
    rows = selection["checkpoints"]
    names = list(rows)
    first, last = names[0], names[-1]
    head = ["group", *names] + (["change"] if len(names) > 1 else [])
    lines = [(f"# Checkpoint selection ({selection['mode']}, validation seeds "
             f"{selection['seeds'][0]}..{selection['seeds'][1]})"), "",
             (f"Winner: **{selection['winner']}** ({selection['winner_checkpoint']}); success = "
             "raw reward >= 1, ties broken by fewer steps per episode."), "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def line(label: str, cells: list[dict[str, Any] | None]) -> str:
        shown = [_percent(c) for c in cells]
        if len(names) > 1:
            a, b = cells[0], cells[-1]
            shown.append(f"{(b['success'] - a['success']) * 100:+.0f} pts"
                         if a and b and a["success"] is not None and b["success"] is not None
                         else "")
        return f"| {label} | " + " | ".join(shown) + " |"

    lines.append(line("all", [rows[n] for n in names]))
    families = sorted({f for n in names for f in rows[n]["families"]})
    lines += [line(f, [rows[n]["families"].get(f) for n in names]) for f in families]
    lines += ["", "| checkpoint | steps/episode | s/episode |", "|---|---|---|"]
    lines += [f"| {n} | {_number(rows[n]['steps'])} | {_number(rows[n]['seconds'])} |"
              for n in names]
    lines += ["", f"Change: {last} against {first}.", ""]
    return "\n".join(lines)


def _percent(cell: dict[str, Any] | None) -> str:
    if not cell or cell["success"] is None:
        return ""
    return f"{cell['success'] * 100:.0f}% ({cell['episodes']})"


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"
