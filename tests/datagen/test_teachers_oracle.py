"""The oracle teacher on fixture pages: it finds the target with queries a model could have
asked, acts on a ref a tool returned, is deterministic under a seed and varies across seeds."""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache

import pytest
from teacher_helpers import css_ref, make_step, page, retrieval_steps
from verify_helpers import html_page, ref_of

from datagen.records import Trajectory
from datagen.teachers import OracleConfig, OracleTeacher, TeacherConfig, step_rng, target_refs
from datagen.teachers.oracle import label_call
from datagen.verify.execution_stage import check_execution
from datagen.verify.format_stage import check_format
from pipeline.config import load_config
from pipeline.errors import FormatError
from pipeline.tools import make_call, openai_tools

ORACLE = OracleTeacher()
_REF = re.compile(r"\[(\d+)\]")


def propose(step, page_, mode="query_only", seed=0, teacher=ORACLE) -> Trajectory:
    return teacher.propose(step, page_, mode, step_rng(seed, step.step_id, mode))


@cache
def played(mode: str, seed: int) -> list[tuple]:
    """(step, page, trajectory) for every labelled fixture case."""
    return [(step, page_, propose(step, page_, mode, seed)) for step, page_ in retrieval_steps()]


def final_call(trajectory: Trajectory) -> dict:
    return trajectory.messages[-1]["tool_calls"][0]["function"]


def hand_steps():
    forms, shop, select = page("forms.html"), page("shop.html"), page("select.html")
    kettle = css_ref(shop, '[data-sku="SKU-0003"] button.add')
    return [
        (make_step(forms, [ref_of(forms, "full-name")], "Register under the name Ada Lovelace",
                   "TYPE", "Ada Lovelace"), forms),
        (make_step(forms, [ref_of(forms, "login-submit")], 'Click the "Sign in" button'), forms),
        (make_step(forms, [ref_of(forms, "terms")], "Accept the terms of service"), forms),
        (make_step(select, [ref_of(select, "country")], "Choose Canada as the country",
                   "SELECT", "Canada"), select),
        (make_step(shop, [ref_of(shop, "q")], "Search for 'blue mug'", "TYPE", "blue mug"), shop),
        (make_step(shop, [kettle], "Put the Compact Kettle 3 in my basket"), shop),
    ]


def test_the_final_call_acts_on_a_positive_with_the_steps_value():
    for step, page_ in hand_steps():
        trajectory = propose(step, page_)
        final = final_call(trajectory)
        assert trajectory.meta["found"], step.task
        assert final["arguments"]["index"] in target_refs(page_, step.positives), step.task
        assert final["name"] == {"CLICK": "click", "TYPE": "type", "SELECT": "select"}[
            step.operation.op]
        if step.operation.op == "TYPE":
            assert final["arguments"]["text"] == step.operation.value


def test_no_call_names_the_target_before_a_tool_showed_it():
    for seed in (0, 1):
        for step, page_, trajectory in played("query_only", seed):
            shown = set()
            for message in trajectory.messages[1:]:
                if message["role"] in ("user", "tool"):
                    shown |= {int(n) for n in _REF.findall(message["content"])}
                    continue
                arguments = message["tool_calls"][0]["function"]["arguments"]
                index = arguments.get("index")
                assert index is None or index in shown, (step.task, arguments)
                for target in target_refs(page_, step.positives):
                    assert f"[{target}]" not in json.dumps(arguments), step.task


def test_the_same_seed_gives_the_same_trajectory():
    for step, page_, trajectory in played("query_only", 0)[:25]:
        assert propose(step, page_, seed=0).to_dict() == trajectory.to_dict()


def test_seeds_vary_the_first_call():
    step, page_ = next((s, p) for s, p in retrieval_steps()
                       if s.task == "Put the Compact Kettle 3 in my basket")
    first_calls = {json.dumps(propose(step, page_, seed=seed).messages[2]["tool_calls"][0]
                              ["function"], sort_keys=True) for seed in range(20)}
    assert len(first_calls) >= 4


