"""MiniWoB++ pages and seeded episodes, in a real headless Chromium (pipeline/live/miniwob.py)."""

from __future__ import annotations

import asyncio

import pytest

from pipeline.capture import CaptureSession
from pipeline.live import miniwob
from pipeline.live.browser import BrowserConfig, launch_browser, new_context
from pipeline.live.miniwob import (
    BENCHMARK_TASKS,
    MiniwobError,
    episode_from,
    episode_result,
    start_episode,
    task_url,
)

CONFIG = BrowserConfig()


def test_tasks_are_listed_and_benchmark_tasks_exist():
    tasks = miniwob.list_tasks()
    assert len(tasks) >= 100 and "click-button" in tasks
    assert len(BENCHMARK_TASKS) >= 20 and set(BENCHMARK_TASKS) <= set(tasks)
    assert not any("flight" in t for t in BENCHMARK_TASKS)


def test_unknown_task_names_alternatives():
    with pytest.raises(MiniwobError, match="click-buton.*similar: .*click-button"):
        task_url("http://127.0.0.1:1", "click-buton")


def test_utterance_forms():
    plain = episode_from("login-user", 1, 'Enter the username "ann" and the password "pw" into the '
                         "text fields and press login.")
    assert plain.fields == (("username", "ann"), ("password", "pw"))
    nl = episode_from("email-inbox-nl-turk", 1, {"utterance": "Reply to Bo", "fields": {"by": "Bo"}})
    assert (nl.utterance, nl.fields) == ("Reply to Bo", (("by", "Bo"),))
    assert episode_from("click-test", 1, "Click the button.").fields == ()
    with pytest.raises(MiniwobError, match="seed must be an int or a str"):
        miniwob.start_args(True, 1000)


@pytest.fixture(scope="module")
def served():
    with miniwob.serve_miniwob() as base_url:
        yield base_url


@pytest.mark.browser
def test_async_episodes_are_seeded(served):
    async def run():
        async with launch_browser(CONFIG) as browser:
            page = await (await new_context(browser, CONFIG)).new_page()
            await page.goto(task_url(served, "enter-text"))
            first = await start_episode(page, "enter-text", 42)
            again = await start_episode(page, "enter-text", 42)
            other = await start_episode(page, "enter-text", 43)
            running = await episode_result(page)
            await page.fill("#tt", other.fields[0][1])
            await page.click("#subbtn")
            finished = await episode_result(page)
            await page.goto(task_url(served, "click-button"))
            with pytest.raises(MiniwobError, match="not the 'enter-text' task"):
                await start_episode(page, "enter-text", 1)
            return first, again, other, running, finished

    first, again, other, running, finished = asyncio.run(run())
    assert first.utterance.startswith("Enter ") and first.fields[0][0] == "target"
    assert first == again and first.utterance != other.utterance
    assert not running.done
    assert finished.done and finished.success and finished.raw_reward == 1.0


@pytest.mark.browser
def test_episode_through_the_sync_capture_session(served):
    with CaptureSession(CONFIG) as session:
        session.goto(task_url(served, "click-button"))
        episode = session.run(start_episode(session.page, "click-button", "7"))
        state = session.capture()
        button = session.page.get_by_role("button", name=episode.fields[0][1], exact=True)
        session.run(button.click())
        result = session.run(episode_result(session.page))
    assert any(n.text == episode.fields[0][1] for n in state.nodes)
    assert result.success and result.reason is not None
