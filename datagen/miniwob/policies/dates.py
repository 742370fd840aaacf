"""Oracle policy for the jQuery UI datepicker tasks: open the picker, step to the wanted month
(reading the month and year it shows), click the day, submit. More than half a year away, the
picker's Control+PageUp (PageDown) jumps a year at once (to its first (last) month where the
year would leave its range); the last months are the Prev and Next buttons."""

from __future__ import annotations

from datetime import date, datetime

from datagen.miniwob.policies.base import PolicyError, after, click, css, is_visible, press
from pipeline.query.dates import YEAR_JUMP_AFTER  # the planner leads the jump at the same point

MAX_MONTHS = 24  # a picker further than this from the wanted month is a broken page
_SHOWN_JS = """() => { const d = document.querySelector('#ui-datepicker-div');
  if (!d) return null; return [d.querySelector('.ui-datepicker-month').textContent,
  d.querySelector('.ui-datepicker-year').textContent]; }"""


async def pick_date(page, wanted: date, input_selector: str = "#datepicker"):
    """The acts that set the datepicker of ``input_selector`` to ``wanted``; none when it holds
    that date already (a restart after the day was picked)."""
    if await page.input_value(input_selector) == f"{wanted:%m/%d/%Y}":
        return
    if not await is_visible(page, "() => document.querySelector('#ui-datepicker-div')"):
        yield click(css(input_selector))
    for _ in range(MAX_MONTHS):
        month, year = await page.evaluate(_SHOWN_JS)
        shown = datetime.strptime(f"{month} {year}", "%B %Y").date()
        ahead = (wanted.year - shown.year) * 12 + wanted.month - shown.month
        if ahead == 0:
            break
        if abs(ahead) > YEAR_JUMP_AFTER:
            yield press(css(input_selector), "Control+PageDown" if ahead > 0 else "Control+PageUp")
        else:
            step = "next" if ahead > 0 else "prev"
            yield click(css(f"#ui-datepicker-div .ui-datepicker-{step}"))
    else:
        raise PolicyError(f"the datepicker did not reach {wanted:%B %Y}")
    yield click(css("#ui-datepicker-div td[data-handler=selectDay] a", str(wanted.day)))


async def choose_date(page, episode):
    wanted = datetime.strptime(after(episode.utterance, r"(\d\d/\d\d/\d{4})").group(1),
                               "%m/%d/%Y").date()
    async for act in pick_date(page, wanted):
        yield act
    yield click(css("#subbtn"))


POLICIES = {
    "choose-date": choose_date,
    "choose-date-medium": choose_date,
    "choose-date-nodelay": choose_date,
}
