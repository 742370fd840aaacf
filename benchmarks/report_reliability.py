"""The reliability issue's sections of docs/BENCHMARKS.md: the hostile-input corpus through the
command line (before and after the reliability work) and the call parser on adversarial text.

    parts += reliability_sections(results)  # results: name -> JSON of benchmarks/results/<name>.json

Inputs: ``reliability`` and ``reliability-before`` (``benchmarks/reliability_benchmark.py``, the
second run on a checkout of the commit before the work) and ``codec``
(``benchmarks/codec_benchmark.py``).
"""

from __future__ import annotations

from typing import Any

from common import fmt, markdown_table

RELIABILITY_RESULTS = ("reliability", "reliability-before", "codec")
MISSING = "_`benchmarks/results/{name}.json` is missing: that benchmark has not run._"
VERDICT = {True: "met", False: "NOT met", None: "not measured"}
CORPUS_NOTE = (
    "Each case is one command in a fresh process on a generated hostile input "
    "(`benchmarks/adversarial.py`): `clean` = status 0 with all the input's content shown (or a "
    "reject naming its reason), or status 2 with one `error:` line; `traceback` = a Python "
    "traceback or another status; `hang` = no answer within the timeout; `silent` = status 0 "
    "with content missing and no warning. Peak MB is the largest child's resident memory."
)
CODEC_NOTE = (
    "Each pattern repeated to {size:,} characters; `uncapped` = `parse_calls(text, "
    "max_chars=None)` (the parser's own, linear cost), `capped` = the default 64 KB limit (what "
    "an agent meets: one `too_long` error). Best of {repeat} runs, ms."
)


def reliability_sections(results: dict[str, dict[str, Any] | None]) -> list[str]:
    targets = [t for name in ("reliability", "codec")
               for t in (results.get(name) or {}).get("targets", [])]
    out = ["## Targets (issue 14: reliability)", "",
           markdown_table(["target", "goal", "measured", "verdict", "gap"],
                          [[t["name"], t["target"], t["measured"], VERDICT[t["met"]],
                            t["gap"] or ""] for t in targets]), ""]
    out += corpus_section(results.get("reliability"), results.get("reliability-before"))
    return out + codec_section(results.get("codec"))


def corpus_section(after: dict[str, Any] | None, before: dict[str, Any] | None) -> list[str]:
    out = ["## Reliability corpus through the command line", ""]
    if after is None:
        return [*out, MISSING.format(name="reliability"), ""]
    out += [CORPUS_NOTE, "", f"Command: `{after['command']}` at `{after['commit']}`:", "",
            markdown_table(after["columns"], after["table"]), ""]
    if before is not None:
        title = (f"The same corpus before the reliability work (`{before['commit']}`; without "
                 "the 50 MB file, which joined the corpus later; that run's peak MB came from "
                 "`wait4`, which also counts the harness's own ~80 MB):")
        out += [title, "",
                markdown_table(before["columns"], before["table"]), ""]
    return out


def codec_section(codec: dict[str, Any] | None) -> list[str]:
    out = ["## Call parser on adversarial model output", ""]
    if codec is None:
        return [*out, MISSING.format(name="codec"), ""]
    rows = [[f"`{row['pattern']!r}`", row["uncapped_ms"], row["outcome"],
             fmt(row["capped_ms"], 2), row["capped_outcome"]] for row in codec["rows"]]
    return [*out, CODEC_NOTE.format(size=codec["size"], repeat=codec["repeat"]), "",
            f"Command: `{codec['command']}` at `{codec['commit']}`:", "",
            markdown_table(["pattern", "uncapped ms", "outcome", "capped ms", "capped outcome"],
                           rows), ""]
