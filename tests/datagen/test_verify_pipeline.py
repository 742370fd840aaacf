"""``verify``/``verify_batch``: three verdicts, skips after a failure, ``judge_off`` never passes;
the judge prompt; the pass-rate report."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from rich.console import Console
from verify_helpers import fixture_page, good_signup_calls, make_step, ref_of, trajectory

from datagen.verify import VerifyConfig, verify, verify_batch
from datagen.verify.config import JudgeConfig
from datagen.verify.format_stage import check_format
from datagen.verify.report import build_report, print_report, save_report, to_markdown
from datagen.verify.semantic_stage import JUDGE_QUESTION, judge_prompt
from pipeline.config import load_config
from pipeline.errors import FormatError
from pipeline.tools import make_call


@pytest.fixture(scope="module")
def page():
    return fixture_page()


@pytest.fixture(scope="module")
def step(page):
    return make_step(page, "full-name", "TYPE", "Ada Lovelace")


def statuses(checked):
    return [(v.stage, v.status, v.code) for v in checked.verdicts]


def test_good_trajectory_with_the_judge_off(page, step):
    original = trajectory(page, step, good_signup_calls(page))
    checked = verify(original, step, page, VerifyConfig())
    assert statuses(checked) == [("format", "pass", ""), ("execution", "pass", ""),
                                 ("semantic", "skipped", "judge_off")]
    assert checked.accepted and original.verdicts == []  # the input is not changed


def test_a_failed_stage_skips_the_later_ones(page, step):
    bad_format = trajectory(page, step, [make_call("query_elements", text="full name")])
    wrong = trajectory(page, step, [make_call("query_elements", text="email"),
                                    make_call("type", index=ref_of(page, "login-email"),
                                              text="Ada Lovelace")])
    first, second = verify_batch([(bad_format, step, page), (wrong, step, page)], VerifyConfig())
    assert statuses(first) == [("format", "fail", "no_final_action"),
                               ("execution", "skipped", "earlier_stage_failed"),
                               ("semantic", "skipped", "earlier_stage_failed")]
    assert statuses(second) == [("format", "pass", ""), ("execution", "fail", "wrong_element"),
                                ("semantic", "skipped", "earlier_stage_failed")]
    assert not first.accepted and not second.accepted


def test_judge_prompt_is_compact_and_names_the_element(page, step):
    conversation = check_format(trajectory(page, step, good_signup_calls(page)).messages)[1]
    prompt = judge_prompt(conversation, step, page, JudgeConfig(result_lines=2))
    assert prompt.startswith("Task: Sign up for a new account as Ada Lovelace\nPrevious actions:"
                             "\n- [textbox]")
    assert '1. query_elements({"text": "full name", "role": "textbox"})' in prompt
    assert "... (" in prompt and "more lines)" in prompt  # results cut to two lines
    assert 'Final action: type({"index": 6, "text": "Ada Lovelace"})' in prompt
    assert "on [6]<input type=text id=full-name" in prompt
    assert prompt.endswith(JUDGE_QUESTION) and len(prompt) < 1200


def test_config_loads_and_validates():
    config = load_config(VerifyConfig, None, ["top_k=5", "judge.kind=local", "judge.threshold=0.7"])
    assert config.top_k == 5 and config.judge.kind == "local" and config.judge.threshold == 0.7
    with pytest.raises(FormatError) as error:
        load_config(VerifyConfig, None, ["top_k=0", "judge.kind=openai", "judge.threshold=2"])
    message = str(error.value)
    assert "top_k" in message and "judge.openai" in message and "judge.threshold" in message


def test_report_counts_stages_and_reasons(page, step, tmp_path):
    good = trajectory(page, step, good_signup_calls(page))
    guessed = trajectory(page, step, [make_call("type", index=6, text="Ada Lovelace")])
    checked = verify_batch([(good, step, page), (good, step, page), (guessed, step, page)],
                           VerifyConfig())
    report = build_report(checked)
    assert (report.total, report.accepted, report.unverified) == (3, 2, 0)
    by_stage = {s.stage: s for s in report.stages}
    assert (by_stage["execution"].passed, by_stage["execution"].failed) == (2, 1)
    assert by_stage["execution"].pass_rate == pytest.approx(2 / 3)
    assert by_stage["semantic"].pass_rate is None and by_stage["semantic"].skipped == 3
    codes = [(r.stage, r.status, r.code, r.count) for r in report.reasons]
    assert codes == [("execution", "fail", "unseen_ref", 1),
                     ("semantic", "skipped", "judge_off", 2),
                     ("semantic", "skipped", "earlier_stage_failed", 1)]
    json_path, md_path = save_report(report, tmp_path)
    assert json.loads(json_path.read_text())["stages"][1]["pass_rate"] == pytest.approx(2 / 3)
    markdown = md_path.read_text()
    assert markdown == to_markdown(report) and "| execution | 2 | 1 | 0 | 66.7% |" in markdown
    assert [(w.website, w.rejected, w.total, w.reason) for w in report.websites] == [
        ("fixture", 1, 3, "unseen_ref")]
    assert "| fixture | 1 | 3 | 33.3% | unseen_ref |" in markdown
    console = Console(record=True, width=160)
    print_report(report, console)
    printed = console.export_text()
    assert "unseen_ref" in printed and "Rejected by website" in printed


def test_report_lists_websites_by_the_share_they_lost(page, step):
    # a family whose every typed command is dropped tops the list, whatever its count
    good = trajectory(page, step, good_signup_calls(page))
    guessed = trajectory(page, step, [make_call("type", index=6, text="Ada Lovelace")])
    batch = [(replace(good, website="shop"), step, page) for _ in range(8)]
    batch += [(replace(guessed, website="shop"), step, page) for _ in range(2)]
    batch += [(replace(guessed, website="terminal"), step, page)]
    report = build_report(verify_batch(batch, VerifyConfig()))
    assert [(w.website, w.rejected, w.total) for w in report.websites] == [
        ("terminal", 1, 1), ("shop", 2, 10)]
    assert report.to_dict()["websites"][1]["share"] == 0.2
