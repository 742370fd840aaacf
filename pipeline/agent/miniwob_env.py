"""A live MiniWoB++ episode as the agent loop's ``Environment``, shared by eval and datagen.

    env = await open_episode(page, base_url, task, seed, settings)   # goto, seeded start
    page_state = await env.observe()      # settle, capture, distill
    result = await env.act(call, page_state)
    over = await env.finished()

``observe`` waits after an executed action before it captures: ``after_action_ms`` after
keyboard input (pages debounce typing: jQuery UI's autocomplete opens its menu 300 ms after the
last keystroke), and after a pointer action until the page has not changed for ``QUIET_MS``
(no DOM mutation), ``after_action_ms`` at most (MiniWoB++'s countdown changes the DOM once a
second); then two animation frames and no running jQuery animation. Eval's live harness plays
its policies on it and datagen's DAgger run plays the student on it, so both see the same
pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.agent.execute import ToolResult, execute
from pipeline.capture import capture_page
from pipeline.distill import distill
from pipeline.distill.model import DistilledPage
from pipeline.live.actions import LiveActions
from pipeline.live.browser import BrowserConfig
from pipeline.live.miniwob import Episode, episode_result, start_episode, task_url
from pipeline.tools import ToolCall

_FX_OFF_JS = "() => { if (window.jQuery) window.jQuery.fx.off = true; }"
KEYBOARD_ACTIONS = frozenset({"type", "press", "clear"})
QUIET_MS = 100  # a page this long without a DOM mutation after a pointer action has settled
# Until no mutation of the document for quiet ms, or max ms.
_QUIET_JS = """([quiet, most]) => new Promise((resolve) => {
  let timer = null;
  const observer = new MutationObserver(() => { clearTimeout(timer);
                                                timer = setTimeout(done, quiet); });
  const deadline = setTimeout(done, most);
  function done() { observer.disconnect(); clearTimeout(timer); clearTimeout(deadline);
                    resolve(); }
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  timer = setTimeout(done, quiet);
})"""
# Two animation frames, then no running jQuery animation (or 1 s): the page after an action.
_SETTLE_JS = """async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await frame(); await frame();
  const deadline = Date.now() + 1000;
  while (window.jQuery && window.jQuery(':animated').length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
}"""


@dataclass(frozen=True, slots=True)
class LiveSettings:
    browser: BrowserConfig  # capture options
    episode_max_time_ms: int  # the task's own timer
    disable_animations: bool  # jQuery.fx.off: widgets open at once
    after_action_ms: int  # wait after an action before the next capture


class MiniwobEnvironment:
    """The ``Environment`` of one episode's page (see ``pipeline.agent.loop``)."""

    def __init__(self, page: Any, actions: LiveActions, browser: BrowserConfig,
                 after_action_ms: int) -> None:
        self.page, self.actions = page, actions
        self.browser, self.after_action_ms = browser, after_action_ms
        self.keyboard: bool | None = None  # since the last capture: None, no action ran; else
        # whether one was keyboard input

    def ran(self, keyboard: bool) -> None:
        """An action ran on the page (``act``'s, or one a caller ran itself)."""
        self.keyboard = keyboard or bool(self.keyboard)

    async def observe(self) -> DistilledPage:
        if self.keyboard:
            await self.page.wait_for_timeout(self.after_action_ms)
        elif self.keyboard is not None:
            await self.page.evaluate(_QUIET_JS, [QUIET_MS, self.after_action_ms])
        self.keyboard = None
        await self.page.evaluate(_SETTLE_JS)
        return distill(await capture_page(self.page, self.browser))

    async def act(self, call: ToolCall, page: DistilledPage) -> ToolResult:
        result = await execute(call, page, self.actions)
        if result.ok:
            self.ran(call.name in KEYBOARD_ACTIONS)
        return result

    async def finished(self) -> bool:
        return (await episode_result(self.page)).done


async def open_episode(page: Any, base_url: str, task: str, seed: int,
                       settings: LiveSettings) -> Episode:
    """Load the task page and start its episode under ``seed``."""
    await page.goto(task_url(base_url, task), wait_until="load")
    episode = await start_episode(page, task, seed, settings.episode_max_time_ms)
    if settings.disable_animations:
        await page.evaluate(_FX_OFF_JS)
    return episode