def test_the_verifier_accepts_nearly_every_oracle_trajectory():
    """Stages 1 and 2 of the verifier over the labelled fixture cases, both tool modes."""
    for mode in ("query_only", "hybrid"):
        verdicts = Counter()
        for step, page_, trajectory in played(mode, 0):
            verdict, conversation = check_format(trajectory.messages)
            if conversation is not None:
                verdict = check_execution(conversation, step, page_, mode)
            verdicts[verdict.status] += 1
        assert verdicts["pass"] / sum(verdicts.values()) >= 0.95, (mode, verdicts)


def test_templates_and_prefaces_all_occur():
    meta = Counter()
    for seed in (0, 1):
        for _, _, trajectory in played("query_only", seed):
            meta[trajectory.meta["template"]] += 1
            meta[trajectory.meta.get("preface")] += 1
    assert {"text", "text_role", "keywords", "instruction", "scoped", "summary"} <= set(meta)


def test_a_miss_is_refined():
    """A task whose words are not on the page: the oracle reads the footer and finds it there."""
    step, page_ = next((s, p) for s, p in retrieval_steps()
                       if s.task == "Are they hiring? Show me job openings")
    trajectory = propose(step, page_, seed=0)
    names = [m["tool_calls"][0]["function"]["name"] for m in trajectory.messages
             if m["role"] == "assistant"]
    assert trajectory.meta["found"] and trajectory.meta["first_hit"] is False
    assert names[-3:] == ["get_region", "query_elements", "click"]


def test_hybrid_acts_directly_on_a_ref_the_outline_shows_or_queries():
    step, page_ = hand_steps()[1]
    kinds = {propose(step, page_, "hybrid", seed).meta["template"] for seed in range(12)}
    assert "direct" in kinds and len(kinds) > 1
    full = propose(step, page_, "full")
    assert len([m for m in full.messages if m["role"] == "assistant"]) == 1
    never = OracleTeacher(OracleConfig(hybrid_direct=0.0))
    assert all(propose(step, page_, "hybrid", s, never).meta["template"] != "direct"
               for s in range(5))


def test_a_step_without_a_target_on_the_page_is_marked():
    forms = page("forms.html")
    step = make_step(forms, [], "Click the OK button")
    step.positives = [999_999]
    trajectory = propose(step, forms)
    assert trajectory.meta["error"].startswith("no_target")
    assert [m["role"] for m in trajectory.messages] == ["system", "user"]


def test_a_trajectory_is_a_trl_conversation():
    """TRL's conversational tool format: roles, one call per assistant turn with dict
    arguments, tool turns named after their call, a tools column of the function schemas."""
    step, page_ = hand_steps()[0]
    trajectory = propose(step, page_)
    roles = [m["role"] for m in trajectory.messages]
    assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
    assert all(set(m) <= {"role", "content", "tool_calls", "name"} for m in trajectory.messages)
    assert trajectory.tools == openai_tools() and trajectory.teacher == "oracle"
    for before, message in zip(trajectory.messages, trajectory.messages[1:], strict=False):
        if message["role"] == "assistant":
            (call,) = message["tool_calls"]
            assert isinstance(message["content"], str) and message["content"]
            assert call["type"] == "function" and isinstance(call["function"]["arguments"], dict)
        if message["role"] == "tool":
            assert message["name"] == before["tool_calls"][0]["function"]["name"]
    assert Trajectory.from_dict(json.loads(json.dumps(trajectory.to_dict()))) == trajectory


def test_oracle_config_is_validated_up_front(tmp_path):
    config = tmp_path / "teacher.yaml"
    config.write_text("kind: oracle\noracle:\n  summary_prob: 0.9\n  region_prob: 0.5\n"
                      "  templates: {text: 1, nonsense: 2}\n")
    with pytest.raises(FormatError) as caught:
        load_config(TeacherConfig, config)
    assert "summary_prob + region_prob" in str(caught.value)
    assert "nonsense" in str(caught.value)
    with pytest.raises(FormatError, match="openai.client.model"):
        load_config(TeacherConfig, None, ["kind=openai"])


