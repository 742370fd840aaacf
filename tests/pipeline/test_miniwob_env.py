"""How long the live environment waits after an action before it captures, in real Chromium:
until the timers the action set have run and the page stops changing -- an effect a click sets
250 ms later (past a quiet 100 ms), a field's input debounced 300 ms, are in the capture, at a
fraction of ``after_action_ms``; typing into a plain field is captured at once; never longer
than ``after_action_ms`` on a page that keeps changing, nor after a timer longer than that."""

from __future__ import annotations

import time

import pytest

from pipeline.agent.miniwob_env import MiniwobEnvironment
from pipeline.live.actions import LiveActions
from pipeline.live.browser import BrowserConfig
from pipeline.tools import make_call

pytestmark = pytest.mark.browser
AFTER_ACTION_MS = 2000  # the capture and distilling after the wait take ~1 s on a busy machine


def texts(page) -> set[str]:
    return {node.text.strip() for node in page.state.nodes if node.text.strip()}


def test_the_capture_waits_for_the_actions_timers_and_a_quiet_page(
        capture_session, pages_server):
    run = capture_session.run
    capture_session.capture(f"{pages_server}/late_changes.html")
    env = MiniwobEnvironment(capture_session.page, LiveActions(capture_session.page),
                             BrowserConfig(), AFTER_ACTION_MS)

    def act_then_observe(name: str, element_id: str, **arguments):
        page = run(env.observe())
        refs = {page.state.nodes[d.node_id].attributes.get("id"): ref
                for ref, d in page.refs.items()}
        assert run(env.act(make_call(name, index=refs[element_id], **arguments), page)).ok
        started = time.perf_counter()
        after = run(env.observe())
        return after, time.perf_counter() - started

    clicked, waited = act_then_observe("click", "soon")
    assert "changed soon" in texts(clicked) and waited < 0.6 * AFTER_ACTION_MS / 1000
    typed, waited = act_then_observe("type", "field", text="ab")
    assert "debounced ab" in texts(typed) and 0.3 <= waited < 0.6 * AFTER_ACTION_MS / 1000
    _, waited = act_then_observe("type", "plain", text="ab")
    assert waited < 0.6 * AFTER_ACTION_MS / 1000
    late, waited = act_then_observe("click", "late")
    assert "changed late" not in texts(late) and waited < 0.6 * AFTER_ACTION_MS / 1000
    _, waited = act_then_observe("click", "busy")
    assert AFTER_ACTION_MS / 1000 <= waited < 2 * AFTER_ACTION_MS / 1000
    run(env.actions.close())
