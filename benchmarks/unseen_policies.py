"""Oracle policies for MiniWoB++ families the project's datagen does not cover, and their recorder.

These families are recorded for the generalisation benchmark only (``unseen_benchmark.py``): they
are not in ``datagen.miniwob.policies.POLICIES``, so no training dump ever holds them, and the
page engine was never tuned on them. Some are new policies (click-test, click-color,
click-menu-2, choose-date with month navigation ...), some reuse a covered family's policy on a
sibling task whose page or wording differs (click-tab-2-hard, email-inbox-star-reply ...).
A policy that does not fit an episode fails it, and a failed episode is not written.

    python benchmarks/unseen_policies.py [--out outputs/unseen/extra] [--seeds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make `datagen` importable
    sys.path.insert(0, str(REPO))

from tqdm import tqdm

from datagen.miniwob import RecordConfig
from datagen.miniwob.dump import episode_task
from datagen.miniwob.episode import EpisodeSettings, run_episode
from datagen.miniwob.policies import POLICIES, PolicyError
from datagen.miniwob.policies.base import after, click, css, quoted
from pipeline.config import load_config
from pipeline.live.miniwob import serve_miniwob
from pipeline.live.slot import BrowserSlot

RECORD_SEED = 5000


async def click_test_transfer(page, episode):
    which = after(episode.utterance, r"Click button (ONE|TWO)").group(1)
    yield click(css("#subbtn" if which == "ONE" else "#subbtn2"))


async def click_color(page, episode):
    color = after(episode.utterance, r"Click on the (\S+) colored box").group(1)
    yield click(css(f"#area .color[data-color={json.dumps(color)}]"))


async def click_menu_2(page, episode):
    labels = quoted(episode.utterance)
    if len(labels) < 2:
        raise PolicyError("the item is named by its icon only")
    yield click(css("#open-menu"))
    yield click(css("#menu li.ui-menu-item", labels[1]))


async def click_collapsible(page, episode):
    yield click(css("#area h3"))
    yield click(css("#subbtn"))


async def focus_text(page, episode):
    yield click(css("#tt"))


_SHOWN_MONTH = ("() => { const d = document.querySelector('#ui-datepicker-div'); "
                "return d.querySelector('.ui-datepicker-month').textContent + ' ' + "
                "d.querySelector('.ui-datepicker-year').textContent; }")


async def choose_date(page, episode):
    """Open the datepicker, step back month by month to the date's month, click the day."""
    day = datetime.strptime(after(episode.utterance, r"(\d\d/\d\d/\d{4})").group(1), "%m/%d/%Y")
    yield click(css("#datepicker"))
    for _ in range(12):
        if await page.evaluate(_SHOWN_MONTH) == day.strftime("%B %Y"):
            break
        yield click(css("#ui-datepicker-div a[data-handler=prev]"))
    yield click(css("#ui-datepicker-div td[data-handler=selectDay] a", str(day.day)))
    yield click(css("#subbtn"))


async def click_shades(page, episode):
    color = after(episode.utterance, r"shades of (\w+)").group(1)
    selector = f"#area span[data-color={json.dumps(color)}]"
    count = await page.evaluate(f"() => document.querySelectorAll({json.dumps(selector)}).length")
    for nth in range(count):
        yield click(css(selector, nth=nth))
    yield click(css("#area button"))


async def odd_or_even(page, episode):
    numbers = await page.evaluate(
        "() => Array.from(document.querySelectorAll('#area .display-number'), (e) => e.textContent)")
    for nth, number in enumerate(numbers):
        yield click(css(".row .odd" if int(number) % 2 else ".row .even", nth=nth))
    yield click(css("#submit"))


EXTRA_POLICIES = {
    "click-test": POLICIES["click-test-2"],
    "click-test-transfer": click_test_transfer,
    "click-color": click_color,
    "click-menu-2": click_menu_2,
    "click-dialog": POLICIES["click-dialog-2"],
    "click-collapsible": click_collapsible,
    "focus-text": focus_text,
    "choose-date": choose_date,
    "choose-date-medium": choose_date,
    "click-tab-2-easy": POLICIES["click-tab-2"],
    "click-tab-2-medium": POLICIES["click-tab-2"],
    "click-tab-2-hard": POLICIES["click-tab-2"],
    "enter-text-dynamic": POLICIES["enter-text"],
    "email-inbox-star-reply": POLICIES["email-inbox"],
    "click-checkboxes-transfer": POLICIES["click-checkboxes"],
    "click-shades": click_shades,
    "odd-or-even": odd_or_even,
}


def record_extra(out: Path, seeds: int) -> int:
    """Record ``seeds`` episodes of every extra family into ``out/train/extra.json``."""
    config = load_config(RecordConfig, REPO / "configs/datagen/miniwob.yaml", section="record")
    settings = EpisodeSettings(config.browser, config.episode_max_time_ms, config.max_steps,
                               config.target_wait_ms, config.disable_animations)
    records = asyncio.run(_record(config, settings, seeds))
    (out / "train").mkdir(parents=True, exist_ok=True)
    (out / "train" / "extra.json").write_text(json.dumps(records), encoding="utf-8")
    return len(records)


async def _record(config: RecordConfig, settings: EpisodeSettings, seeds: int) -> list[dict]:
    from playwright.async_api import Error as PlaywrightError

    records = []
    plan = [(t, s) for s in range(RECORD_SEED, RECORD_SEED + seeds) for t in EXTRA_POLICIES]
    with serve_miniwob() as base:
        async with BrowserSlot(config.browser) as browser:
            for task, seed in tqdm(plan, desc="extra episodes", unit="ep"):
                try:
                    run = await asyncio.wait_for(run_episode(
                        browser.page, base, task, seed, settings, EXTRA_POLICIES[task]),
                        config.episode_timeout_s)
                except (TimeoutError, PlaywrightError):
                    await browser.recover()
                    continue
                if run.success:
                    records.append(episode_task(run, config.max_negatives))
    return records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="outputs/unseen/extra")
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()
    written = record_extra(Path(args.out), args.seeds)
    print(f"wrote {written} episodes of {len(EXTRA_POLICIES)} families to {args.out}/train")


if __name__ == "__main__":
    main()
