"""The oracle labels any state of an episode: a page put in a wrong or half-done state gets the
right next act from ``next_label``, and following the labels from there finishes the task with
reward > 0 (real Chromium, the tasks' own pages and seeds)."""

from __future__ import annotations

import re

import pytest

from datagen.miniwob.episode import perform, settle_target
from datagen.miniwob.policies import POLICIES, policy_for
from datagen.miniwob.policies.base import css
from datagen.miniwob.policies.restart import effect_shown, next_label
from pipeline.agent.miniwob_env import LiveSettings, open_episode
from pipeline.live.actions import LiveActions
from pipeline.live.browser import BrowserConfig
from pipeline.live.field_values import wire_value
from pipeline.live.miniwob import episode_result, serve_miniwob
from pipeline.query.similar import boxes_for

SETTINGS = LiveSettings(BrowserConfig(), 60_000, disable_animations=True, after_action_ms=0)
SEED = 5


@pytest.fixture(scope="module")
def miniwob_base():
    with serve_miniwob() as base_url:
        yield base_url


class Live:
    """One episode in the shared session: disturb the page, ask for labels, follow them."""

    def __init__(self, session, base_url: str, task: str, seed: int = SEED) -> None:
        self.session = session
        self.episode = session.run(open_episode(session.page, base_url, task, seed, SETTINGS))
        self.page = session.page

    def js(self, script: str, arg=None):
        return self.session.run(self.page.evaluate(script, arg))

    def type(self, selector: str, text: str) -> None:
        self.session.run(self.page.fill(selector, text))

    def click(self, selector: str) -> None:
        self.session.run(self.page.click(selector))

    def keys(self, text: str, then: str | None = None) -> None:
        """Type ``text`` where the focus is, then press ``then`` (a command and its Enter)."""
        self.session.run(self.page.keyboard.type(text))
        if then is not None:
            self.session.run(self.page.keyboard.press(then))

    def label(self):
        return self.session.run(next_label(self.page, self.episode))

    def step(self):
        """Perform the oracle's label; the episode's result after it."""
        async def run():
            actions = LiveActions(self.page)
            try:
                act = await next_label(self.page, self.episode)
                assert act is not None, "the oracle stopped before the episode ended"
                assert not await settle_target(self.page, act, 2_000)
                target = await actions.backend_id_of(act.target)
                drop = await actions.backend_id_of(act.drop) if act.drop else None
                assert (await perform(actions, act, target, drop)).ok
                return await episode_result(self.page)
            finally:
                await actions.close()
        return self.session.run(run())

    def finish(self, max_acts: int = 12) -> float:
        """Follow the oracle's labels until the episode ends; its raw reward."""
        for _ in range(max_acts):
            result = self.step()
            if result.done:
                return result.raw_reward
        raise AssertionError(f"not done after {max_acts} labelled acts")


def quoted(live: Live, n: int = 0) -> str:
    return live.episode.utterance.split('"')[2 * n + 1]


def fields(live: Live) -> dict[str, str]:
    return dict(live.episode.fields)


pytestmark = pytest.mark.browser


def test_login_user_password_typed_first(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "login-user")
    live.type("#password", fields(live)["password"])
    act = live.label()
    assert (act.op, act.value, act.target) == ("TYPE", fields(live)["username"], css("#username"))
    assert live.finish() > 0


def test_login_user_wrong_value_is_retyped(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "login-user")
    live.type("#username", fields(live)["password"])  # the mistake: the wrong field value
    live.type("#password", fields(live)["password"])
    act = live.label()
    assert (act.op, act.value) == ("TYPE", fields(live)["username"])
    assert live.finish() > 0


def test_enter_password_second_field_first(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "enter-password")
    live.type("#verify", quoted(live))
    act = live.label()
    assert (act.op, act.target) == ("TYPE", css("#password"))
    assert live.finish() > 0


def test_enter_password_both_typed_leaves_submit(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "enter-password")
    live.type("#password", quoted(live))
    live.type("#verify", quoted(live))
    assert live.label().target == css("#subbtn")
    assert live.finish() > 0


def test_enter_date_wrong_date_is_retyped(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "enter-date")
    live.type("#tt", "2001-01-01")
    act = live.label()
    assert act.op == "TYPE" and act.value != "2001-01-01" and act.target == css("#tt")
    assert live.finish() > 0


def test_enter_time_shown_in_the_fields_format_is_not_typed_again(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "enter-time")
    spoken = re.search(r"Enter (\d{1,2}:\d\d\s?[AP]M)", live.episode.utterance).group(1)
    assert live.label().value == spoken  # the oracle types the time as the task writes it
    live.type("#tt", wire_value("time", spoken))  # the field holds it as HH:MM
    assert live.label().target == css("#subbtn")
    assert live.finish() > 0


