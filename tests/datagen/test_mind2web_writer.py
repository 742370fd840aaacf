"""The Mind2Web writer on a hand-built page (pure) and on a recorded MiniWoB++ episode (browser):
the schema of FACTS.md — raw_html with backend_node_id and bounding_box_rect on every element and
<text> nodes, candidates whose attributes are JSON strings, string backend ids, action_reprs."""

from __future__ import annotations

import json
import re

import lxml.html
import pytest
from recorder_helpers import play

from datagen.mind2web.writer import (
    action_record,
    candidate_ids,
    sample_negatives,
    task_record,
)
from datagen.miniwob.dump import canonical_steps, episode_task
from pipeline.html.mind2web_format import action_repr, operation
from pipeline.live.miniwob import serve_miniwob
from pipeline.page_state import Node, PageState, link_children

REPR = re.compile(r"^\[[\w-]+\]  .* -> (CLICK|ENTER|HOVER|TYPE: .*|SELECT: .*)$")
TASK_KEYS = ["annotation_id", "website", "domain", "subdomain", "confirmed_task",
             "action_reprs", "actions"]
ACTION_KEYS = {"action_uid", "raw_html", "cleaned_html", "operation", "pos_candidates",
               "neg_candidates"}


def form_page() -> PageState:
    """<html><body><label>User</label><input aria-label=User><button>Log <b>in</b></button>
    <a href=#>Help</a><div hidden-ish (no box)><button>Ghost</button></div></body></html>"""
    box = (0.0, 0.0, 100.0, 20.0)
    nodes = [
        Node(0, None, "element", "#document", backend_id=1),
        Node(1, 0, "element", "html", backend_id=2, bounds=(0, 0, 800, 600)),
        Node(2, 1, "element", "body", backend_id=3, bounds=(0, 0, 800, 600)),
        Node(3, 2, "element", "input", {"aria-label": "User", "id": "u"}, bounds=box,
             role="textbox", name="User", value="ann", backend_id=10),
        Node(4, 2, "element", "button", {"class": "go"}, bounds=(0, 30, 80, 20), role="button",
             name="Log in", backend_id=11),
        Node(5, 4, "text", text="Log ", bounds=(2, 32, 20, 16), backend_id=12),
        Node(6, 4, "element", "b", bounds=(22, 32, 20, 16), backend_id=13,
             states={"clickable": True}),
        Node(7, 6, "text", text="in", bounds=(22, 32, 20, 16), backend_id=14),
        Node(8, 2, "element", "a", {"href": "#"}, bounds=(0, 60, 40, 20), role="link",
             name="Help", backend_id=15),
        Node(9, 8, "text", text="Help", bounds=(0, 60, 40, 20), backend_id=16),
        Node(10, 2, "element", "div", backend_id=17),
        Node(11, 10, "element", "button", role="button", name="Ghost", backend_id=18),
    ]
    link_children(nodes)
    return PageState("http://x/", "t", nodes, has_layout=True)


def test_operation_follows_mind2web():
    assert operation("TYPE", "kenda") == {"op": "TYPE", "original_op": "TYPE", "value": "kenda"}
    assert operation("CLICK", "ignored") == {"op": "CLICK", "original_op": "CLICK", "value": ""}
    assert operation("TYPE", "x", "ENTER") == {"op": "CLICK", "original_op": "ENTER", "value": ""}
    assert operation("CLICK", "down", "SCROLL") == {"op": "CLICK", "original_op": "SCROLL",
                                                    "value": "down"}  # pagescout's own op
    with pytest.raises(ValueError, match="original_op 'SWIPE'"):
        operation("CLICK", original_op="SWIPE")


def test_action_reprs_name_role_and_text():
    page = form_page()
    assert action_repr(page, 10, operation("TYPE", "ann")) == "[textbox]  User -> TYPE: ann"
    assert action_repr(page, 11, operation("CLICK")) == "[button]  Log in -> CLICK"
    assert action_repr(page, 13, operation("CLICK")) == "[b]  in -> CLICK"
    assert action_repr(page, 10, operation("CLICK", original_op="ENTER")) == \
        "[textbox]  User -> ENTER"


