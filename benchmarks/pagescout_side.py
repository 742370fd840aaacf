"""pagescout's side of the serializer benchmark: one page measured in a live Playwright page.

``measure_page`` loads the page (starting the seeded MiniWoB++ episode when it is a task page),
then times ``capture_page`` → ``distill`` → ``render_flat``/``render_outline`` ``repeat`` times
(medians), counts nodes, characters and tokens of the raw HTML (``page.content()``) and both
renderings, renders the outline of a second, unchanged capture against the first (step 2), and
scores the share of visible interactive elements the refs keep (``groundtruth.py``).
"""

from __future__ import annotations

import time
from typing import Any

from common import PageSpec, median
from groundtruth import coverage, visible_interactive_backend_ids

from pipeline.capture import capture_page
from pipeline.distill import distill
from pipeline.distill.options import DistillOptions
from pipeline.live.miniwob import start_episode
from pipeline.model.token_count import count_tokens
from pipeline.page_state import PageState
from pipeline.render import render_flat, render_outline
from pipeline.render.options import RenderOptions

EPISODE_MAX_TIME_MS = 600_000  # the episode must not time out while the benchmark measures


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, (time.perf_counter() - start) * 1000


async def timed_capture(page, config) -> tuple[PageState, float]:
    start = time.perf_counter()
    state = await capture_page(page, config)
    return state, (time.perf_counter() - start) * 1000


def parent_backend_map(state: PageState) -> dict[int, int | None]:
    """backend id -> backend id of the nearest ancestor that has one (for ``coverage``)."""
    parents: dict[int, int | None] = {}
    for node in state.nodes:
        if node.backend_id is None:
            continue
        parent = node.parent
        while parent is not None and state.nodes[parent].backend_id is None:
            parent = state.nodes[parent].parent
        parents[node.backend_id] = None if parent is None else state.nodes[parent].backend_id
    return parents


async def measure_page(page, spec: PageSpec, config, repeat: int) -> dict[str, Any]:
    await page.goto(spec.url, wait_until="load")
    if spec.task:
        await start_episode(page, spec.task, spec.seed, EPISODE_MAX_TIME_MS)
    raw_html = await page.content()
    options, render_options = DistillOptions(), RenderOptions()
    runs = []
    for _ in range(repeat):
        state, capture_ms = await timed_capture(page, config)
        distilled, distill_ms = timed(distill, state, options)
        flat, flat_ms = timed(render_flat, distilled, render_options, None)
        outline, outline_ms = timed(render_outline, distilled, render_options, None)
        runs.append((state, distilled, flat, outline, capture_ms, distill_ms, flat_ms, outline_ms))
    first, last = runs[0], runs[-1]
    state, distilled, flat, outline = last[:4]
    step2 = render_outline(last[1], render_options, first[1])
    cdp = await page.context.new_cdp_session(page)
    truth = await visible_interactive_backend_ids(lambda method, params: cdp.send(method, params))
    await cdp.detach()
    indexed = [distilled.backend_id(ref) for ref in distilled.refs]
    return {
        "name": spec.name,
        "url": spec.url,
        "capture_ms": median(r[4] for r in runs),
        "distill_ms": median(r[5] for r in runs),
        "flat_ms": median(r[6] for r in runs),
        "outline_ms": median(r[7] for r in runs),
        "nodes": len(state.nodes),
        "kept_nodes": sum(1 for _ in distilled.root.walk()),
        "refs": len(distilled.refs),
        "raw": sizes(raw_html),
        "flat": sizes(flat),
        "outline": sizes(outline),
        "outline_step2": sizes(step2),
        "coverage": coverage(truth, [b for b in indexed if b is not None], parent_backend_map(state)),
        "flat_text": flat,
    }


def sizes(text: str) -> dict[str, int]:
    return {"chars": len(text), "tokens": count_tokens(text)}
