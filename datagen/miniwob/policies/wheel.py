"""Oracle policy for click-pie: open the pie menu with the button at its centre, wait until the
slices have spread out, move the mouse off the menu (a slice under the mouse is drawn over the
titles) and click the wanted label.

In click-pie-nodelay the item selected at the start (its title drawn white, ``title-0``) takes no
click: once the menu has spread (at once, without animation) wheelnav's mouseover handler moves
the selected item's SVG nodes to the front again on every mouseover, and Chromium (156 here)
then sends the press and release that follow to the <svg>, the parent of the nodes it saw
removed, where no handler listens. Every way of pointing at it does the same (click, hover
first, press outside and release on it, double click). In click-pie wheelnav ignores mouseovers
while its spread animation runs, so the same click lands only if it comes before the animation
has quite ended; with Blink's ``--disable-blink-features=BoundaryEventDispatchTracksNodeRemoval``
it lands always. So about one episode in six (1 / 4..8 items) of click-pie-nodelay fails."""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import click, css, hover, quoted

SPREAD_WAIT_MS = 3_000
_SPREADER = ("() => { const ts = document.querySelectorAll('#divWheel svg text');"
             " return ts[ts.length - 1] || null; }")


def _title(label: str) -> str:
    return ("() => Array.from(document.querySelectorAll('#divWheel svg text')).slice(0, -1)"
            f".find((t) => t.textContent.trim() === {json.dumps(label)}) || null")


async def click_pie(page, episode):
    label = quoted(episode.utterance)[0]
    yield click(_SPREADER)
    # the slices grow from the centre in an animation: wait until the title stops moving
    await page.wait_for_function(
        f"async () => {{ const t = ({_title(label)})(); if (!t) return false;"
        " const a = t.getBoundingClientRect();"
        " await new Promise((r) => setTimeout(r, 100));"
        " const b = t.getBoundingClientRect();"
        " return a.left === b.left && a.top === b.top && b.width > 0; }",
        timeout=SPREAD_WAIT_MS)
    yield hover(css("#query"))
    # the slice under the mouse was drawn over the titles; it falls back as its hover ends
    await page.wait_for_function(
        f"() => {{ const t = ({_title(label)})(); const r = t.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return !!hit && t.contains(hit); }", timeout=SPREAD_WAIT_MS)
    yield click(_title(label))


POLICIES = {
    "click-pie": click_pie,
    "click-pie-nodelay": click_pie,
}
