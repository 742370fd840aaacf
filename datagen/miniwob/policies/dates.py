"""Oracle policy for the jQuery UI datepicker tasks: open the picker, step month by month to the
wanted one (reading the month and year it shows), click the day, submit."""

from __future__ import annotations

from datetime import date, datetime

from datagen.miniwob.policies.base import PolicyError, after, click, css, is_visible

MAX_MONTHS = 24  # a picker further than this from the wanted month is a broken page
_SHOWN_JS = """() => { const d = document.querySelector('#ui-datepicker-div');
  if (!d) return null; return [d.querySelector('.ui-datepicker-month').textContent,
  d.querySelector('.ui-datepicker-year').textContent]; }"""


async def pick_date(page, wanted: date, input_selector: str = "#datepicker"):
    """The acts that set the datepicker of ``input_selector`` to ``wanted``."""
    if not await is_visible(page, "() => document.querySelector('#ui-datepicker-div')"):
        yield click(css(input_selector))
    for _ in range(MAX_MONTHS):
        month, year = await page.evaluate(_SHOWN_JS)
        shown = datetime.strptime(f"{month} {year}", "%B %Y").date()
        if (shown.year, shown.month) == (wanted.year, wanted.month):
            break
        step = "prev" if (shown.year, shown.month) > (wanted.year, wanted.month) else "next"
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
