"""The APIGen-style verifier: three stages, one Verdict each, on every Trajectory.

    1 format      the calls parse, name registry tools, validate; one call per turn, results in
                  place, the conversation ends with its one action          (format_stage)
    2 execution   the queries re-run on the step's page give the recorded results, the target is
                  retrieved in the top k, the action was shown, hits a positive, matches the
                  step's operation and value, typed text the model read      (execution_stage)
    3 semantic    an LLM judge says the calls follow from the task          (semantic_stage)

    from datagen.verify import VerifyConfig, verify, verify_batch, make_judge
    checked = verify(trajectory, step, page, VerifyConfig())         # judge off: stage 3 skipped
    judge = make_judge(config.judge)                                 # load a judge once ...
    checked = verify_batch([(trajectory, step, page), ...], config, judge)   # ... and batch it

A failed stage skips the later ones (``skipped``, reason ``earlier_stage_failed``), so no judge
call is spent on a trajectory that is already rejected; a judge that is off records ``skipped``
with reason ``judge_off``, never ``pass``. ``page`` is the step's DistilledPage (the one the
teacher's tools ran on). Verification is pure apart from the judge: the input Trajectory is not
changed, a copy with the three verdicts is returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from datagen.records import Step, Trajectory, Verdict
from datagen.verify.config import JudgeConfig, VerifyConfig
from datagen.verify.execution_stage import check_execution
from datagen.verify.format_stage import Conversation, check_format
from datagen.verify.judges import Judge, JudgeAnswer, LocalJudge, OpenAIJudge, make_judge
from datagen.verify.semantic_stage import judge_prompt, semantic_verdict
from pipeline.distill.model import DistilledPage

EARLIER_FAILED = "earlier_stage_failed"
JUDGE_OFF = "judge_off"
Item = tuple[Trajectory, Step, DistilledPage]

__all__ = [
    "Judge", "JudgeAnswer", "JudgeConfig", "LocalJudge", "OpenAIJudge", "VerifyConfig",
    "make_judge", "verify", "verify_batch",
]


def verify(trajectory: Trajectory, step: Step, page: DistilledPage, config: VerifyConfig,
           judge: Judge | None = None) -> Trajectory:
    """``trajectory`` with its three verdicts. A given ``judge`` is used; else one is made from
    ``config.judge`` for this call (pass one in when verifying many)."""
    return verify_batch([(trajectory, step, page)], config, judge)[0]


def verify_batch(items: Sequence[Item], config: VerifyConfig,
                 judge: Judge | None = None) -> list[Trajectory]:
    """Verify many trajectories; the judge sees all stage-3 prompts in one batch."""
    staged = [_deterministic(trajectory, step, page, config)
              for trajectory, step, page in items]
    waiting = [i for i, (_, _, conversation) in enumerate(staged) if conversation is not None]
    if waiting and judge is None and config.judge.kind != "off":
        judge = make_judge(config.judge)
    answers: dict[int, JudgeAnswer] = {}
    if waiting and judge is not None:
        prompts = [judge_prompt(staged[i][2], items[i][1], items[i][2], config.judge)
                   for i in waiting]
        answers = dict(zip(waiting, judge.judge(prompts)))
    results = []
    for index, (trajectory, _, _) in enumerate(items):
        form, execution, conversation = staged[index]
        semantic = _semantic(conversation, answers.get(index))
        meta = dict(trajectory.meta)
        if index in answers:
            meta["judge"] = _judge_meta(answers[index], judge)
        results.append(replace(trajectory, verdicts=[form, execution, semantic], meta=meta))
    return results


def _deterministic(trajectory: Trajectory, step: Step, page: DistilledPage,
                   config: VerifyConfig) -> tuple[Verdict, Verdict, Conversation | None]:
    """Stages 1 and 2; the conversation is returned only when both passed."""
    form, conversation = check_format(trajectory.messages)
    if conversation is None:
        return form, Verdict("execution", "skipped", EARLIER_FAILED), None
    execution = check_execution(conversation, step, page, trajectory.mode, config.top_k,
                                config.grounded_values)
    return form, execution, conversation if execution.status == "pass" else None


def _semantic(conversation: Conversation | None, answer: JudgeAnswer | None) -> Verdict:
    if conversation is None:
        return Verdict("semantic", "skipped", EARLIER_FAILED)
    if answer is None:
        return Verdict("semantic", "skipped", JUDGE_OFF)
    return semantic_verdict(answer)


def _judge_meta(answer: JudgeAnswer, judge: Judge | None) -> dict:
    meta: dict = {"name": judge.name if judge else "", "tokens": answer.tokens}
    if answer.p_yes is not None:
        meta["p_yes"] = round(answer.p_yes, 4)
    return meta
