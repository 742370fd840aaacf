"""select on a slider: the number set with the handle's keys in real Chromium
(``tests/data/pages/sliders.html``: ARIA sliders, one of them in steps of 5 without Page keys, a
box of two handles, a range input), the refusals a model reads, and the key plan alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.agent.execute import execute
from pipeline.distill import distill
from pipeline.live.actions import LiveActions
from pipeline.live.sliders import MAX_KEYS, Reading, number_of, slide_to
from pipeline.tools import make_call

PAGES = Path(__file__).parents[1] / "data" / "pages"


def ref_of(page, element_id: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.nodes[d.node_id].attributes.get("id") == element_id)


class FakeSlider:
    """A widget as ``slide_to`` sees it: a value the keys move by ``step`` or ``page``."""

    def __init__(self, value: float, low: float, high: float, step: float, page: float,
                 says_range: bool = True) -> None:
        self.value, self.low, self.high, self.step, self.page = value, low, high, step, page
        self.says_range = says_range
        self.keys: list[str] = []

    async def read(self) -> Reading:
        if not self.says_range:
            return Reading(self.value, None, None)
        return Reading(self.value, self.low, self.high)

    async def press(self, key: str) -> None:
        self.keys.append(key)
        move = {"ArrowRight": self.step, "ArrowLeft": -self.step, "PageUp": self.page,
                "PageDown": -self.page}[key]
        self.value = min(self.high, max(self.low, self.value + move))


def slide(widget: FakeSlider, wanted: float):
    import asyncio

    return asyncio.run(slide_to(widget.read, widget.press, wanted))


def test_page_keys_cover_the_distance_and_arrows_the_rest():
    widget = FakeSlider(-100, -100, 0, 1, 20)
    slid = slide(widget, -3)
    assert slid.ok and widget.value == -3 and (slid.before, slid.after) == (-100, -3)
    assert widget.keys == ["PageUp"] * 4 + ["ArrowRight"] * 17
    down = FakeSlider(0.5, 0, 1, 0.1, 0)  # no page keys, steps of a tenth
    assert slide(down, 0.2).ok and down.keys == ["PageDown"] + ["ArrowLeft"] * 3


def test_what_the_keys_cannot_reach_is_refused_with_the_reason():
    assert slide(FakeSlider(5, 0, 10, 1, 2), 11).problem == (
        "11 is outside the slider's range 0 to 10")
    stepped = slide(FakeSlider(0, 0, 100, 5, 0), 12)
    assert not stepped.ok and stepped.after == 15
    assert stepped.problem == "it moves in steps of 5 and steps over 12"
    far = slide(FakeSlider(0, 0, 1000, 1, 0, says_range=False), MAX_KEYS + 5)  # arrows only
    assert not far.ok and far.keys == MAX_KEYS and far.after == MAX_KEYS
    assert slide(FakeSlider(7, 0, 10, 1, 2), 7).keys == 0
    assert number_of(" -42 ") == -42 and number_of("3.5") == 3.5 and number_of("large") is None


@pytest.fixture
def live(capture_session, pages_server):
    """(DistilledPage, select, js) on a freshly loaded sliders.html; ``select(id, option)`` runs
    select on the element with that id through the executor."""
    page = distill(capture_session.capture(f"{pages_server}/sliders.html"))
    run = capture_session.run
    actions = LiveActions(capture_session.page)

    def select(element_id: str, option: str):
        return run(execute(make_call("select", index=ref_of(page, element_id), option=option),
                           page, actions))

    yield page, select, lambda expression: run(actions.page.evaluate(expression))
    run(actions.close())


def now(js, element_id: str) -> str:
    return js(f"document.getElementById('{element_id}').getAttribute('aria-valuenow')")


@pytest.mark.browser
def test_select_sets_sliders_with_their_keys(live):
    _, select, js = live
    volume = select("volume", "37")
    assert volume.ok, volume.text
    assert now(js, "volume") == "37" and js("document.activeElement.id") == "volume"
    assert js("document.getElementById('volume-shown').textContent") == "37"
    assert "from 10 to 37" in volume.text and "(a slider)" in volume.text
    again = select("volume", "37")
    assert again.ok and again.text.endswith("already shows 37")
    zoom = select("zoom", "85")  # steps of 5, no Page keys: arrows all the way
    assert zoom.ok and now(js, "zoom") == "85"
    temperature = select("temperature", "-7")  # a range input takes its value directly
    assert temperature.ok and js("document.getElementById('temperature').value") == "-7"
    low = select("price-low", "5")  # one handle of two, named itself
    assert low.ok and now(js, "price-low") == "5" and now(js, "price-high") == "80"


@pytest.mark.browser
def test_select_refuses_what_a_slider_cannot_show(live):
    _, select, js = live
    outside = select("volume", "60")
    assert (outside.ok, outside.error) == (False, "no_option")
    assert "outside the slider's range 0 to 50" in outside.text and now(js, "volume") == "10"
    between = select("zoom", "12")
    assert between.error == "no_option" and "steps of 5 and steps over 12" in between.text
    word = select("volume", "loud")
    assert word.error == "bad_value" and "select a number on it" in word.text
    both = select("price", "50")
    assert both.error == "not_a_select" and "holds 2 slider handles" in both.text
    plain = select("plain", "1")
    assert plain.error == "not_a_select" and "is not a <select> or a slider" in plain.text
