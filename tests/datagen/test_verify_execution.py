"""Verifier stage 2 on real fixture pages: the good trajectories pass; each crafted fault is
rejected for its reason (queries re-run with the real engine)."""

from __future__ import annotations

import copy

import pytest
from verify_helpers import conversation, fixture_page, good_signup_calls, make_step, ref_of

from datagen.verify.execution_stage import (
    check_execution,
    drag_problem,
    option_matches,
    positive_refs,
    refs_in,
)
from datagen.verify.format_stage import check_format
from pipeline.tools import make_call


@pytest.fixture(scope="module")
def page():
    return fixture_page()


@pytest.fixture(scope="module")
def select_page():
    return fixture_page("select.html")


def run(page, step, calls, mode="query_only", top_k=10, edit=None):
    messages = conversation(page, step, calls, mode)
    if edit:
        messages = copy.deepcopy(messages)
        edit(messages)
    verdict, parsed = check_format(messages)
    assert verdict.status == "pass", verdict
    return check_execution(parsed, step, page, mode, top_k)


def assert_fails(verdict, code):
    assert (verdict.stage, verdict.status, verdict.code) == ("execution", "fail", code), verdict


def type_step(page, value="Ada Lovelace"):
    return make_step(page, "full-name", "TYPE", value)


def test_good_type_trajectory_passes(page):
    verdict = run(page, type_step(page), good_signup_calls(page))
    assert verdict.status == "pass" and verdict.reason == ""


def test_typed_text_is_compared_after_whitespace_normalisation(page):
    calls = good_signup_calls(page)
    calls[-1] = make_call("type", index=ref_of(page, "full-name"), text="  Ada   Lovelace ")
    assert run(page, type_step(page), calls).status == "pass"


def test_stale_tool_result(page):
    def edit(messages):
        messages[3]["content"] = messages[3]["content"].replace("Full name", "Full  name")
    assert_fails(run(page, type_step(page), good_signup_calls(page), edit=edit),
                 "stale_tool_result")


def test_no_positive(page):
    step = type_step(page)
    step.positives = [999_999]
    assert_fails(run(page, step, good_signup_calls(page)), "no_positive")


def test_wrong_operation(page):
    calls = [make_call("query_elements", text="full name"),
             make_call("click", index=ref_of(page, "full-name"))]
    assert_fails(run(page, type_step(page), calls), "wrong_operation")


def test_done_is_not_an_operation(page):
    calls = [make_call("query_elements", text="full name"), make_call("done")]
    assert_fails(run(page, type_step(page), calls), "wrong_operation")


def test_unknown_ref(page):
    calls = [make_call("query_elements", text="full name"),
             make_call("type", index=99, text="Ada Lovelace")]
    assert_fails(run(page, type_step(page), calls), "unknown_ref")


def test_unseen_ref_a_guessed_index(page):
    calls = [make_call("type", index=ref_of(page, "full-name"), text="Ada Lovelace")]
    assert_fails(run(page, type_step(page), calls), "unseen_ref")


def test_target_not_retrieved_in_the_top_k(page):
    # "password" ranks the two password fields first; the full-name field is listed far below
    calls = [make_call("query_elements", text="password"),
             make_call("type", index=ref_of(page, "full-name"), text="Ada Lovelace")]
    assert run(page, type_step(page), calls, top_k=10).status == "pass"
    assert_fails(run(page, type_step(page), calls, top_k=2), "target_not_retrieved")


def test_wrong_element(page):
    calls = [make_call("query_elements", text="email", role="textbox"),
             make_call("type", index=ref_of(page, "signup-email"), text="Ada Lovelace")]
    assert_fails(run(page, type_step(page), calls), "wrong_element")


def test_wrong_typed_value(page):
    calls = good_signup_calls(page)
    calls[-1] = make_call("type", index=ref_of(page, "full-name"), text="ada lovelace")
    assert_fails(run(page, type_step(page), calls), "wrong_value")


@pytest.mark.parametrize("option, ok", [("Germany", True), ("germany", True), ("DE", True),
                                        ("France", False)])
def test_select_value_by_text_value_or_case(select_page, option, ok):
    step = make_step(select_page, "country", "SELECT", "Germany", task="Ship to Germany")
    calls = [make_call("query_elements", text="country"),
             make_call("select", index=ref_of(select_page, "country"), option=option)]
    verdict = run(select_page, step, calls)
    if ok:
        assert verdict.status == "pass", verdict
    else:
        assert_fails(verdict, "wrong_value")


