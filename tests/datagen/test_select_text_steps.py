"""A recorded SELECT_TEXT step (op CLICK, the passage as its value, the smallest element holding
it as the target) through datagen: the oracle teacher reads the text before it quotes it, in
every mode, and the verifier accepts that trajectory and rejects a passage the page does not
show, another passage, another action, and one the model never read; the step after it is told
what was selected."""

from __future__ import annotations

from pathlib import Path

import pytest
from verify_helpers import conversation, html_page, trajectory

from datagen.context import TaskContext
from datagen.records import Operation, Step
from datagen.teachers import OracleConfig, OracleTeacher, step_rng
from datagen.verify.execution_stage import check_execution
from datagen.verify.format_stage import check_format
from datagen.verify.grounding import passage_grounded
from pipeline.agent.observe import without_tool_list
from pipeline.query.passage import find_passage
from pipeline.tools import make_call

PASSAGES = Path(__file__).parents[1] / "data" / "pages" / "passages.html"
PASSAGE = "Some bold words run through this sentence."
TASK = "Highlight the second paragraph and click submit."


@pytest.fixture(scope="module")
def page():
    return html_page(PASSAGES.read_text(encoding="utf-8"), "http://localhost/passages.html")


def passage_step(page, passage: str = PASSAGE) -> Step:
    holder = find_passage(page, passage)
    return Step(step_id="t:0", task=TASK, history=[], positives=[holder.backend_id],
                operation=Operation("CLICK", passage, "SELECT_TEXT"), source="miniwob",
                annotation_id="t", action_uid="0", step_index=0, website="passages",
                page=page.state)


def verdict(page, step, messages, mode):
    checked, parsed = check_format(messages)
    assert checked.status == "pass", checked
    return check_execution(parsed, step, page, mode)


@pytest.mark.parametrize("mode", ["query_only", "planned", "hybrid", "full"])
def test_the_teacher_reads_then_selects_and_the_verifier_accepts(page, mode):
    step = passage_step(page)
    teacher = OracleTeacher(OracleConfig(policy="canonical"))
    played = teacher.propose(step, page, mode, step_rng(0, step.step_id, mode))
    calls = [m["tool_calls"][0]["function"] for m in played.messages if m.get("tool_calls")]
    assert calls[-1] == {"name": "select_text", "arguments": {"text": PASSAGE}}
    if not passage_grounded(PASSAGE, without_tool_list(played.messages[1]["content"])):
        # the observation does not show it: read it first
        assert calls[:-1] == [{"name": "get_region", "arguments": {
            "landmark": "PAGE", "content_type": "text"}}]
    assert played.meta["found"] and not played.meta.get("error")
    assert verdict(page, step, played.messages, mode).status == "pass"
    assert played.messages[-1]["content"] == (
        'Selecting the passage "Some bold words run …" word for word as the page shows it.')


def test_query_only_reads_the_text_first(page):
    step = passage_step(page)
    played = OracleTeacher().propose(step, page, "query_only", step_rng(0, "t:0", "query_only"))
    names = [m["tool_calls"][0]["function"]["name"] for m in played.messages
             if m.get("tool_calls")]
    assert names == ["get_region", "select_text"] and played.meta["read"] == "PAGE"


@pytest.mark.parametrize("call, code", [
    (make_call("select_text", text="Some bold words run through the night."),
     "passage_not_on_page"),
    (make_call("select_text", text="The quick brown fox"), "wrong_value"),
    (make_call("click", index=1), "wrong_operation"),
])
def test_the_verifier_rejects_another_selection(page, call, code):
    read = make_call("get_region", landmark="PAGE", content_type="text")
    messages = conversation(page, passage_step(page), [read, call])
    result = verdict(page, passage_step(page), messages, "query_only")
    assert (result.status, result.code) == ("fail", code), result


def test_the_verifier_rejects_a_passage_never_read(page):
    step = passage_step(page)
    unread = trajectory(page, step, [make_call("select_text", text=PASSAGE)])
    result = verdict(page, step, unread.messages, "query_only")
    assert (result.status, result.code) == ("fail", "ungrounded_value"), result
    assert "select_text quotes" in result.reason


def test_whitespace_does_not_count_but_case_does(page):
    step = passage_step(page)
    read = make_call("get_region", landmark="PAGE", content_type="text")
    spread = make_call("select_text", text="Some  bold\nwords run through this sentence.")
    assert verdict(page, step, conversation(page, step, [read, spread]), "query_only").status == (
        "pass")
    shouted = make_call("select_text", text=PASSAGE.upper())
    assert verdict(page, step, conversation(page, step, [read, shouted]),
                   "query_only").code == "passage_not_on_page"


def test_the_next_step_is_told_what_was_selected(page):
    context = TaskContext()
    context.after(passage_step(page), page)
    assert context.previous.action == make_call("select_text", text=PASSAGE)
    assert context.lines[0] == (
        "[p]  Some bold words run through this sentence. -> SELECT_TEXT: " + PASSAGE)
