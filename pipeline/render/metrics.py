"""Compaction metrics: how much of a page each rendering keeps, in nodes, characters and tokens.

    row = compaction_metrics(state, page, {"flat": flat, "outline": outline}, raw_html=html,
                             timings={"capture": 412.0, "render": 3.1}, label="shop.html")
    print(format_table([row]))

Token counts come from ``pipeline.model.token_count`` (the real SmolLM2 tokenizer, or a labelled
character estimate when the package is missing); every row says which counted.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from pipeline.distill.model import DistilledPage
from pipeline.model.token_count import get_counter
from pipeline.page_state import PageState


@dataclass(slots=True)
class CompactionMetrics:
    label: str
    nodes: int  # nodes in the PageState
    kept: int  # nodes in the distilled tree
    refs: int
    chars: dict[str, int]  # per rendering ("raw" for the raw HTML when given)
    tokens: dict[str, int]
    tokenizer: str
    tokens_exact: bool
    distill_ms: float
    timings: dict[str, float] = field(default_factory=dict)  # caller's stages, e.g. capture
    passes: list[dict[str, Any]] = field(default_factory=list)  # name, removed, ms, skipped
    warnings: list[str] = field(default_factory=list)  # the page's degradations (state.meta)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def compaction_metrics(
    state: PageState,
    page: DistilledPage,
    renderings: dict[str, str],
    *,
    raw_html: str | None = None,
    timings: dict[str, float] | None = None,
    label: str | None = None,
    tokenizer: str | None = None,
) -> CompactionMetrics:
    """Counts for one page: its renderings (name -> text) and, when given, its raw HTML."""
    counter = get_counter(tokenizer)
    texts = ({"raw": raw_html} if raw_html is not None else {}) | renderings
    return CompactionMetrics(
        label=label or state.url,
        nodes=len(state.nodes),
        kept=sum(1 for _ in page.root.walk()),
        refs=len(page.refs),
        chars={name: len(text) for name, text in texts.items()},
        tokens={name: counter.count(text) for name, text in texts.items()},
        tokenizer=counter.name,
        tokens_exact=counter.exact,
        distill_ms=round(sum(p.ms for p in page.report), 3),
        timings=dict(timings or {}),
        passes=[asdict(p) for p in page.report],
        warnings=list(state.meta.get("warnings") or []),
    )


def format_table(rows: list[CompactionMetrics]) -> str:
    """An aligned text table: page, nodes, kept, refs, chars and tokens per rendering, ms."""
    if not rows:
        return "(no pages)"
    texts = _union(row.chars for row in rows)
    stages = _union(row.timings for row in rows)
    header = (["page", "nodes", "kept", "refs"] + [f"{t} chars" for t in texts]
              + [f"{t} tok" for t in texts] + ["distill ms"] + [f"{s} ms" for s in stages])
    body = [
        [row.label, row.nodes, row.kept, row.refs]
        + [row.chars.get(t, "") for t in texts] + [row.tokens.get(t, "") for t in texts]
        + [f"{row.distill_ms:.1f}"] + [_ms(row.timings.get(s)) for s in stages]
        for row in rows
    ]
    cells = [header] + [[str(c) for c in line] for line in body]
    widths = [max(len(line[i]) for line in cells) for i in range(len(header))]
    lines = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths)))
        for line in cells
    ]
    counters = sorted({(r.tokenizer, r.tokens_exact) for r in rows})
    note = "; ".join(name if exact else f"{name}, an estimate" for name, exact in counters)
    warnings = [f"warning: {row.label}: {w}" for row in rows for w in row.warnings]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:],
                      f"tokens counted by {note}", *warnings])


def _union(dicts) -> list[str]:
    out: list[str] = []
    for d in dicts:
        out.extend(k for k in d if k not in out)
    return out


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"
