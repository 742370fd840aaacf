"""The benchmark's ground truth of visible interactive elements, in a real headless Chromium."""

from __future__ import annotations

import asyncio

import pytest
from groundtruth import coverage, visible_interactive_backend_ids

from pipeline.live.browser import BrowserConfig, launch_browser

PAGE = """<!doctype html><html><body style="margin:0">
<button id=plain>Plain</button>
<a id=nohref>no href</a>
<div style="opacity:0"><button id=transparent>Invisible</button></div>
<button id=hidden style="visibility:hidden">Hidden</button>
<div id=clicky onclick="1">Clicky</div>
<input type=hidden name=h>
<div id=scrollbox style="height:40px; overflow:auto"><div style="height:30px"></div>
  <button id=clipped style="margin-top:100px">Clipped</button></div>
<div style="height:2000px"></div>
<a id=far href="/far">Far below</a>
<div id=cover style="position:fixed; left:0; top:0; width:300px; height:25px; background:#fff">
  <span role=button id=covering>Cover</span></div>
</body></html>"""


async def _ids_and_truth():
    async with launch_browser(BrowserConfig()) as browser:
        page = await browser.new_page(viewport={"width": 800, "height": 600})
        await page.set_content(PAGE)
        cdp = await page.context.new_cdp_session(page)
        truth = await visible_interactive_backend_ids(lambda m, p: cdp.send(m, p))
        ids = []
        for backend_id in truth:
            node = await cdp.send("DOM.describeNode", {"backendNodeId": backend_id})
            attrs = node["node"].get("attributes", [])
            ids.append(dict(zip(attrs[::2], attrs[1::2])).get("id"))
        return ids, await page.evaluate("window.scrollY")


@pytest.mark.browser
def test_ground_truth_keeps_only_visible_hit_elements():
    ids, scroll = asyncio.run(_ids_and_truth())
    # #plain sits under the fixed cover; #far is below the fold and counts once scrolled to
    assert ids == ["clicky", "far", "covering"]
    assert scroll == 0


def test_coverage_counts_exact_and_merged():
    parents = {1: None, 2: 1, 3: 2, 4: 1, 5: 4}
    result = coverage([3, 5, 4, 3], indexed=[2, 4], parent_of=parents)
    assert result["visible_interactive"] == 3
    assert (result["kept_exact"], result["kept_merged"]) == (1, 3)
    assert result["missing"] == []
    assert coverage([5], [2], parents)["missing"] == [5]
    assert coverage([], [], {})["share_exact"] == 1.0