def test_candidates_are_laid_out_interactive_elements_and_negatives_are_seeded():
    page = form_page()
    assert candidate_ids(page) == [10, 11, 13, 15]  # the boxless Ghost button is not one
    assert sample_negatives(page, 11, 10, "s") == [10, 15]  # not the target, nor inside it
    draws = {tuple(sample_negatives(page, 15, 2, f"seed{i}")) for i in range(20)}
    assert len(draws) > 1 and all(len(d) == 2 for d in draws)
    assert sample_negatives(page, 15, 2, "seed3") == sample_negatives(page, 15, 2, "seed3")


def test_action_record_schema():
    page = form_page()
    action = action_record("u-0", page, 10, operation("TYPE", "ann"), [11, 15])
    assert set(action) == ACTION_KEYS
    positive = action["pos_candidates"][0]
    assert positive["backend_node_id"] == "10" and positive["tag"] == "input"
    assert positive["is_original_target"] is True and positive["is_top_level_target"] is True
    attrs = json.loads(positive["attributes"])
    assert attrs["backend_node_id"] == "10" and attrs["bounding_box_rect"] == "0,0,100,20"
    assert attrs["aria_label"] == "User" and attrs["input_value"] == "ann"
    assert [c["backend_node_id"] for c in action["neg_candidates"]] == ["11", "15"]
    for backend_id in ("10", "11", "15"):
        assert f'backend_node_id="{backend_id}"' in action["cleaned_html"]
    task = task_record("t", "w", "d", "s", "do it", ["[textbox]  User -> TYPE: ann"], [action])
    assert list(task) == TASK_KEYS


@pytest.fixture(scope="module")
def recorded_task(capture_session):
    with serve_miniwob() as base_url:
        run = play(capture_session, base_url, "login-user", seed=5)
    assert run.success, run.failure
    return run, episode_task(run, max_negatives=50)


@pytest.mark.browser
def test_recorded_task_matches_the_mind2web_schema(recorded_task):
    run, task = recorded_task
    assert list(task) == TASK_KEYS
    assert (task["website"], task["domain"], task["subdomain"]) == ("login-user", "miniwob", "login")
    assert task["annotation_id"] == "miniwob-login-user-s5"
    assert task["confirmed_task"] == run.episode.utterance
    assert len(task["actions"]) == len(task["action_reprs"]) == 3
    assert all(REPR.match(r) for r in task["action_reprs"]), task["action_reprs"]
    assert [a["operation"]["op"] for a in task["actions"]] == ["TYPE", "TYPE", "CLICK"]
    for action in task["actions"]:
        assert set(action) == ACTION_KEYS
        root = lxml.html.document_fromstring(action["raw_html"])
        elements = [e for e in root.iter() if isinstance(e.tag, str)]
        assert all(e.get("backend_node_id") and e.get("bounding_box_rect") for e in elements)
        assert any(e.tag == "text" for e in elements)
        ids = {e.get("backend_node_id") for e in elements}
        for cand in action["pos_candidates"] + action["neg_candidates"]:
            assert isinstance(cand["backend_node_id"], str) and cand["backend_node_id"] in ids
            attrs = json.loads(cand["attributes"])
            assert attrs["backend_node_id"] == cand["backend_node_id"]
            assert re.match(r"^-?[\d.]+,-?[\d.]+,[\d.]+,[\d.]+$", attrs["bounding_box_rect"])
        assert action["pos_candidates"][0]["backend_node_id"] not in {
            c["backend_node_id"] for c in action["neg_candidates"]}
    typed = json.loads(task["actions"][0]["pos_candidates"][0]["attributes"])
    assert typed["id"] == "username"


@pytest.mark.browser
def test_ids_are_renumbered_consistently_across_an_episode(recorded_task):
    run, task = recorded_task
    steps = canonical_steps(run.steps)
    first = {n.attributes.get("id"): n.backend_id for n in steps[0][0].nodes if n.attributes}
    last = {n.attributes.get("id"): n.backend_id for n in steps[-1][0].nodes if n.attributes}
    assert first["username"] == last["username"] and first["subbtn"] == last["subbtn"]
    assert min(n.backend_id for n in steps[0][0].nodes if n.backend_id) == 1
    assert task == episode_task(run, max_negatives=50)  # pure: the same record every time