CANONICAL = OracleTeacher(OracleConfig(policy="canonical"))


def _calls(trajectory: Trajectory) -> list[dict]:
    return [m["tool_calls"][0]["function"] for m in trajectory.messages if m["role"] == "assistant"]


def test_canonical_calls_do_not_depend_on_the_seed():
    """One query per situation: every seed writes the same conversation, rationale included."""
    for step, page_ in retrieval_steps()[:40]:
        played = {json.dumps(propose(step, page_, seed=seed, teacher=CANONICAL).messages,
                             sort_keys=True) for seed in range(4)}
        assert len(played) == 1, step.task


def test_canonical_takes_the_most_specific_template_and_still_finds_targets():
    trajectories = [(step, page_, propose(step, page_, teacher=CANONICAL))
                    for step, page_ in retrieval_steps()]
    for step, _, trajectory in trajectories:
        first = _calls(trajectory)[0]
        assert first["name"] == "query_elements", step.task  # no preface
        assert "max_results" not in first["arguments"], step.task
        if trajectory.meta["template"] == "text":  # text_role and scoped did not apply
            assert set(first["arguments"]) == {"text"}, step.task
    templates = Counter(t.meta["template"] for _, _, t in trajectories)
    assert templates["scoped"] and templates["text_role"] and templates["text"]
    found = sum(t.meta["found"] for _, _, t in trajectories)
    assert found / len(trajectories) >= 0.9, templates


def test_canonical_lists_the_fields_when_the_task_does_not_name_the_target():
    """A field the task does not name: no query of leftover task words, the role's few elements
    are listed and the model picks by the labels in the result."""
    forms = page("forms.html")
    step = make_step(forms, [ref_of(forms, "bio")], "Tell them you sail and press Save",
                     "TYPE", "I sail")
    trajectory = propose(step, forms, teacher=CANONICAL)
    first, action = _calls(trajectory)
    assert first["arguments"] == {"role": "textbox"}
    assert trajectory.meta["template"] == "role" and trajectory.meta["found"]
    assert action["arguments"] == {"index": ref_of(forms, "bio"),
                                    "text": "I sail"}
    named = make_step(forms, [ref_of(forms, "full-name")], "Enter Ada as the full name", "TYPE",
                      "Ada")  # the task names the field: its label is the query
    assert _calls(propose(named, forms, teacher=CANONICAL))[0]["arguments"] == {
        "text": "full name", "role": "textbox"}


def test_canonical_query_rationale_starts_with_the_kind_of_query():
    """The first word is where the student chooses: list a role, search a label it knows, or
    try the task's other words."""
    kinds = Counter()
    for step, _, trajectory in [(s, p, propose(s, p, teacher=CANONICAL))
                                for s, p in retrieval_steps()]:
        word = trajectory.messages[2]["content"].split()[0]
        args = _calls(trajectory)[0]["arguments"]
        if trajectory.meta["template"] == "role":
            assert word == "Listing" and set(args) == {"role"}, step.task
        else:
            assert word in ("Searching", "Trying") and "text" in args, step.task
        kinds[word] += 1
    assert kinds["Listing"] and kinds["Searching"] and kinds["Trying"], kinds


def test_a_label_counts_as_named_only_as_a_whole_word():
    from datagen.teachers.oracle_queries import _visible_label

    assert _visible_label("R", 'Click on a "button" widget.', "Submit Reset") == ""
    assert _visible_label("ac", "Go back and click it", "") == ""
    assert _visible_label("Ok", 'Click on the "ok" button.', "") == "ok"
    assert _visible_label("6", "Select 12/06/2016 as the date", "") == "6"
    assert _visible_label("Pro", "Choose a plan", "[3] Pro plan") == "Pro"