def test_search_engine_wrong_search_then_right_one(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "search-engine")
    live.type("#search-text", "nothing like it")
    live.click("#search")
    act = live.label()
    assert (act.op, act.value) == ("TYPE", quoted(live))
    live.type("#search-text", quoted(live))
    assert live.label().target == css("#search")  # the listed results are the wrong search's
    assert live.finish() > 0


def test_search_engine_results_already_listed(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "search-engine")
    live.type("#search-text", quoted(live))
    live.click("#search")
    act = live.label()
    assert act.target != css("#search") and act.op == "CLICK"  # a page link or the result
    assert live.finish() > 0


def test_email_inbox_delete_wrong_email_open(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "email-inbox-delete")
    sender = live.episode.utterance.split("Find the email by ")[1].split(" and ")[0]
    opened = live.js("(sender) => { const t = Array.from(document.querySelectorAll("
                     "'#main .email-thread')).find((t) => t.querySelector('.email-sender')"
                     ".textContent !== sender); t.click(); return t.querySelector("
                     "'.email-sender').textContent; }", sender)
    assert opened != sender
    assert live.label().target == css("#close-email")
    assert live.finish() > 0


def test_email_inbox_delete_right_email_open(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "email-inbox-delete")
    sender = live.episode.utterance.split("Find the email by ")[1].split(" and ")[0]
    live.js("(sender) => Array.from(document.querySelectorAll('#main .email-thread')).find("
            "(t) => t.querySelector('.email-sender').textContent === sender).click()", sender)
    assert live.label().target == css("#email .email-actions .trash")
    assert live.finish() > 0


def test_email_by_fields_right_email_open(capture_session, miniwob_base):
    # the free-text email tasks (DAgger's students open the email, then the label must act on
    # it, not click the hidden inbox row again)
    for task in ("email-inbox-nl-turk", "email-inbox-forward-nl", "email-inbox-star-reply"):
        live = Live(capture_session, miniwob_base, task)
        live.js("(sender) => Array.from(document.querySelectorAll('#main .email-thread')).find("
                "(t) => t.querySelector('.email-sender').textContent === sender).click()",
                fields(live)["by"])
        assert live.label().target in {css("#email .email-actions .trash"),
                                       css("#email .email-actions .star"),
                                       css("#email .email-reply"), css("#email .email-forward")}
        assert live.finish() > 0


def test_click_tab_2_wrong_tab_open(capture_session, miniwob_base):
    for seed in range(SEED, SEED + 10):  # a seed whose link is not in the first tab
        live = Live(capture_session, miniwob_base, "click-tab-2", seed)
        tabs = live.js("(w) => Array.from(document.querySelectorAll('#area ul a')).map((a) => "
                       "[a.getAttribute('href'), !!document.querySelector(a.getAttribute("
                       "'href')).textContent.includes(w)])", quoted(live))
        wrong = [href for href, holds in tabs if not holds]
        if wrong and wrong[-1] != tabs[0][0]:
            break
    live.click(f'#area ul a[href="{wrong[-1]}"]')
    act = live.label()
    assert act.target.startswith("() => {") and "#area ul a[href=" in act.target
    assert live.finish() > 0


def test_click_checkboxes_wrong_box_is_unticked(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "click-checkboxes")
    ticked = live.js("() => { const wanted = core.getUtterance(); for (const l of "
                     "document.querySelectorAll('#area label')) { const name = l.textContent"
                     ".trim(); if (!wanted.includes(name)) { l.querySelector('input').click();"
                     " return name; } } return null; }")
    assert ticked is not None
    act = live.label()
    assert act.checked is False and ticked in act.target
    assert live.finish() > 0


def test_click_checkboxes_soft_wrong_box_is_unticked(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "click-checkboxes-soft")
    asked = re.search(r"similar to (.*) and click", live.episode.utterance).group(1).split(", ")
    boxes = live.js("() => Array.from(document.querySelectorAll('#area label'), "
                    "(l) => l.textContent.trim())")
    wrong = next(box for box in boxes if box not in boxes_for(asked, boxes))
    live.js("(name) => Array.from(document.querySelectorAll('#area label')).find("
            "(l) => l.textContent.trim() === name).querySelector('input').click()", wrong)
    act = live.label()
    assert act.checked is False and wrong in act.target
    assert live.finish() == 1


def test_choose_date_easy_date_already_chosen(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "choose-date-easy")
    wanted = re.search(r"\d\d/\d\d/\d{4}", live.episode.utterance).group(0)
    live.js("(d) => { document.querySelector('#datepicker').value = d; }", wanted)
    assert live.label().target == css("#subbtn")
    assert live.finish() > 0


