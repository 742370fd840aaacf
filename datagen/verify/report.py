"""Pass rates per verifier stage and counts per reject reason, from a list of Trajectories.

    report = build_report(trajectories)
    print_report(report)                           # a rich table on the terminal
    save_report(report, "outputs/datagen/run1")    # verify_report.json + verify_report.md

A stage's pass rate is passed / (passed + failed): trajectories it skipped (an earlier stage
failed, or the judge was off) are counted apart, never as passed. ``accepted`` counts the
trajectories no stage failed. Every non-pass verdict is counted by (stage, status, reason code)
with the first detail seen as an example. The websites (task families) that lost trajectories
are listed by the share they lost, with their commonest reason: a verifier that drops one kind
of step of one family every time (MiniWoB++'s terminal lost every typed ``ls`` to
``ungrounded_value`` for weeks, so no student learnt it) is a small count in the totals and the
top of this list.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from datagen.records import STAGES, Trajectory

EXAMPLE_CHARS = 120
MAX_WEBSITES = 10  # websites listed by the share of their trajectories rejected


@dataclass(slots=True)
class StageStats:
    stage: str
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    @property
    def pass_rate(self) -> float | None:
        judged = self.passed + self.failed
        return self.passed / judged if judged else None


@dataclass(slots=True)
class ReasonCount:
    stage: str
    status: str
    code: str
    count: int
    example: str


@dataclass(slots=True)
class WebsiteRejects:
    """A website's trajectories, how many a stage failed, and the commonest failing reason."""

    website: str
    total: int
    rejected: int
    reason: str

    @property
    def share(self) -> float:
        return self.rejected / self.total


@dataclass(slots=True)
class VerifyReport:
    total: int
    accepted: int
    unverified: int  # trajectories without verdicts
    stages: list[StageStats] = field(default_factory=list)
    reasons: list[ReasonCount] = field(default_factory=list)
    websites: list[WebsiteRejects] = field(default_factory=list)  # those that lost any

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.total, "accepted": self.accepted, "unverified": self.unverified,
            "stages": [asdict(s) | {"pass_rate": s.pass_rate} for s in self.stages],
            "reasons": [asdict(r) for r in self.reasons],
            "websites": [asdict(w) | {"share": round(w.share, 4)} for w in self.websites],
        }


def build_report(trajectories: Iterable[Trajectory]) -> VerifyReport:
    stats = {stage: StageStats(stage) for stage in STAGES}
    reasons: dict[tuple[str, str, str], ReasonCount] = {}
    per_website: Counter[str] = Counter()
    failing: dict[str, Counter[str]] = {}
    total = accepted = unverified = 0
    for trajectory in trajectories:
        total += 1
        unverified += not trajectory.verdicts
        accepted += trajectory.accepted
        per_website[trajectory.website] += 1
        for verdict in trajectory.verdicts:
            counts = stats[verdict.stage]
            setattr(counts, _FIELD[verdict.status], getattr(counts, _FIELD[verdict.status]) + 1)
            if verdict.status == "pass":
                continue
            key = (verdict.stage, verdict.status, verdict.code or "(none)")
            if verdict.status == "fail":  # a failed stage skips the later ones: one a trajectory
                failing.setdefault(trajectory.website, Counter())[key[2]] += 1
            if key not in reasons:
                example = verdict.reason.partition(":")[2].strip()[:EXAMPLE_CHARS]
                reasons[key] = ReasonCount(*key, 0, example)
            reasons[key].count += 1
    ordered = sorted(reasons.values(),
                     key=lambda r: (STAGES.index(r.stage), r.status != "fail", -r.count, r.code))
    websites = [WebsiteRejects(site, per_website[site], sum(codes.values()),
                               codes.most_common(1)[0][0]) for site, codes in failing.items()]
    websites.sort(key=lambda w: (-w.share, -w.rejected, w.website))
    return VerifyReport(total, accepted, unverified, list(stats.values()), ordered, websites)


def to_markdown(report: VerifyReport) -> str:
    lines = [f"Verified {report.total} trajectories: {report.accepted} accepted"
             + (f", {report.unverified} without verdicts" if report.unverified else ""), "",
             "| stage | passed | failed | skipped | pass rate |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {s.stage} | {s.passed} | {s.failed} | {s.skipped} | {_rate(s.pass_rate)} |"
              for s in report.stages]
    if report.reasons:
        lines += ["", "| stage | status | reason | count | example |", "|---|---|---|---:|---|"]
        lines += [f"| {r.stage} | {r.status} | {r.code} | {r.count} | {_cell(r.example)} |"
                  for r in report.reasons]
    if report.websites:
        lines += ["", "| website | rejected | of | share | commonest reason |",
                  "|---|---:|---:|---:|---|"]
        lines += [f"| {_cell(w.website or '(none)')} | {w.rejected} | {w.total} | "
                  f"{_rate(w.share)} | {w.reason} |" for w in report.websites[:MAX_WEBSITES]]
    return "\n".join(lines) + "\n"


def print_report(report: VerifyReport, console: Any = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    stages = Table(title=f"Verifier: {report.accepted}/{report.total} accepted")
    for column in ("stage", "passed", "failed", "skipped", "pass rate"):
        stages.add_column(column, justify="left" if column == "stage" else "right")
    for s in report.stages:
        stages.add_row(s.stage, str(s.passed), str(s.failed), str(s.skipped), _rate(s.pass_rate))
    console.print(stages)
    if report.reasons:
        reasons = Table(title="Reasons")
        for column in ("stage", "status", "reason", "count", "example"):
            reasons.add_column(column, justify="right" if column == "count" else "left")
        for r in report.reasons:
            reasons.add_row(r.stage, r.status, r.code, str(r.count), r.example)
        console.print(reasons)
    if report.websites:
        websites = Table(title="Rejected by website")
        for column in ("website", "rejected", "of", "share", "commonest reason"):
            left = column in ("website", "commonest reason")
            websites.add_column(column, justify="left" if left else "right")
        for w in report.websites[:MAX_WEBSITES]:
            websites.add_row(w.website or "(none)", str(w.rejected), str(w.total),
                             _rate(w.share), w.reason)
        console.print(websites)


def save_report(report: VerifyReport, out_dir: str | Path,
                name: str = "verify_report") -> tuple[Path, Path]:
    """Write ``<name>.json`` and ``<name>.md`` into ``out_dir``; returns both paths."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    json_path, md_path = folder / f"{name}.json", folder / f"{name}.md"
    json_path.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    md_path.write_text(to_markdown(report), encoding="utf-8")
    return json_path, md_path


_FIELD = {"pass": "passed", "fail": "failed", "skipped": "skipped"}


def _rate(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