DIALOG = """<!doctype html><html><body><p>Some text.</p>
<div role="dialog"><button type="button" id="x" title="Close"><span class="icon"></span>Close</button>
<p>Lorem ipsum.</p><button type="button" id="cancel">Cancel</button>
<button type="button" id="ok">OK</button></div></body></html>"""


def test_the_tool_list_does_not_name_a_label(tmp_path):
    """The user turn ends with the tool list ("Escape to close a dialog"); a student does not
    read it (training cuts it), so "Close" is not named and the dialog's buttons are listed."""
    from pipeline.distill import distill
    from pipeline.html.source import page_from_file

    path = tmp_path / "dialog.html"
    path.write_text(DIALOG, encoding="utf-8")
    state = page_from_file(path)
    for node in state.nodes:
        node.backend_id = 1000 + node.id
    dialog = distill(state)
    step = make_step(dialog, [ref_of(dialog, "x")],
                     'Click the button in the dialog box labeled "x".')
    trajectory = propose(step, dialog, teacher=CANONICAL)
    first, action = _calls(trajectory)
    assert first["arguments"] == {"role": "button"}
    assert action["arguments"] == {"index": ref_of(dialog, "x")}


def test_stock_control_labels_count_as_known():
    from datagen.teachers.oracle_queries import _visible_label

    assert _visible_label("Submit", "Search for crime movies directed by Curry", "") == "Submit"
    assert _visible_label("Sign in", "Log me in as ada", "") == "Sign in"
    assert _visible_label("Close", "Dismiss the dialog", "") == ""


def test_the_action_rationale_names_the_element_before_its_index():
    forms = page("forms.html")
    step = make_step(forms, [ref_of(forms, "bio")], "Tell them you sail and press Save", "TYPE",
                     "I sail")
    rationale = propose(step, forms, teacher=CANONICAL).messages[-1]["content"]
    ref = ref_of(forms, "bio")
    assert rationale.startswith("Typing 'I sail' into the ")
    assert rationale.endswith(f"[{ref}].")


def test_a_label_less_element_is_described_by_what_tells_it_apart():
    from datagen.teachers.rationale import describe
    from pipeline.distill import distill
    from pipeline.html.source import page_from_html

    arrow = '<a role="button" class="ui-button ui-spinner-{0} ui-corner-{1}"></a>'
    dp = distill(page_from_html(
        '<body><form><input type="text" id="input-3"><input type="text" name="q">'
        + arrow.format("up", "tr") + arrow.format("down", "br")
        + '<button>Submit</button></form></body>'
    ))
    described = [describe(dp, ref) for ref in sorted(dp.refs)]
    assert described[0].startswith('the textbox with id "input-3"')
    assert described[1].startswith('the textbox with name "q"')
    assert described[2].startswith('the button with class "ui-button ui-spinner-up ui-corner-tr"')
    assert described[3].startswith('the button with class "ui-button ui-spinner-down ui-corner-br"')
    assert described[4].startswith('the "Submit" button')


def test_enter_is_pressed_where_the_focus_is():
    """Mind2Web's ENTER (op CLICK on the field the key went to) is a key press: a click on the
    field presses nothing live (guess-number's field took the click and its guess was never
    sent), so the oracle presses Enter at once, as for any key, and the label is the same call."""
    from dataclasses import replace

    from datagen.records import Operation

    forms = page("forms.html")
    step = make_step(forms, [ref_of(forms, "bio")], "Tell them you sail and press Save")
    step = replace(step, operation=Operation("CLICK", "", "ENTER"))
    trajectory = propose(step, forms, teacher=CANONICAL)
    assert _calls(trajectory) == [{"name": "press", "arguments": {"key": "Enter"}}]
    assert trajectory.meta["found"] and trajectory.meta["template"] == "press"
    assert label_call("CLICK", "", "ENTER", [], forms) == make_call("press", key="Enter")
    assert label_call("CLICK", "", None, [], forms) is None  # a click needs its element