def test_login_user_popup_half_done(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "login-user-popup")
    live.type("#username", fields(live)["username"])
    assert live.label().value == fields(live)["password"] or live.label().target == css(
        "#popup-cancel")
    assert live.finish() > 0


def test_terminal_after_a_listing_and_with_a_wrong_command_typed(capture_session, miniwob_base):
    # DAgger's students click the terminal again and again: a fresh run's first act was the
    # click, so every label was the click, and a second "ls" after the listing
    live = Live(capture_session, miniwob_base, "terminal")
    live.click("#terminal")
    live.keys("ls", then="Enter")
    act = live.label()
    assert act.op == "TYPE" and act.value.startswith("rm "), act  # no click, no second ls
    live.keys("cat")
    act = live.label()
    assert (act.original_op, act.value) == ("PRESS", "Backspace"), act
    assert live.finish() > 0


def test_terminal_asks_for_help_then_lists(capture_session, miniwob_base):
    # The verifier drops a typed command the page never showed: the greeting names ``help``,
    # whose output names ``ls``, so help comes first and once
    live = Live(capture_session, miniwob_base, "terminal")
    live.click("#terminal")
    act = live.label()
    assert (act.op, act.value) == ("TYPE", "help"), act
    live.keys("help", then="Enter")
    act = live.label()
    assert (act.op, act.value) == ("TYPE", "ls"), act
    assert live.finish() > 0


def test_ascending_numbers_after_the_first_click(capture_session, miniwob_base):
    # the numbers hide once 1 is clicked: a fresh run looked for the 1 and labelled nothing
    live = Live(capture_session, miniwob_base, "ascending-numbers")
    live.click("#area_svg text:text-is('1')")
    assert live.label().target == css("#area_svg rect"), live.label()
    assert live.finish() > 0


def test_text_editor_with_everything_selected_then_styled(capture_session, miniwob_base):
    for seed in range(SEED, SEED + 30):
        live = Live(capture_session, miniwob_base, "text-editor", seed)
        if "everything the style" in live.episode.utterance:
            break
    live.click("#editor .ql-editor")
    capture_session.run(live.page.keyboard.press("ControlOrMeta+a"))
    act = live.label()  # the style's key, not a click that would drop the selection
    assert act.original_op == "PRESS" and act.value != "ControlOrMeta+a", act
    assert not live.step().done
    assert live.label().target == css("#subbtn")
    assert live.finish() > 0


def test_book_flight_with_the_results_listed(capture_session, miniwob_base):
    live = Live(capture_session, miniwob_base, "book-flight")
    for _ in range(12):
        if live.js("() => !!document.querySelector('#results .flight')"):
            break
        assert not live.step().done
    assert ".flight-price" in live.label().target  # not the airport field the form hides
    assert live.finish(max_acts=1) > 0


@pytest.mark.parametrize("task", ["click-option", "choose-list", "form-sequence-2",
                                  "multi-orderings", "use-autocomplete", "email-inbox-forward",
                                  "click-checkboxes-soft"])
def test_after_the_first_act_the_label_moves_on(capture_session, miniwob_base, task):
    """Once the first label is done the page shows it: the next label is another act."""
    live = Live(capture_session, miniwob_base, task)
    first = live.label()
    assert not capture_session.run(effect_shown(live.page, first))
    assert not live.step().done
    assert live.label() != first or first.op == "CLICK" and first.checked is None
    assert live.finish() > 0


def test_every_policy_labels_the_fresh_page(capture_session, miniwob_base):
    """From the start, the label is the policy's own first act."""
    for task in ("click-button", "enter-text", "use-spinner", "navigate-tree", "social-media"):
        live = Live(capture_session, miniwob_base, task)
        acts = policy_for(task)(live.page, live.episode)
        first = capture_session.run(anext(acts))
        capture_session.run(acts.aclose())
        assert live.label() == first, task
    assert len(POLICIES) >= 25


def test_social_media_presses_read_from_the_page(capture_session, miniwob_base):
    # a click toggles a control and Submit fails on a stray one: the student's press on another
    # user's post is undone first, and a post it already pressed for the user is not pressed again
    for task in ("social-media-all", "social-media-some"):
        live = Live(capture_session, miniwob_base, task)
        kind = {"Reply": "reply", "Retweet": "retweet", "Like": "like",
                "Share": "share"}[fields(live)["button"]]
        pressed = live.js(
            "([user, kind]) => { const posts = Array.from(document.querySelectorAll("
            "'#area .media')); const mine = posts.filter((m) => m.querySelector('.username')"
            ".textContent === user); const other = posts.find((m) => !mine.includes(m)); "
            "mine[0].querySelector('.' + kind).click(); other.querySelector('.' + kind)"
            ".click(); return [mine[0].dataset.result, other.dataset.result]; }",
            [fields(live)["user"], kind])
        act = live.label()
        assert act.target == css(f'#area .media[data-result="{pressed[1]}"] .{kind}')
        assert live.finish() == 1


