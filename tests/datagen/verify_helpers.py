"""Hand-built steps and trajectories over the fixture pages, for the verifier tests.

Fixture HTML has no backend node ids, so ``fixture_page`` gives every node one (1000 + node id)
before distilling, the way a Mind2Web ``raw_html`` page carries them. Trajectories are built the
way a teacher builds them: ``pipeline.agent.prompts`` turns, calls from ``make_call``, tool results from
``execute_offline`` on the same page.
"""

from __future__ import annotations

from datagen.records import Operation, Step, Trajectory
from pipeline.agent.conversation import opening
from pipeline.agent.execute import execute_offline
from pipeline.distill import distill
from pipeline.distill.model import DistilledPage
from pipeline.html.source import page_from_file, page_from_html
from pipeline.page_state import PageState
from pipeline.report.page_set import FIXTURE_DIR
from pipeline.tools import ToolCall, make_call, openai_tools, to_openai_message

BACKEND_OFFSET = 1000


def fixture_page(name: str = "forms.html") -> DistilledPage:
    return _recorded(page_from_file(FIXTURE_DIR / name))


def html_page(html: str, url: str) -> DistilledPage:
    """A page from markup, with backend ids as a recorded page has them."""
    return _recorded(page_from_html(html, url))


def _recorded(state: PageState) -> DistilledPage:
    for node in state.nodes:
        node.backend_id = BACKEND_OFFSET + node.id
    return distill(state)


def ref_of(page: DistilledPage, element_id: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.nodes[d.node_id].attributes.get("id") == element_id)


def backend_of(page: DistilledPage, element_id: str) -> int:
    return page.backend_id(ref_of(page, element_id))


def make_step(page: DistilledPage, target: str, op: str = "CLICK", value: str = "",
              task: str = "Sign up for a new account as Ada Lovelace",
              original_op: str | None = None) -> Step:
    return Step(step_id="t:1", task=task, history=["[textbox]  Email -> TYPE: a@b.c"],
                positives=[backend_of(page, target)],
                operation=Operation(op, value, original_op or op), source="miniwob",
                annotation_id="t", action_uid="1", step_index=1, website="fixture",
                page=page.state)


def conversation(page: DistilledPage, step: Step, calls: list[ToolCall],
                 mode: str = "query_only") -> list[dict]:
    """System, user, then each call with its real tool result; the last call is left open."""
    messages = opening(step.task, step.history, page, mode)  # as the teachers open a step
    for position, call in enumerate(calls):
        messages.append(to_openai_message([call], content="thinking", string_arguments=False))
        if position < len(calls) - 1:
            messages.append({"role": "tool", "name": call.name,
                             "content": execute_offline(call, page).text})
    return messages


def trajectory(page: DistilledPage, step: Step, calls: list[ToolCall],
               mode: str = "query_only", messages: list[dict] | None = None) -> Trajectory:
    return Trajectory(step_id=step.step_id, mode=mode, teacher="test",
                      messages=messages or conversation(page, step, calls, mode),
                      tools=openai_tools(), website=step.website)


def good_signup_calls(page: DistilledPage) -> list[ToolCall]:
    """Find the full-name field and type into it."""
    return [make_call("query_elements", text="full name", role="textbox"),
            make_call("type", index=ref_of(page, "full-name"), text="Ada Lovelace")]
