"""A live MiniWoB++ episode as the agent loop's ``Environment``, shared by eval and datagen.

    env = await open_episode(page, base_url, task, seed, settings)   # goto, seeded start
    page_state = await env.observe()      # settle, capture, distill
    result = await env.act(call, page_state)
    over = await env.finished()

``observe`` waits after an executed action before it captures: until the timers the page set
since the last capture (at most ``after_action_ms`` long) have run and the document has not
changed for ``QUIET_MS``, ``after_action_ms`` at most. Pages debounce typing with a timer
(jQuery UI's autocomplete opens its menu 300 ms after the last keystroke), so a field that
debounces is waited for and a plain one is not; a page that keeps changing (MiniWoB++'s
countdown changes the DOM once a second) is captured after ``after_action_ms``. The timers are
seen through ``setTimeout`` and ``clearTimeout`` wrappers that the settle before each capture
installs; a page loaded since then (a navigation) has none, and the wait is for a quiet
document only. Then two animation frames and no running jQuery animation. Eval's live harness
plays its policies on it and datagen's DAgger run plays the student on it, so both see the
same pages.
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
QUIET_MS = 100  # a page this long without a DOM mutation after an action has settled
# Until the timers set since the last capture (of at most ``most`` ms) have run and no mutation
# of the document for ``quiet`` ms, or ``most`` ms.
_QUIET_JS = """([quiet, most]) => new Promise((resolve) => {
  const timers = window.__pagescoutTimers;
  const started = performance.now();
  let changed = started;
  const observer = new MutationObserver(() => { changed = performance.now(); });
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  const check = () => {
    const now = performance.now();
    const waiting = timers && [...timers.values()].some((delay) => delay <= most);
    if (now - started >= most || (!waiting && now - changed >= quiet)) {
      observer.disconnect(); resolve();
    } else {
      setTimeout(check, 10);
    }
  };
  check();
})"""
# Two animation frames, then no running jQuery animation (or 1 s): the page after an action.
# Then the page's timers are followed from here: the ones set from now on, until they run.
_SETTLE_JS = """async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await frame(); await frame();
  const deadline = Date.now() + 1000;
  while (window.jQuery && window.jQuery(':animated').length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  if (!window.__pagescoutTimers) {
    const timers = new Map(), set = window.setTimeout, clear = window.clearTimeout;
    window.setTimeout = function (handler, delay, ...rest) {
      const id = set.call(window, function (...args) {
        timers.delete(id);
        return typeof handler === 'function' ? handler.apply(this, args) : (0, eval)(handler);
      }, delay, ...rest);
      timers.set(id, Number(delay) || 0);
      return id;
    };
    window.clearTimeout = function (id) { timers.delete(id); return clear.call(window, id); };
    window.__pagescoutTimers = timers;
  }
  window.__pagescoutTimers.clear();
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
        self.acted = False  # an action ran since the last capture

    def ran(self) -> None:
        """An action ran on the page (``act``'s, or one a caller ran itself)."""
        self.acted = True

    async def observe(self) -> DistilledPage:
        if self.acted:
            await self.page.evaluate(_QUIET_JS, [QUIET_MS, self.after_action_ms])
        self.acted = False
        await self.page.evaluate(_SETTLE_JS)
        return distill(await capture_page(self.page, self.browser))

    async def act(self, call: ToolCall, page: DistilledPage) -> ToolResult:
        result = await execute(call, page, self.actions)
        if result.ok:
            self.ran()
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
