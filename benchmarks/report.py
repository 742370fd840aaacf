"""Write docs/BENCHMARKS.md from the JSON the benchmark scripts wrote (real runs only).

    python benchmarks/report.py [--results benchmarks/results] [--out docs/BENCHMARKS.md]

Sections: the machine, the commands, the per-page tables (pagescout; pagescout vs browser-use),
the scale numbers (raw_html parsing, PageState memory, RSS over repeated captures) and every
target of issue 2 with met / not met and the gap. A result file that is missing is named as such.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from common import REPO, markdown_table
from planner_benchmark import drops_cell
from report_eval import EVAL_RESULTS, eval_sections
from report_oracle import ORACLE_RESULTS, oracle_section
from report_recipe import RECIPE_RESULTS, recipe_section
from report_reliability import RELIABILITY_RESULTS, reliability_sections
from report_serve import SERVE_RESULTS, backends_section, serve_section
from report_unseen import UNSEEN_RESULTS, unseen_sections
from targets import per_1000_nodes

RESULTS = ("serializer", "html", "memory", "query", "retrieval", "datagen", "planner", "training")
ISSUE_OF = {"serializer": 2, "html": 2, "memory": 2, "query": 3, "retrieval": 3, "datagen": 4,
            "planner": 3, "training": 5}


def load_results(folder: Path) -> dict[str, dict[str, Any] | None]:
    out = {}
    for name in (RESULTS + EVAL_RESULTS + UNSEEN_RESULTS + RELIABILITY_RESULTS + SERVE_RESULTS
                 + ORACLE_RESULTS + RECIPE_RESULTS):
        path = folder / f"{name}.json"
        out[name] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    return out


def runs_line(results: dict[str, dict[str, Any] | None]) -> str:
    """Which commit each result measured and how loaded the shared machine was."""
    runs = [
        f"{name} at `{r.get('commit', 'unknown')}` (1-minute load average "
        f"{r['machine'].get('load_avg_1m', 'not recorded')})"
        for name, r in results.items()
        if r and "machine" in r
    ]
    return "Runs: " + "; ".join(runs) + "."


def machine_section(machine: dict[str, Any]) -> str:
    packages = ", ".join(f"{k} {v}" for k, v in machine["packages"].items() if v)
    return "\n".join([
        "## Machine",
        "",
        f"- CPU: {machine['cpu']}, {machine['cores']} cores, shared with other jobs",
        f"- RAM: {machine['ram_gb']} GB; OS: {machine['os']}",
        f"- Browser: {machine['chromium']} (headless, flags from FACTS.md)",
        f"- Python {machine['python']}; {packages}",
        f"- Peer: browser-use {machine['browser_use'] or '(not installed)'} in its own venv",
    ])


def pagescout_table(pages: list[dict[str, Any]]) -> str:
    ok = [p for p in pages if "error" not in p]
    return markdown_table(
        ["page", "nodes", "refs", "raw HTML tok", "flat tok", "outline tok", "outline step 2",
         "capture ms", "distill ms", "flat ms", "outline ms", "ms / 1k nodes", "visible kept"],
        [[p["name"], p["nodes"], p["refs"], p["raw"]["tokens"], p["flat"]["tokens"],
          p["outline"]["tokens"], p["outline_step2"]["tokens"], p["capture_ms"], p["distill_ms"],
          p["flat_ms"], p["outline_ms"], per_1000_nodes(p),
          f"{p['coverage']['kept_merged']}/{p['coverage']['visible_interactive']}"] for p in ok],
    )


def peer_table(pages: list[dict[str, Any]]) -> str:
    both = [p for p in pages if "time_ratio" in p]
    if not both:
        return "_browser-use did not run in this result file._"
    return markdown_table(
        ["page", "pagescout ms", "browser-use ms", "time ratio", "flat tok", "browser-use tok",
         "token ratio", "pagescout kept", "browser-use kept", "browser-use indexed"],
        [[p["name"], p["capture_ms"] + p["distill_ms"] + p["flat_ms"], p["peer"]["ms"],
          p["time_ratio"], p["flat"]["tokens"], p["peer"]["tokens"], p["token_ratio"],
          _kept(p["coverage"]), _kept(p["peer"]["coverage"]), p["peer"]["interactive_count"]]
         for p in both],
    )


def _kept(cov: dict[str, Any]) -> str:
    return f"{cov['kept_merged']}/{cov['visible_interactive']}"


def targets_table(results: dict[str, dict[str, Any] | None], issue: int) -> str:
    rows = []
    for name in (n for n in RESULTS if ISSUE_OF[n] == issue):
        for t in (results[name] or {}).get("targets", []):
            verdict = {True: "met", False: "NOT met", None: "not measured"}[t["met"]]
            rows.append([t["name"], t["target"], t["measured"], verdict, t["gap"] or ""])
    return markdown_table(["target", "goal", "measured", "verdict", "gap"], rows)


def scale_section(results: dict[str, dict[str, Any] | None]) -> str:
    lines = ["## Scale: raw_html parsing, memory, RSS", ""]
    for name in ("html", "memory"):
        result = results[name]
        if result is None:
            lines += [MISSING.format(name=name), ""]
            continue
        lines += [f"Command: `{result['command']}`", ""]
        lines += [markdown_table(["measure", "value"], result["table"]), ""]
    return "\n".join(lines)


INTRO = (
    "Written by `python benchmarks/report.py` from the JSON in `benchmarks/results/`; every "
    "number comes from a real run of the command printed with its table."
)
REPRODUCE = """To reproduce (the first command also runs on demand from the serializer benchmark):