def test_press_enter_counts_only_for_a_mind2web_enter(page):
    calls = [make_call("query_elements", text="full name"), make_call("press", key="enter")]
    enter = make_step(page, "full-name", "CLICK", original_op="ENTER")
    assert run(page, enter, calls).status == "pass"
    assert_fails(run(page, make_step(page, "full-name", "CLICK"), calls), "wrong_operation")
    click = [calls[0], make_call("click", index=ref_of(page, "full-name"))]
    assert_fails(run(page, enter, click), "wrong_operation")  # a click on the field presses no key
    escape = [calls[0], make_call("press", key="Escape")]
    assert_fails(run(page, enter, escape), "wrong_operation")


def test_hybrid_target_may_come_from_the_observation(page):
    calls = [make_call("click", index=ref_of(page, "signup-submit"))]
    step = make_step(page, "signup-submit")
    assert run(page, step, calls, mode="hybrid").status == "pass"
    assert run(page, step, calls, mode="full").status == "pass"
    assert_fails(run(page, step, calls, mode="query_only"), "unseen_ref")


def test_positive_inside_an_element_counts_through_its_ancestor(page):
    button = page.state.nodes[page.node_of(ref_of(page, "signup-submit"))]
    text_node = page.state.nodes[button.children[0]]
    assert positive_refs(page, [text_node.backend_id]) == {ref_of(page, "signup-submit")}
    assert positive_refs(page, [123_456_789]) == set()


def test_helpers():
    assert refs_in("[3]<a>x</a> [12]<b> [3] Element [7]: <input>") == [3, 12, 7]
    options = [("Germany", "DE"), ("France", "FR")]
    assert option_matches(" de ", "Germany", options)
    assert not option_matches("FR", "Germany", options)


def test_planned_target_may_come_from_the_candidates_or_the_last_actions_effect(page):
    submit = ref_of(page, "signup-submit")
    step = make_step(page, "signup-submit", task="Click \"Create account\"")
    calls = [make_call("click", index=submit)]
    assert run(page, step, calls, mode="planned").status == "pass"  # a listed candidate

    def effect_only(messages):  # the candidates gone, the effect line naming the button
        user = messages[1]["content"]
        head, _, page_part = user.partition("\nCurrent page:\n")
        page_part = page_part.split("Candidates for this step")[0]
        messages[1]["content"] = (f"{head}\nLast action's effect: 1 new: [{submit}]<button>"
                                  f"Create account</button>.\nCurrent page:\n{page_part}")
    assert run(page, step, calls, mode="planned", edit=effect_only).status == "pass"


def test_typed_text_nobody_showed_is_ungrounded(page):
    """The right field, the right value, but neither the task nor a result shows the value: a
    student trained on it learns to invent text. With the check off it passes."""
    step = make_step(page, "full-name", "TYPE", "Ada Lovelace", task="Sign up for a new account")
    verdict = run(page, step, good_signup_calls(page))
    assert_fails(verdict, "ungrounded_value")
    assert "'Ada Lovelace'" in verdict.reason
    parsed = check_format(conversation(page, step, good_signup_calls(page)))[1]
    assert check_execution(parsed, step, page, "query_only", grounded_values=False).status == "pass"


def test_a_drag_must_go_the_steps_way_and_onto_its_drop_target(page):
    # a shape dragged down for "drag it up" did the wrong thing whatever element it held
    up = "by:0,-30"
    name = ref_of(page, "full-name")

    def drag(**where):
        return make_call("drag", index=name, **where)

    assert drag_problem(drag(dx=0, dy=-30), up, page) is None
    assert drag_problem(drag(dx=4, dy=-45), up, page) is None  # a little askew, a bit further
    assert drag_problem(drag(dx=0, dy=30), up, page).startswith("wrong_offset: dragged by 0,30")
    assert drag_problem(drag(dx=30, dy=0), up, page).startswith("wrong_offset")  # the other axis
    assert drag_problem(drag(dx=0, dy=-90), up, page).startswith("wrong_offset")  # 3x as far
    email = ref_of(page, "signup-email")
    onto = f"to:{page.backend_id(email)}"
    assert drag_problem(drag(to_index=email), onto, page) is None
    other = make_call("drag", index=email, to_index=name)
    assert drag_problem(other, onto, page).startswith("wrong_drop")
    assert drag_problem(drag(dx=0, dy=-30), onto, page).startswith("wrong_drop")