def test_highlight_labels_read_what_the_page_has_selected(capture_session, miniwob_base):
    # a selection of something else is selected over; the paragraph selected, Submit is next
    for task in ("highlight-text", "highlight-text-2"):
        live = Live(capture_session, miniwob_base, task)
        first = live.label()
        assert first.original_op == "SELECT_TEXT" and first.value
        live.js("() => { const range = document.createRange(); range.selectNodeContents("
                "document.querySelector('#query')); getSelection().removeAllRanges(); "
                "getSelection().addRange(range); }")
        assert live.label() == first
        assert not live.step().done
        assert live.label().target == css("#subbtn")
        assert live.finish() == 1


def test_slider_labels_read_the_sliders_value(capture_session, miniwob_base):
    # a slider already at the task's number is left alone; one set wrong is set again
    live = Live(capture_session, miniwob_base, "use-slider-2")
    first = live.label()
    assert (first.op, first.target) == ("SELECT", css("#slider-1"))  # the slider, not its handle
    assert live.step().done is False and live.label().target == css("#slider-2")
    live.js("() => $('#slider-1').slider('value', $('#slider-1').slider('value') === 0 ? 1 : 0)")
    assert live.label() == first
    assert live.finish() > 0


@pytest.mark.parametrize("task", ["drag-circle", "drag-single-shape", "resize-textarea"])
def test_a_drag_done_the_right_way_is_not_done_again_and_a_wrong_one_is_mended(
        capture_session, miniwob_base, task):
    # DAgger labelled "drag again" after a student's right drag: the recorded episodes go on to
    # Submit from that state, and the two labels disagreed
    live = Live(capture_session, miniwob_base, task)
    first = live.label()
    assert first.original_op == "DRAG", first
    dx, dy = (int(n) for n in first.value.removeprefix("by:").split(","))
    assert not live.step().done  # the right drag
    assert live.label().target in (css("#subbtn"), css("#submit"))
    wrong = Live(capture_session, miniwob_base, task)
    assert wrong.label() == first
    box = wrong.js(f"() => {{ const r = ({first.target})().getBoundingClientRect();"
                   " return [r.x + r.width / 2, r.y + r.height / 2]; }")
    mouse = wrong.page.mouse
    for move in (mouse.move(*box), mouse.down(), mouse.move(box[0] - dx, box[1] - dy, steps=5),
                 mouse.up()):  # the wrong way
        capture_session.run(move)
    assert wrong.label() == first  # dragged again the right way
    assert wrong.finish() > 0


def test_guess_number_bisects_on_from_the_feedback_so_far(capture_session, miniwob_base):
    # a fresh run guessed 4 again after the page had said "higher than 4"
    live = Live(capture_session, miniwob_base, "guess-number")
    answer = None
    for guess in range(10):  # find the answer the way a user can: by asking the page
        live.type("#tt", str(guess))
        live.click("#subbtn")
        if live.js("() => !document.getElementById('higher').classList.contains('hide')"):
            continue
        answer = guess
        break
    live = Live(capture_session, miniwob_base, "guess-number")
    assert live.label().value == "4"
    low, high = 0, 9
    for guess in (7, 2):  # the student's own guesses, not the bisection's
        if guess == answer or not low <= guess <= high:
            continue
        live.type("#tt", str(guess))
        capture_session.run(live.page.keyboard.press("Enter"))
        low, high = (guess + 1, high) if guess < answer else (low, guess - 1)
        assert live.label().value == str((low + high) // 2), (guess, low, high)
    assert live.finish() > 0


@pytest.mark.parametrize("task", ["odd-or-even", "form-sequence", "drag-shapes", "drag-shapes-2"])
def test_an_act_the_page_shows_done_is_not_the_next_label(capture_session, miniwob_base, task):
    # a fresh run marked a row already marked, clicked a ticked checkbox or dragged a shape
    # already in its box again: DAgger's labels repeated the student's right act
    live = Live(capture_session, miniwob_base, task)
    done = []
    for _ in range(3):
        label = live.label()
        assert label.target not in done, (label, done)
        if label.target in (css("#subbtn"), css("#submit")):
            break
        done.append(label.target)
        assert not live.step().done
    assert live.finish() > 0