def test_canonical_searches_a_field_the_task_names_by_its_row_label():
    """A field whose only name is the label beside it (MiniWoB++'s login form: no ``for``, no
    accessible name) is still named by the task ("the password"): the query searches that
    label instead of listing every field and leaving the model to pick by the labels."""
    login = html_page(
        '<div id="form"><p><label class="bold">Username</label><input type="text" id="username">'
        '</p><p><label class="bold">Password</label><input type="password" id="password"></p>'
        '<button id="subbtn">Login</button></div>', "http://miniwob.test/login-user.html")
    password = ref_of(login, "password")
    step = make_step(login, [password], 'Enter the username "kenda" and the password "x7" into '
                     "the text fields and press login", "TYPE", "x7")
    first, action = _calls(propose(step, login, teacher=CANONICAL))
    assert first["arguments"] == {"text": "password", "role": "textbox"}
    assert action["arguments"] == {"index": password, "text": "x7"}


def _read_table_page():
    return html_page(
        '<div id="query">Enter the value of Color into the text field and press Submit.</div>'
        '<div id="area"><table><tr><th>Gender</th><td>Male</td></tr><tr><th>Color</th>'
        '<td>gray</td></tr></table><div id="form"><input type="text" id="tt">'
        '<button id="subbtn">Submit</button></div></div>',
        "http://miniwob.test/read-table.html")


def test_a_value_only_the_page_text_shows_is_read_before_it_is_typed():
    """The task names a row, the table holds the value: in query_only mode the teacher reads
    the page's text first, so the turn that types "gray" follows a result showing it, and the
    verifier passes it; without the read, the same typing is rejected as ungrounded."""
    mode = "query_only"
    table = _read_table_page()
    field = ref_of(table, "tt")
    step = make_step(table, [field], "Enter the value of Color into the text field and press "
                     "Submit.", "TYPE", "gray")
    trajectory = propose(step, table, mode, teacher=CANONICAL)
    calls = _calls(trajectory)
    assert calls[0] == {"name": "get_region",
                        "arguments": {"landmark": "PAGE", "content_type": "text"}}
    assert trajectory.messages[2]["content"] == "Reading the text of PAGE for the value to type."
    assert "Color | gray" in trajectory.messages[3]["content"]  # the table read row by row
    assert calls[-1]["arguments"] == {"index": field, "text": "gray"}
    assert json.loads(json.dumps(trajectory.meta))["read"] == "PAGE"
    conversation = check_format(trajectory.messages)[1]
    assert check_execution(conversation, step, table, mode).status == "pass"

    unread = [m for i, m in enumerate(trajectory.messages) if i not in (2, 3)]
    verdict = check_execution(check_format(unread)[1], step, table, mode)
    assert verdict.status == "fail" and verdict.reason.startswith(
        "ungrounded_value: type writes 'gray'")


def test_a_planned_step_shows_the_value_the_table_gives_so_it_is_typed_without_reading():
    """In planned mode the step lists the text field with the row the task names ("the page
    shows Color: gray"): the value is in the conversation already, the teacher types it at
    once and the verifier finds it grounded."""
    table = _read_table_page()
    field = ref_of(table, "tt")
    step = make_step(table, [field], "Enter the value of Color into the text field and press "
                     "Submit.", "TYPE", "gray")
    trajectory = propose(step, table, "planned", teacher=CANONICAL)
    assert "— the page shows Color: gray" in trajectory.messages[1]["content"]
    assert _calls(trajectory) == [{"name": "type", "arguments": {"index": field, "text": "gray"}}]
    assert "read" not in trajectory.meta
    conversation = check_format(trajectory.messages)[1]
    assert check_execution(conversation, step, table, "planned").status == "pass"


def test_a_value_the_task_gives_is_typed_without_reading():
    table = _read_table_page()
    step = make_step(table, [ref_of(table, "tt")], 'Enter "Male" into the text field.', "TYPE",
                     "Male")
    assert "read" not in propose(step, table, "planned", teacher=CANONICAL).meta
