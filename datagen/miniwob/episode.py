"""Run one seeded MiniWoB++ episode with an oracle policy and keep what the recorder writes.

``run_episode`` loads the task page, starts the seeded episode, then for every act the policy
yields: resolves the act's target to its CDP backend node id, waits until it is visible and no
animation runs, captures the page (``capture_page``), checks the target is in the capture,
performs the act through ``LiveActions`` (Enter through the keyboard) and stops as soon as the
episode is done (a click after the end would start a new, unseeded episode). It returns the
captured steps and the result; turning them into Mind2Web records is ``datagen.mind2web.writer``'s
job. Problems of the episode (a missing target, a refused action, a policy that gives up) come
back as ``EpisodeRun.failure``; browser errors and timeouts propagate to the recorder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from datagen.miniwob.policies import Act, Policy, PolicyError, policy_for
from pipeline.capture import capture_page
from pipeline.html.mind2web_format import parse_drag_value
from pipeline.live.actions import LiveActions
from pipeline.live.browser import BrowserConfig
from pipeline.live.miniwob import Episode, EpisodeResult, episode_result, start_episode, task_url
from pipeline.page_state import PageState

# Waits until the target is visible and no jQuery animation runs; resolves to a reason or "".
_SETTLE_JS = """async (timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const el = (TARGET)();
    const busy = window.jQuery && window.jQuery(':animated').length > 0;
    if (el && !busy) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && el.checkVisibility()) return '';
    }
    if (Date.now() > deadline) return el ? 'not visible' : 'not found';
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
}"""
_FX_OFF_JS = "() => { if (window.jQuery) window.jQuery.fx.off = true; }"


@dataclass(frozen=True, slots=True)
class EpisodeSettings:
    browser: BrowserConfig
    max_time_ms: int  # the MiniWoB++ episode timer
    max_steps: int  # a policy that yields more acts fails the episode
    target_wait_ms: int  # how long a target may take to appear
    disable_animations: bool  # jQuery.fx.off: widgets open at once


@dataclass(slots=True)
class CapturedStep:
    state: PageState  # the page just before the act
    target: int  # live backend node id of the act's element
    act: Act
    drop: int | None = None  # live backend node id of a drag's drop target


@dataclass(slots=True)
class EpisodeRun:
    episode: Episode | None
    steps: list[CapturedStep] = field(default_factory=list)
    result: EpisodeResult | None = None
    failure: str = ""  # why the episode cannot be written ("" when it succeeded)

    @property
    def success(self) -> bool:
        return not self.failure and self.result is not None and self.result.success


async def run_episode(page: Any, base_url: str, task: str, seed: int,
                      settings: EpisodeSettings, policy: Policy | None = None) -> EpisodeRun:
    """Play one episode of ``task`` under ``seed`` on ``page`` (async Playwright) with
    ``policy`` (default: the task's oracle policy from ``datagen.miniwob.policies``)."""
    policy = policy or policy_for(task)
    await page.goto(task_url(base_url, task), wait_until="load")
    episode = await start_episode(page, task, seed, settings.max_time_ms)
    if settings.disable_animations:
        await page.evaluate(_FX_OFF_JS)
    run = EpisodeRun(episode)
    actions = LiveActions(page)
    acts = policy(page, episode)
    try:
        async for act in acts:
            if len(run.steps) >= settings.max_steps:
                run.failure = f"policy_loop: more than max_steps={settings.max_steps} acts"
                break
            run.failure = await _step(page, actions, act, run, settings)
            if run.failure:
                break
            run.result = await episode_result(page)
            if run.result.done:
                break
    except PolicyError as exc:
        run.failure = f"policy: {exc}"
    finally:
        await acts.aclose()
        await actions.close()
    if not run.failure:
        run.result = await episode_result(page)
        if not run.result.done:
            run.failure = "unfinished: the policy ran out of acts before the episode ended"
        elif not run.result.success:
            run.failure = f"reward: raw reward {run.result.raw_reward:g} < 1"
    return run


async def _step(page: Any, actions: LiveActions, act: Act, run: EpisodeRun,
                settings: EpisodeSettings) -> str:
    """Capture, check and perform one act; returns a failure reason or ""."""
    problem = await settle_target(page, act, settings.target_wait_ms)
    if problem:
        return f"target: {problem} ({act.op} {act.target[:80]})"
    target = await actions.backend_id_of(act.target)
    if target is None:
        return f"target: did not resolve to an element ({act.target[:80]})"
    drop = await actions.backend_id_of(act.drop) if act.drop else None
    if act.drop and drop is None:
        return f"target: the drop target did not resolve to an element ({act.drop[:80]})"
    state = await capture_page(page, settings.browser)
    missing = [i for i in (target, drop) if i is not None and i not in state.by_backend_id()]
    if missing:
        return f"capture: target backend id {missing[0]} is not in the capture"
    run.steps.append(CapturedStep(state, target, act, drop))
    outcome = await perform(actions, act, target, drop)
    return "" if outcome.ok else f"action_{outcome.error}: {outcome.message}"


async def settle_target(page: Any, act: Act, wait_ms: int) -> str:
    """Wait (at most ``wait_ms``) until the act's target is visible and no animation runs;
    returns "" or why not ("not found", "not visible")."""
    return await page.evaluate(_SETTLE_JS.replace("TARGET", act.target), wait_ms)


async def perform(actions: LiveActions, act: Act, target: int, drop: int | None = None):
    """Do the act on the live page; returns LiveActions' ActionOutcome."""
    if act.original_op == "ENTER":
        return await actions.press("Enter", target)
    if act.op == "TYPE":
        return await actions.type(target, act.value)
    if act.op == "SELECT":
        return await actions.select(target, act.value)
    if act.original_op == "HOVER":
        return await actions.hover(target)
    if act.original_op == "SCROLL":
        direction, _, amount = act.value.partition(":")
        return await actions.scroll(direction, target, to_end=amount == "end")
    if act.original_op == "PRESS":
        return await actions.press(act.value)
    if act.original_op == "CLEAR":
        return await actions.clear(target)
    if act.original_op == "SELECT_TEXT":  # found by its text, as the agent's call finds it
        return await actions.select_text(act.value)
    if act.original_op == "DRAG":
        if drop is not None:
            return await actions.drag(target, to_backend_id=drop)
        return await actions.drag(target, offset=parse_drag_value(act.value)[1])
    return await actions.click(target)
