"""What an agent step costs in each mode, by page size: the prompt a trained student reads when
it writes the step's action, with the oracle's queries (and, optionally, a checkpoint's).

    python benchmarks/agent_benchmark.py [--policy oracle|checkpoint] [--checkpoint RUN]
                                         [--out benchmarks/results/agent.json]

Every labelled retrieval case (``benchmarks/data/retrieval_cases.jsonl``: fixture pages and
seeded MiniWoB++ pages captured live, from 5 to 400+ interactive elements) becomes a step: the
case's instruction, its target as the positive. The policy plays it through the agent loop
(``pipeline.agent.loop.play_step``) in ``full``, ``hybrid`` and ``query_only`` mode; the prompt of
the turn that writes the action is rendered exactly as training renders it (brief system prompt,
no tool list, SmolLM2's chat template and tokenizer) and counted -- that is what one step costs the
model, queries and their results included. Also whether the action hit the target and how many
queries it took. Target (the eval issue): query_only <= 15% of full on pages with > 300
interactive elements.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import defaultdict

from common import finish, machine_info, print_table
from retrieval_cases import DEFAULT_PATH, iter_loaded_cases, load_cases
from tqdm import tqdm

from datagen.records import Operation, Step
from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.agent.loop import StepLimits, play_step
from pipeline.agent.modes import MODES
from pipeline.agent.policy import Situation
from pipeline.model.render import render_prompt

LARGE_PAGE_REFS = 300
SHARE_TARGET = 0.15
BUCKETS = ((0, 50), (50, 150), (150, 300), (300, 10**9))


async def _offline(call, page):
    return execute_offline(call, page)


def action_prompt_tokens(messages: list[dict], tokenizer) -> int:
    """Tokens of the prompt that produced the last assistant turn, as training renders it."""
    last = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return len(render_prompt(messages[:last], tokenizer, max_length=10**6))


def student_tokenizer():
    """SmolLM2's tokenizer with the functional tokens, as a trained checkpoint holds it."""
    from transformers import AutoTokenizer

    from pipeline.model.hf import resolve_model
    from pipeline.tools import functional_tokens

    tokenizer = AutoTokenizer.from_pretrained(str(resolve_model(None)))
    tokenizer.add_tokens(functional_tokens(), special_tokens=True)
    return tokenizer


def make_policy(name: str, checkpoint: str):
    if name == "oracle":
        from eval.baselines import OraclePolicy

        return OraclePolicy()
    from pipeline.agent.model_policy import load_model_policy

    return load_model_policy(checkpoint)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", default=str(DEFAULT_PATH))
    parser.add_argument("--policy", choices=("oracle", "checkpoint"), default="oracle")
    parser.add_argument("--checkpoint", default="runs/training/smollm2-135m-cpu")
    parser.add_argument("--out", default="benchmarks/results/agent.json")
    args = parser.parse_args()
    tokenizer = student_tokenizer()
    policy = make_policy(args.policy, args.checkpoint)
    limits = StepLimits(max_tool_calls=6)
    rows = []
    cases = load_cases(args.cases)
    for loaded in tqdm(iter_loaded_cases(cases), total=len(cases), desc="cases", unit="case"):
        case, page, target = loaded.case, loaded.page, loaded.target_ref
        step = Step(step_id=case.id, task=case.instruction, history=[],
                    positives=[page.backend_id(target)],
                    operation=Operation(case.op, case.value or ""), source="benchmark",
                    annotation_id=case.id, action_uid=case.id, step_index=0, website=case.page,
                    page=page.state)
        for mode in MODES:
            situation = Situation(step.task, [], mode, opening(step.task, [], page, mode), page,
                                  step)
            outcome = asyncio.run(play_step(policy, situation, _offline, limits))
            acted = outcome.action is not None
            rows.append({
                "case": case.id, "page": case.page, "refs": len(page.refs), "mode": mode,
                "hit": acted and outcome.action.arguments.get("index") == target,
                "queries": outcome.queries,
                "prompt_tokens": action_prompt_tokens(outcome.messages, tokenizer)
                if acted else None})
    pages = per_page(rows)
    report(rows, pages)
    finish({"machine": machine_info(), "policy": args.policy, "rows": rows, "pages": pages,
            "targets": targets(pages)}, args.out)


def per_page(rows: list[dict]) -> list[dict]:
    by_page: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    refs: dict[str, int] = {}
    for row in rows:
        refs[row["page"]] = row["refs"]
        if row["prompt_tokens"] is not None:
            by_page[row["page"]][row["mode"]].append(row["prompt_tokens"])
    out = []
    for page, modes in by_page.items():
        mean = {m: sum(v) / len(v) for m, v in modes.items() if v}
        share = mean.get("query_only", 0) / mean["full"] if mean.get("full") else None
        out.append({"page": page, "refs": refs[page], **{m: round(t, 1) for m, t in mean.items()},
                    "query_only_share": share})
    return sorted(out, key=lambda p: -p["refs"])


def targets(pages: list[dict]) -> dict:
    large = [p for p in pages if p["refs"] > LARGE_PAGE_REFS and p["query_only_share"]]
    worst = max((p["query_only_share"] for p in large), default=None)
    return {"pages_over_300_refs": len(large), "worst_query_only_share": worst,
            f"query_only <= {SHARE_TARGET:.0%} of full": worst is not None and
            worst <= SHARE_TARGET}


def report(rows: list[dict], pages: list[dict]) -> None:
    print_table("Prompt tokens of the action turn, by page (mean over the page's cases)",
                ["page", "refs", "full", "hybrid", "query_only", "query_only/full %"],
                [[p["page"], p["refs"], p.get("full"), p.get("hybrid"), p.get("query_only"),
                  None if p["query_only_share"] is None else 100 * p["query_only_share"]]
                 for p in pages])
    table = []
    for low, high in BUCKETS:
        for mode in MODES:
            group = [r for r in rows if low <= r["refs"] < high and r["mode"] == mode]
            tokens = [r["prompt_tokens"] for r in group if r["prompt_tokens"] is not None]
            if group:
                table.append([f"{low}-{high if high < 10**9 else '...'}", mode, len(group),
                              sum(tokens) / len(tokens) if tokens else None,
                              100 * sum(r["hit"] for r in group) / len(group),
                              sum(r["queries"] for r in group) / len(group)])
    print_table("By page size (interactive elements)",
                ["refs", "mode", "steps", "prompt tokens", "hit %", "queries"], table)
    print(targets(pages))


if __name__ == "__main__":
    main()
