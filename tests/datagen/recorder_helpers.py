"""Shared pieces of the recorder tests: one MiniWoB++ server, episodes in the shared browser."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from datagen.miniwob.episode import CapturedStep, EpisodeRun, EpisodeSettings, run_episode
from datagen.verify.execution_stage import positive_refs
from pipeline.distill import distill
from pipeline.live.browser import BrowserConfig, new_context
from pipeline.query.passage import find_passage

SETTINGS = EpisodeSettings(BrowserConfig(), max_time_ms=60_000, max_steps=30,
                           target_wait_ms=2_000, disable_animations=True)


def play(session, base_url: str, task: str, seed: int) -> EpisodeRun:
    """One episode in the shared ``capture_session`` (sync CaptureSession)."""
    return session.run(run_episode(session.page, base_url, task, seed, SETTINGS))


def play_seeds(session, base_url: str, task: str, seeds: Iterable[int],
               pages: int = 3) -> list[EpisodeRun]:
    """The episodes of ``seeds`` in seed order, ``pages`` at a time: the session's page and
    ``pages - 1`` more, each in a browser context of its own (pages of one context share
    keyboard focus, and widgets such as jQuery UI's autocomplete close on blur). An episode
    mostly waits on its page, so a few pages share the browser without slowing each other."""
    async def all_seeds() -> list[EpisodeRun]:
        queue = list(enumerate(seeds))
        runs: dict[int, EpisodeRun] = {}
        browser = session.page.context.browser
        contexts = [await new_context(browser, SETTINGS.browser) for _ in range(pages - 1)]

        async def worker(page) -> None:
            while queue:
                i, seed = queue.pop(0)
                runs[i] = await run_episode(page, base_url, task, seed, SETTINGS)
        try:
            extra = [await context.new_page() for context in contexts]
            await asyncio.gather(*(worker(page) for page in [session.page, *extra]))
        finally:
            for context in contexts:
                await context.close()
        return [runs[i] for i in sorted(runs)]
    return session.run(all_seeds())


def unreachable(step: CapturedStep) -> list[str]:
    """The act's elements an agent acting through the distilled page's refs cannot reach: a
    click may go to a ref'd ancestor (a menu item's inner wrapper), any other act (a drag, a
    hover) needs the element's own ref; a key press goes where the focus is, and a passage to
    select is found by its text (in the act's element)."""
    if step.act.original_op == "PRESS":
        return []
    page = distill(step.state)
    if step.act.original_op == "SELECT_TEXT":
        spot = find_passage(page, step.act.value)
        found = spot is not None and spot.backend_id == step.target
        return [] if found else [f"SELECT_TEXT {step.act.value!r}"]
    own = {page.backend_id(ref) for ref in page.refs}
    click = step.act.original_op in ("CLICK", "ENTER")
    nodes = [step.state.nodes[step.state.by_backend_id()[backend]]
             for backend in (step.target, step.drop) if backend is not None
             and backend not in own and not (click and positive_refs(page, [backend]))]
    return [f"{step.act.original_op} <{node.tag} {node.attributes}>" for node in nodes]
