"""Progress on a real MiniWoB++ page, through the live harness (capture, loop, LiveActions): on
login-user, after typing the username the textbox listing says the password is still empty and
the next user turn says what the typing did; typing the same text again is reported as a change
to nothing."""

from __future__ import annotations

import re

import pytest
from test_miniwob_live import config, play

from eval.policies import PolicyFactory
from pipeline.agent.policy import Situation, Turn, calls_before, turn_from_calls
from pipeline.tools import make_call

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def chromium():
    from tests.conftest import require_chromium

    return require_chromium()


class FillUsernameTwice:
    """Step 1 and 2: list the textboxes, type the username; step 3: list them, then done."""

    name = "fill-username-twice"

    async def next_turn(self, situation: Situation) -> Turn:
        position = calls_before(situation.messages)
        if position == 0:
            call = make_call("query_elements", role="textbox")
        elif len(situation.history) < 2:
            username = re.search(r'username "([^"]+)"', situation.task).group(1)
            ref = next(ref for ref, node in situation.page.refs.items()
                       if node.attrs.get("id") == "username")
            call = make_call("type", index=ref, text=username)
        else:
            call = make_call("done")
        return turn_from_calls([call], "", position)


def test_login_user_shows_which_field_is_empty_and_what_typing_did(tmp_path):
    cfg = config(tmp_path, "policy=checkpoint", "mode=query_only", "miniwob.tasks=[login-user]",
                 "max_steps=4")
    policies = PolicyFactory(cfg)
    policies.register("checkpoint", FillUsernameTwice())
    (row,) = play(cfg, policies)
    steps = row["trajectory"]["steps"]
    assert row["stop"] == "done" and len(steps) == 3, row["stop"]
    username = re.search(r"TYPE: (\S+)", row["trajectory"]["history"][0]).group(1)

    first_listing = steps[0]["messages"][3]["content"]
    assert first_listing.count(" empty />") == 2, first_listing

    second = steps[1]["messages"][1]["content"]
    assert f"- [textbox]  Username -> TYPE: {username}\n" in second
    assert f'Username now holds "{username}"; nothing else changed.' in second
    listing = steps[1]["messages"][3]["content"]
    assert f"id=username value={username} />" in listing
    assert re.search(r"<input type=password [^>]*empty />", listing), listing

    third = steps[2]["messages"][1]["content"]
    assert "Last action's effect: that typing changed nothing on the page." in third