```
bash benchmarks/peers/setup_browser_use.sh      # browser-use in .cache/peers/browser-use/venv
.venv/bin/python benchmarks/serializer_benchmark.py
.venv/bin/python benchmarks/html_benchmark.py
.venv/bin/python benchmarks/memory_benchmark.py
.venv/bin/python benchmarks/query_benchmark.py
.venv/bin/python benchmarks/retrieval_benchmark.py
.venv/bin/python benchmarks/datagen_benchmark.py
.venv/bin/python benchmarks/planner_benchmark.py   # after the recipe's record stage
.venv/bin/python benchmarks/training_benchmark.py --speed bf16 fp32 --weights 5 --curves 5 1
.venv/bin/python benchmarks/serve_benchmark.py
.venv/bin/python benchmarks/oracle_benchmark.py --seeds 20
.venv/bin/python benchmarks/agent_benchmark.py
.venv/bin/python benchmarks/eval_benchmark.py --name miniwob --config configs/eval/miniwob.yaml
.venv/bin/python benchmarks/eval_benchmark.py --name mind2web_miniwob --config configs/eval/mind2web-miniwob.yaml
bash scripts/setup_browsergym.sh                # BrowserGym in its own venv
.venv/bin/python benchmarks/eval_benchmark.py --name browsergym --config configs/eval/browsergym.yaml
.venv/bin/python benchmarks/unseen_benchmark.py --before benchmarks/results/unseen_before.json
.venv/bin/python benchmarks/reliability_benchmark.py
.venv/bin/python benchmarks/codec_benchmark.py
.venv/bin/python benchmarks/report.py           # rewrites this file
```"""
SERIALIZER_NOTE = (
    "Command: `{command}` (medians of {repeat} runs per page; MiniWoB++ episodes seeded with "
    "{seed}; tokens by {tokenizer}). `nodes` is the PageState's node table, `refs` the "
    "interactive elements indexed, `visible kept` the visible interactive elements (in-page "
    "ground truth, `benchmarks/js/visible_interactive.js`) that carry a ref themselves or sit "
    "inside an indexed ancestor."
)
PEER_NOTE = (
    "pagescout ms = capture + distill + flat render; browser-use ms = "
    "`DomService.get_serialized_dom_tree` (viewport_threshold=None) + `llm_representation()`. "
    "Ratios are pagescout / browser-use; overall time ratio {time}, token ratio {tokens}."
)
RETRIEVAL_NOTE = (
    "Command: `{command}`. Labelled cases: `benchmarks/data/retrieval_cases.jsonl` (fixture pages "
    "and seeded MiniWoB++ pages, captured live). `planned`: "
    "`pipeline.query.instruction.query_from_instruction` (operation guess, value split off, "
    "keywords, role); `plain`: the whole instruction as `text`. Recall@k in %."
)
TOKENS_NOTE = (
    "Tokens of a `query_only` observation plus one query result vs the `full` observation "
    "(largest pages):"
)
DATAGEN_RECALL_NOTE = (
    "Recall@k (%) of the target on the recorded steps: a query built from the whole task "
    "(`query_from_instruction`, the same query for every step of a task), from the task's clause "
    "at the step's position (`query_for_step`), and the oracle teacher's last query:"
)
PLANNER_NOTE = (
    "Command: `{command}` (the recorded episodes in `{records}`, built in the `planned` mode by "
    "the engine of the commit). Where the oracle's target sits among the candidates a planned "
    "step lists, on the action turns a student learns: `first` is candidate [1], `listed` "
    "another candidate, `missing` none of them (the student has to query), `no_element` a key "
    "press or done; `drops first`: a drag's drop onto the first place the step lists after the "
    "dragged element:"
)
MISSING = "_`benchmarks/results/{name}.json` is missing: that benchmark has not run._"
NOTES = Path(__file__).with_name("NOTES.md")


def serializer_section(ser: dict[str, Any] | None) -> list[str]:
    if ser is None:
        return [MISSING.format(name="serializer"), ""]
    overall = ser["overall"]
    return [
        "## Serializer: pagescout on the fixture and MiniWoB++ pages", "",
        SERIALIZER_NOTE.format(**ser), "",
        pagescout_table(ser["pages"]), "",
        "## pagescout vs browser-use (same pages, same run, whole page)", "",
        PEER_NOTE.format(time=_fmt(overall["time_ratio"]), tokens=_fmt(overall["token_ratio"])),
        "",
        peer_table(ser["pages"]), "",
    ]


def query_section(query: dict[str, Any] | None) -> list[str]:
    if query is None:
        return ["", MISSING.format(name="query")]
    rows = [[r["page"], r["nodes"], r["refs"], r["build_cold_p50"], r["build_p50"],
             r["build_p95"], r["query_p50"], r["query_p95"]] for r in query["rows"]]
    note = (f"Command: `{query['command']}` — {len(query['queries'])} query types, index build "
            "cold (word caches cleared) and warm.")
    return ["", "## Query engine latency (ms)", "", note, "",
            markdown_table(["page", "nodes", "refs", "build cold", "build p50", "build p95",
                            "query p50", "query p95"], rows)]


def retrieval_section(retrieval: dict[str, Any] | None) -> list[str]:
    if retrieval is None:
        return ["", MISSING.format(name="retrieval")]
    summary = retrieval["summary"]
    rows = [[name, group["cases"], method, *(100 * group[method][k] for k in ("1", "5", "10", "20"))]
            for name, group in summary.items() if isinstance(group, dict) and "planned" in group
            for method in ("planned", "plain")]
    pages = sorted(retrieval["pages"], key=lambda p: -p["refs"])[:8]
    return ["", "## Retrieval from the instruction alone", "",
            RETRIEVAL_NOTE.format(command=retrieval["command"]), "",
            markdown_table(["cases", "n", "query", "R@1", "R@5", "R@10", "R@20"], rows), "",
            TOKENS_NOTE, "",
            markdown_table(["page", "refs", "full", "query_only + result", "share %"],
                           [[p["page"], p["refs"], p["full"], p["query_only+result"],
                             100 * p["share"]] for p in pages])]


def datagen_section(datagen: dict[str, Any] | None) -> list[str]:
    if datagen is None:
        return ["", MISSING.format(name="datagen")]
    manifest, throughput = datagen["manifest"], datagen["throughput"]
    stages = [[s["stage"], s["passed"], s["failed"], s["skipped"],
               None if s["pass_rate"] is None else 100 * s["pass_rate"]]
              for s in manifest["verify"]["stages"]]
    recall = [[name, *(100 * datagen["retrieval"][name][k] for k in ("1", "5", "10", "20"))]
              for name in ("task_only", "task_and_step", "oracle")]
    record = datagen["record_seconds"]
    recorded = f"{record:.0f} s" if record else "reused"
    note = (f"Command: `{datagen['command']}` — record ({recorded})"
            f" then build ({datagen['build_seconds']} s) with `configs/datagen/miniwob.yaml`: "
            f"{manifest['accepted']:,} accepted trajectories over {manifest['websites']} tasks "
            f"({', '.join(f'{k} {v}' for k, v in sorted(manifest['splits'].items()))}). "
            f"Throughput without LLM calls, one process: {throughput['steps_per_s_per_core']} "
            f"steps/s per core, peak RSS {throughput['peak_rss_mb']} MB.")
    return ["", "## Datagen on recorded MiniWoB++ episodes", "", note, "",
            markdown_table(["stage", "passed", "failed", "skipped", "pass rate %"], stages), "",
            DATAGEN_RECALL_NOTE, "",
            markdown_table(["query", "R@1", "R@5", "R@10", "R@20"], recall)]


def planner_section(planner: dict[str, Any] | None) -> list[str]:
    if planner is None:
        return ["", MISSING.format(name="planner")]
    kinds = ("first", "listed", "missing", "no_element")
    runs = [(f"`{planner['commit']}`", planner["summary"])]
    if "before" in planner:
        runs.append((f"`{planner['before']['commit']}`", planner["before"]["summary"]))
    rows = [[commit, s["turns"], *(s[k] for k in kinds), 100 * s["first_share"], drops_cell(s)]
            for commit, s in runs]
    return ["", "## The planner's first candidate on the recorded training turns", "",
            PLANNER_NOTE.format(command=planner["command"], records=planner["records"]), "",
            markdown_table(["engine", "turns", *kinds, "first %", "drops first"], rows)]



W_CURVES_NOTE = ("W=1 against W=5 (short runs of the same config with `max_steps=60`, evaluated "
                 "every 10 steps: token accuracy on 32 conversations, 8 generated turns):")
CURVES_NOTE = ("Held-out metrics at each evaluation (generation on 32 sampled turns in the "
               "quality run, 8 in the short runs; a quality run's last row is its final "
               "evaluation over every turn):")
TRAINING_QUALITY = ("eval_functional_token_accuracy", "eval_valid_call_rate",
                    "eval_exact_call_match", "eval_exact_query_call", "eval_exact_action_call")


TOKEN_ROWS_NOTE = (
    "Trainable token rows: seconds per training conversation (forward and backward, the LM head "
    "on the answer positions) with `pipeline/model/token_rows.py`'s forward and with peft's (a merged "
    "copy of the vocabulary matrix), on the same conversations, alternating in one process:")


def training_section(training: dict[str, Any] | None) -> list[str]:
    if training is None:
        return ["", MISSING.format(name="training")]
    runs = training["runs"]
    speed = [[Path(r["run"]).name, r["loss_weight"], r["precision"], r["steps"],
              r["seconds_per_step"], r["tokens_per_s"], r["peak_rss_mb"]] for r in runs]
    quality = [r for r in runs if r.get("kind", "quality") == "quality" and r["final"]]
    short = [r for r in runs if r.get("kind") == "curve"]
    reached = [[r["loss_weight"], r["steps"], r["evals"][0]["step"] if r["evals"] else None,
                r["steps_to_95_token_accuracy"],
                _percent(r["final"].get("eval_functional_token_accuracy"))] for r in short]
    finals = [[Path(r["run"]).name, r["loss_weight"], r.get("first_token_weight", 1.0), r["steps"],
               r["epochs"], r["train_minutes"], r["wall_minutes"],
               *(_percent(r["final"].get(k)) for k in TRAINING_QUALITY),
               int(r["final"].get("eval_generated", 0)), r["steps_to_95_token_accuracy"]]
              for r in quality]
    curves = [[Path(r["run"]).name, r["loss_weight"], e["step"], e.get("eval_loss"),
               *(_percent(e.get(k)) for k in TRAINING_QUALITY)]
              for r in quality + short for e in r["evals"]]
    machine = training["machine"]
    isa = ", ".join(machine.get("vector_isa") or []) or "not recorded"
    note = (f"Command: `{training['command']}` (config `configs/training/smollm2-135m-cpu.yaml`, "
            "datagen's MiniWoB++ dataset, held-out `test_task` episodes). Trained on "
            f"{machine['cpu']}, {machine['cores']} cores (vector instructions: {isa}; bf16 "
            "needs avx512_bf16 or amx_bf16, fp32 otherwise).")
    out = ["", "## Training: SmolLM2-135M-Instruct, LoRA, on this CPU", "", note, "",
           "Speed (optimizer steps only, evaluations excluded):", "",
           markdown_table(["run", "W", "precision", "steps", "s / step", "tokens / s",
                           "peak RSS MB"], speed), ""]
    rows = training.get("token_rows")
    if rows:
        out += [TOKEN_ROWS_NOTE, "",
                markdown_table(["conversations", "mean tokens", "row forward s",
                                "peft forward s", "speedup"],
                               [[rows["conversations"], rows["mean_tokens"], f"{rows['rows_s']:.3f}",
                                 f"{rows['peft_s']:.3f}", f"{rows['speedup']:.2f}x"]]), ""]
    if quality:
        out += ["Final held-out evaluation (every assistant turn of `test_task`, greedy):", "",
                markdown_table(["run", "W", "W first", "steps", "epochs", "train min", "wall min",
                                "functional-token acc %", "valid calls %", "exact calls %",
                                "exact query %", "exact action %", "turns",
                                "steps to 95% token acc"], finals), ""]
    if reached:
        out += [W_CURVES_NOTE, "",
                markdown_table(["W", "steps", "evaluated every", "steps to 95% token acc",
                                "functional-token acc % at the end"], reached), ""]
    for r in quality[-1:]:  # where the last quality run still fails
        sites = [[site, m["turns"], _percent(m["valid_call_rate"]), _percent(m["exact_call_match"])]
                 for site, m in (r.get("by_website") or {}).items()]
        if sites:
            out += [f"Final evaluation of `{Path(r['run']).name}` by website (worst first):", "",
                    markdown_table(["website", "turns", "valid calls %", "exact calls %"],
                                   sites), ""]
    if training.get("plot"):
        image = Path(training["plot"]).relative_to("docs")  # BENCHMARKS.md sits in docs/
        caption = training.get("plot_caption", "W=1 vs W=5, against steps")
        out += [f"![held-out metrics, {caption}]({image.as_posix()})", ""]
    if curves:
        out += [CURVES_NOTE, "",
                markdown_table(["run", "W", "step", "eval loss", "functional-token acc %",
                                "valid calls %", "exact calls %", "exact query %",
                                "exact action %"], curves)]
    return out


def _percent(value: float | None) -> float | None:
    return None if value is None else 100 * value


def build(results: dict[str, dict[str, Any] | None]) -> str:
    machine = next(r["machine"] for r in results.values() if r)
    parts = ["# Benchmarks", "", INTRO, "", runs_line(results), "", REPRODUCE, "",
             machine_section(machine), "",
             "## Targets (issue 2: the page-state engine)", "", targets_table(results, 2), "",
             "## Targets (issue 3: query tools)", "", targets_table(results, 3), "",
             "## Targets (issue 4: datagen)", "", targets_table(results, 4), "",
             "## Targets (issue 5: training)", "", targets_table(results, 5), ""]
    parts += serializer_section(results["serializer"])
    parts.append(scale_section(results))
    parts += query_section(results["query"]) + retrieval_section(results["retrieval"])
    parts += datagen_section(results["datagen"]) + planner_section(results["planner"])
    parts += training_section(results["training"])
    parts += ["", *eval_sections(results), *unseen_sections(results),
              *reliability_sections(results)]
    parts += ["", *serve_section(results["serve"])]
    parts += ["", *backends_section([results["backends_c1"], results["backends_c2"]])]
    parts += ["", *oracle_section(results["oracle"])]
    parts += ["", *recipe_section(results["recipe"], results["eval_recipe_winner"])]
    if NOTES.exists():
        parts += ["", "## Notes", "", NOTES.read_text(encoding="utf-8").strip()]
    return "\n".join(parts).rstrip() + "\n"


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=str(REPO / "benchmarks" / "results"))
    parser.add_argument("--out", default=str(REPO / "docs" / "BENCHMARKS.md"))
    args = parser.parse_args(argv)
    results = load_results(Path(args.results))
    if not any(results.values()):
        raise SystemExit(f"no results in {args.results}: run the benchmark scripts first")
    Path(args.out).write_text(build(results), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
