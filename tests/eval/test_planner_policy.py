"""The planner baseline: the engine's plan from the task alone, acted on its top result, step by
step -- the value typed into the field the clause names, then the next field, then the button."""

from __future__ import annotations

import asyncio

from eval.baselines import PlannerPolicy
from pipeline.agent.policy import Situation
from pipeline.distill import distill
from pipeline.html.source import page_from_html

TASK = 'Enter the username "kim" and the password "V8WJY" into the text fields and press login.'


def login_page(username: str = "", password: str = ""):
    filled = (f' value="{username}"' if username else "", f' value="{password}"' if password else "")
    return distill(page_from_html(
        f'<body><div id="query">{TASK}</div><form><label>Username <input type="text" id="username"'
        f'{filled[0]}></label><label>Password <input type="password" id="password"{filled[1]}>'
        '</label><button id="subbtn">Login</button></form></body>'))


def act(page, history: list[str]):
    situation = Situation(TASK, history, "query_only", [], page)
    call = asyncio.run(PlannerPolicy().next_turn(situation)).call
    node = page.state.nodes[page.node_of(call.arguments["index"])]
    return call.name, node.attributes["id"], call.arguments.get("text")


def test_the_planner_fills_the_form_field_by_field_and_presses_the_button():
    assert act(login_page(), []) == ("type", "username", "kim")
    assert act(login_page("kim"), ["type kim"]) == ("type", "password", "V8WJY")
    assert act(login_page("kim", "V8WJY"), ["type kim", "type V8WJY"]) == (
        "click", "subbtn", None)


def test_a_page_without_any_element_ends_the_step_with_the_reason():
    page = distill(page_from_html("<body></body>"))
    turn = asyncio.run(PlannerPolicy().next_turn(Situation("Click Go", [], "query_only", [], page)))
    assert turn.call.name == "done" and "no element" in turn.call.arguments["answer"]
