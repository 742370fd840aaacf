"""Oracle policy for daily-calendar: drag over free half-hours inside the asked window (from the
first half-hour to the last, as a person paints an event), name the event, create it."""

from __future__ import annotations

from datagen.miniwob.policies.base import PolicyError, after, click, css, drag, type_

_DURATIONS = {"0.5 hours": 1, "1 hour": 2, "1.5 hours": 3, "30 mins": 1, "60 mins": 2,
              "90 mins": 3}
# The rows a drawn event covers, by half-hour index (hh-N), and each half-hour's centre.
_LAYOUT_JS = """() => {
  const events = Array.from(document.querySelectorAll('#area .event'), (e) => {
    const r = e.getBoundingClientRect(); return [r.top, r.bottom]; });
  return Array.from(document.querySelectorAll('#area .half-hour'), (h) => {
    const r = h.getBoundingClientRect();
    const busy = events.some(([top, bottom]) => top < r.bottom - 1 && bottom > r.top + 1);
    return [parseInt(h.id.split('hh-')[1], 10), r.top + r.height / 2, busy]; });
}"""


def _half_hour(hour: str, noon: str) -> int:
    """``8``, ``AM`` -> 16; ``12``, ``PM`` -> 24; ``12``, ``AM`` -> 0."""
    return (int(hour) % 12 + (12 if noon == "PM" else 0)) * 2


async def daily_calendar(page, episode):
    match = after(episode.utterance, r'^Create a (.+?) event named "(.+?)", between (\d+)(AM|PM) '
                                     r"and (\d+)(AM|PM)")
    length = _DURATIONS.get(match.group(1))
    if length is None:
        raise PolicyError(f"{episode.task}: unknown duration {match.group(1)!r}")
    first, last = _half_hour(*match.group(3, 4)), _half_hour(*match.group(5, 6))
    rows = {index: (centre, busy) for index, centre, busy in await page.evaluate(_LAYOUT_JS)}
    start = next((s for s in range(first, last - length + 1)
                  if all(s + k in rows and not rows[s + k][1] for k in range(length))), None)
    if start is None:
        raise PolicyError(f"{episode.task}: no free {length} half-hours between {first} and "
                          f"{last}")
    end = start + length - 1
    yield drag(css(f"#hh-{start}"), by=(0, round(rows[end][0] - rows[start][0]) + 2))
    yield type_(css("#event-name"), match.group(2))
    yield click(css("#create-event .create"))


POLICIES = {
    "daily-calendar": daily_calendar,
}
