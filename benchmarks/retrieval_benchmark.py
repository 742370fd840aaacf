"""Retrieval from the instruction alone, and what a query_only step costs in tokens.

    python benchmarks/retrieval_benchmark.py [--cases benchmarks/data/retrieval_cases.jsonl]
                                             [--out benchmarks/results/retrieval.json]

1. Recall@1/5/10/20 over the labelled cases (``benchmarks/data/retrieval_cases.jsonl``, fixture
   pages and seeded MiniWoB++ pages captured live): the query is built from the instruction
   alone (``pipeline.query.instruction.query_from_instruction``: keywords and a role guess, no
   knowledge of the target) and run with ``query_elements``; a case counts at k when its target's
   ref is among the first k results. A second, plainer query — the whole instruction as ``text``
   — is reported beside it. Targets (issue 3): Recall@10 >= 95%, Recall@1 >= 60%.
2. Tokens per page of a ``query_only`` observation plus one query result (the first case's query
   on that page) against the ``full`` observation (the flat page). Target: at most 15% of
   ``full`` on pages with more than 300 interactive elements.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from common import finish, machine_info, print_table
from retrieval_cases import DEFAULT_PATH, iter_loaded_cases, load_cases
from targets import Target
from tqdm import tqdm

from pipeline.agent.observe import observe
from pipeline.model.token_count import count_tokens, tokenizer_name
from pipeline.query import query_elements
from pipeline.query.instruction import query_from_instruction

KS = (1, 5, 10, 20)
RECALL_TARGETS = {1: 0.60, 10: 0.95}
TOKEN_SHARE_TARGET = 0.15
LARGE_PAGE_REFS = 300


def rank_of(target: int, refs: list[int]) -> int | None:
    return refs.index(target) + 1 if target in refs else None


def recall(ranks: list[int | None]) -> dict[int, float]:
    return {k: sum(1 for r in ranks if r is not None and r <= k) / len(ranks) for k in KS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", default=str(DEFAULT_PATH))
    parser.add_argument("--out", default="benchmarks/results/retrieval.json")
    args = parser.parse_args()
    cases = load_cases(args.cases)
    rows, pages = [], {}
    for loaded in tqdm(iter_loaded_cases(cases), total=len(cases), desc="cases", unit="case"):
        case, page, target = loaded.case, loaded.page, loaded.target_ref
        plan = query_from_instruction(case.instruction)
        planned = query_elements(page, **plan.arguments)
        plain = query_elements(page, text=case.instruction, max_results=20)
        rows.append({
            "id": case.id, "page": case.page, "op": case.op, "instruction": case.instruction,
            "target": target, "query": plan.arguments, "op_guess": plan.op,
            "rank": rank_of(target, planned.refs), "rank_plain": rank_of(target, plain.refs),
        })
        key = case.page_key
        if key not in pages:
            full = observe(page, "full").tokens
            query_only = observe(page, "query_only").tokens + count_tokens(planned.text)
            pages[key] = {"page": case.page, "refs": len(page.refs), "full": full,
                          "query_only+result": query_only, "share": query_only / full}
    report(rows, list(pages.values()))
    summary = summarise(rows, list(pages.values()))
    finish({"machine": machine_info(), "tokenizer": tokenizer_name(), "cases": rows,
            "pages": list(pages.values()), "summary": summary,
            "targets": [t.to_dict() for t in targets(summary, list(pages.values()))]}, args.out)


def targets(summary: dict, pages: list[dict]) -> list[Target]:
    """Issue 3's retrieval and token targets, as Target rows for docs/BENCHMARKS.md."""
    found = summary["all"]["planned"]
    out = []
    for k, goal in RECALL_TARGETS.items():
        met = found[k] >= goal
        out.append(Target(
            f"Recall@{k}, query from the instruction alone ({summary['all']['cases']} cases)",
            f">= {goal:.0%}", f"{found[k]:.1%} (plain text query: "
            f"{summary['all']['plain'][k]:.1%})", met,
            "" if met else f"{goal - found[k]:.1%} short"))
    large = [p for p in pages if p["refs"] > LARGE_PAGE_REFS]
    worst = max(large, key=lambda p: p["share"], default=None)
    out.append(Target(
        f"query_only observation + one result, pages > {LARGE_PAGE_REFS} refs",
        f"<= {TOKEN_SHARE_TARGET:.0%} of the full observation",
        "no such page" if worst is None else
        f"{worst['share']:.1%} on {worst['page']} ({worst['query_only+result']:,} vs "
        f"{worst['full']:,} tokens)",
        None if worst is None else worst["share"] <= TOKEN_SHARE_TARGET))
    return out


def summarise(rows: list[dict], pages: list[dict]) -> dict:
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        groups["all"].append(row)
        groups["miniwob" if row["page"].startswith("mw:") else "fixtures"].append(row)
        groups[f"op={row['op']}"].append(row)
    summary = {
        name: {"cases": len(group), "planned": recall([r["rank"] for r in group]),
               "plain": recall([r["rank_plain"] for r in group]),
               "op_guess_accuracy": sum(r["op_guess"] == r["op"] for r in group) / len(group)}
        for name, group in groups.items()
    }
    large = [p for p in pages if p["refs"] > LARGE_PAGE_REFS]
    summary["token_share_large_pages"] = max((p["share"] for p in large), default=None)
    summary["targets"] = {
        **{f"recall@{k} >= {v:.0%}": summary["all"]["planned"][k] >= v
           for k, v in RECALL_TARGETS.items()},
        f"query_only+result <= {TOKEN_SHARE_TARGET:.0%} of full (pages > {LARGE_PAGE_REFS} refs)":
            bool(large) and all(p["share"] <= TOKEN_SHARE_TARGET for p in large),
    }
    return summary


def report(rows: list[dict], pages: list[dict]) -> None:
    summary = summarise(rows, pages)
    table = []
    for name, group in summary.items():
        if not isinstance(group, dict) or "planned" not in group:
            continue
        for method in ("planned", "plain"):
            table.append([name, method, group["cases"],
                          *(100 * group[method][k] for k in KS)])
    print_table("Recall@k (%) of the target, query from the instruction alone",
                ["cases", "query", "n", *(f"R@{k}" for k in KS)], table)
    print_table("Tokens: query_only observation + one query result vs full observation",
                ["page", "refs", "full", "query_only+result", "share %"],
                [[p["page"], p["refs"], p["full"], p["query_only+result"], 100 * p["share"]]
                 for p in sorted(pages, key=lambda p: -p["refs"])])
    misses = [r for r in rows if r["rank"] is None or r["rank"] > 10]
    print_table("Cases whose target is not in the top 10",
                ["id", "rank", "instruction"],
                [[r["id"], r["rank"], r["instruction"][:80]] for r in misses])
    for target, met in summary["targets"].items():
        print(f"target {target}: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
