"""The executor: queries from the page state; actions on a live page in real Chromium, with
stale, hidden, disabled and covered targets coming back as errors the model can read."""

from __future__ import annotations

import pytest

from pipeline.agent.execute import execute, execute_offline
from pipeline.distill import DistillOptions, distill
from pipeline.html.source import page_from_file
from pipeline.live.actions import LiveActions, drop_point, probe_points, without_spin_buttons
from pipeline.report.page_set import FIXTURE_DIR
from pipeline.tools.calls import make_call


def ref_of(page, element_id: str) -> int:
    return next(r for r, d in page.refs.items()
                if page.state.nodes[d.node_id].attributes.get("id") == element_id)


def test_queries_and_offline_actions():
    page = distill(page_from_file(FIXTURE_DIR / "forms.html"))
    found = execute_offline(make_call("query_elements", text="create account", role="button"),
                            page)
    assert found.ok and found.refs[0] == ref_of(page, "signup-submit")
    clicked = execute_offline(make_call("click", index=found.refs[0]), page)
    assert clicked.ok and clicked.ref == found.refs[0] and "recorded" in clicked.text
    missing = execute_offline(make_call("click", index=999), page)
    assert not missing.ok and missing.error == "no_such_ref" and "valid indices: 1..15" in missing.text
    done = execute_offline(make_call("done", answer="42"), page)
    assert done.done and done.answer == "42"
    summary = execute_offline(make_call("get_page_summary"), page)
    assert summary.ok and "Acme" in summary.text or "Account" in summary.text


@pytest.fixture
def live(capture_session, fixture_server):
    """``live(name, options)`` -> (DistilledPage, LiveActions, run) on a freshly loaded fixture."""

    def load(name: str, options: DistillOptions | None = None):
        state = capture_session.capture(f"{fixture_server}/{name}")
        return distill(state, options), LiveActions(capture_session.page), capture_session.run

    return load


def value_of(run, actions, css: str, prop: str = "value"):
    return run(actions.page.eval_on_selector(css, f"el => el.{prop}"))


def injected(live, script: str, css: str):
    """(LiveActions, run, backend id of ``css``) on forms.html after ``script`` added to it."""
    _, actions, run = live("forms.html")
    run(actions.page.evaluate(script))
    return actions, run, run(actions.backend_id_of(f"() => document.querySelector('{css}')"))


@pytest.mark.browser
def test_type_click_select_press_act_on_the_right_elements(live):
    page, actions, run = live("forms.html")
    typed = run(execute(make_call("type", index=ref_of(page, "full-name"), text="Ada Lovelace"),
                        page, actions))
    assert typed.ok, typed.text
    assert value_of(run, actions, "#full-name") == "Ada Lovelace"
    clicked = run(execute(make_call("click", index=ref_of(page, "newsletter")), page, actions))
    assert clicked.ok and value_of(run, actions, "#newsletter", "checked") is True
    pressed = run(execute(make_call("press", key="Tab"), page, actions))
    assert pressed.ok and pressed.text == "pressed Tab"

    page, actions, run = live("select.html")
    chosen = run(execute(make_call("select", index=ref_of(page, "country"), option="france"),
                         page, actions))
    assert chosen.ok and value_of(run, actions, "#country") == "FR" or "France" in chosen.text
    wrong = run(execute(make_call("select", index=ref_of(page, "country"), option="Atlantis"),
                        page, actions))
    assert wrong.error == "no_option" and "Germany" in wrong.text
    dated = run(execute(make_call("type", index=ref_of(page, "delivery-date"), text="2024-07-01"),
                        page, actions))
    assert dated.ok and value_of(run, actions, "#delivery-date") == "2024-07-01"

    page, actions, run = live("clickables.html")
    run(execute(make_call("click", index=ref_of(page, "onclick-tile")), page, actions))
    assert value_of(run, actions, "#onclick-tile", "textContent") == "Refreshed"


@pytest.mark.browser
def test_stale_hidden_disabled_and_covered_targets_are_tool_errors(live):
    page, actions, run = live("forms.html")
    run(actions.page.evaluate("""() => {
        document.querySelector('#remember').remove();
        document.querySelector('#full-name').style.display = 'none';
        document.querySelector('#login-submit').disabled = true; }"""))
    for element_id, error in (("remember", "stale"), ("full-name", "hidden"),
                              ("login-submit", "disabled")):
        result = run(execute(make_call("click", index=ref_of(page, element_id)), page, actions))
        assert (result.ok, result.error) == (False, error), result.text
    not_select = run(execute(make_call("select", index=ref_of(page, "bio"), option="x"),
                             page, actions))
    assert not_select.error == "not_a_select"
    not_text = run(execute(make_call("type", index=ref_of(page, "newsletter"), text="x"),
                           page, actions))
    assert not_text.error == "not_editable"

    page, actions, run = live("modal.html", DistillOptions(occlusion=False))
    covered = run(execute(make_call("click", index=ref_of(page, "subscribe")), page, actions))
    assert covered.error == "covered" and "is covered by <div#consent-overlay>" in covered.text


def test_probe_points_start_at_the_centre_and_stay_inside_the_box_and_the_viewport():
    square = [10, 10, 30, 10, 30, 30, 10, 30]
    points = probe_points([square], 800, 600)
    assert points[0] == (20, 20) and len(points) == 13 == len(set(points))
    assert all(10 < x < 30 and 10 < y < 30 for x, y in points)
    diamond = [50, 0, 100, 50, 50, 100, 0, 50]  # a square turned 45 degrees
    assert all(abs(x - 50) + abs(y - 50) < 50 for x, y in probe_points([diamond], 800, 600))
    two = probe_points([square, [100, 100, 120, 100, 120, 120, 100, 120]], 800, 600)
    assert two[:2] == [(20, 20), (110, 110)]  # every box's centre before any other point
    assert all(x < 25 for x, _ in probe_points([square], 25, 600))  # the viewport's right edge
    assert probe_points([[900, 0, 950, 0, 950, 40, 900, 40]], 800, 600) == []


def test_a_drop_on_a_peer_lands_past_its_centre_in_the_direction_of_travel():
    square = [100, 100, 200, 100, 200, 200, 100, 200]
    item = [0, 0, 100, 0, 100, 100, 0, 100]  # a sortable's item of the same size
    assert drop_point((0, 0), square, item) == (180, 180)  # from above left
    assert drop_point((150, 300), square, item) == (150, 120)  # from straight below
    assert drop_point((150, 150), square, item) == (150, 150)  # from its centre


def test_a_drop_into_a_box_that_holds_the_element_lands_at_its_centre():
    box = [100, 100, 180, 100, 180, 150, 100, 150]  # drag-shapes' box: 80 x 50
    shape = [0, 0, 17, 0, 17, 17, 0, 17]
    assert drop_point((0, 300), box, shape) == (140, 125)
    tall = [0, 0, 17, 0, 17, 30, 0, 30]  # too tall to be held twice over: past the centre
    assert drop_point((0, 300), box, tall) == (164, 110)


def test_a_number_field_is_pointed_at_left_of_its_spin_buttons():
    assert without_spin_buttons([0, 0, 30, 0, 30, 10, 0, 10]) == [0, 0, 12, 0, 12, 10, 0, 10]
    assert without_spin_buttons([0, 0, 24, 0, 24, 10, 0, 10]) == [0, 0, 8, 0, 8, 10, 0, 10]
    assert without_spin_buttons([5, 5, 5, 5, 5, 5, 5, 5]) == [5, 5, 5, 5, 5, 5, 5, 5]


HALF_COVER_JS = """fraction => {
  const button = document.querySelector('#signup-submit');
  button.addEventListener('click', () => { button.dataset.clicked = 'yes'; });
  const box = button.getBoundingClientRect();
  const cover = document.getElementById('cover') || document.createElement('div');
  cover.id = 'cover';
  Object.assign(cover.style, {position: 'absolute', left: `${box.left + scrollX}px`,
    top: `${box.top + scrollY}px`, width: `${box.width * fraction}px`,
    height: `${box.height}px`, background: 'grey', zIndex: 10});
  document.body.appendChild(cover);
}"""


@pytest.mark.browser
def test_a_half_covered_button_is_clicked_where_it_shows_and_a_whole_cover_is_named(live):
    page, actions, run = live("forms.html")
    button = ref_of(page, "signup-submit")
    run(actions.page.evaluate(HALF_COVER_JS, 0.6))
    clicked = run(execute(make_call("click", index=button), page, actions))
    assert clicked.ok, clicked.text
    assert value_of(run, actions, "#signup-submit", "dataset.clicked") == "yes"
    run(actions.page.evaluate(HALF_COVER_JS, 1.0))
    covered = run(execute(make_call("click", index=button), page, actions))
    assert covered.error == "covered" and "is covered by <div#cover>" in covered.text


NARROW_NUMBER_JS = """() => {
  const field = Object.assign(document.createElement('input'), {type: 'number', value: '5',
                                                                 id: 'narrow-number'});
  field.style.width = '30px';
  document.body.prepend(field);
}"""


@pytest.mark.browser
def test_a_narrow_number_field_is_clicked_in_its_text_not_on_its_spin_buttons(live):
    actions, run, field = injected(live, NARROW_NUMBER_JS, "#narrow-number")
    clicked = run(actions.click(field, "the field"))
    assert clicked.ok, clicked.text
    assert value_of(run, actions, "#narrow-number") == "5"  # not stepped down by a spin button
    assert run(actions.page.evaluate("() => document.activeElement.id")) == "narrow-number"


@pytest.mark.browser
def test_actions_reach_into_iframes_and_shadow_roots(live):
    page, actions, run = live("iframe.html")
    typed = run(execute(make_call("type", index=ref_of(page, "contact-name"), text="Grace"),
                        page, actions))
    assert typed.ok, typed.text
    frame = actions.page.frames[1]
    assert run(frame.eval_on_selector("#contact-name", "el => el.value")) == "Grace"

    page, actions, run = live("shadow.html")
    typed = run(execute(make_call("type", index=ref_of(page, "shadow-email"), text="a@b.co"),
                        page, actions))
    assert typed.ok, typed.text
    assert run(actions.page.locator("#shadow-email").input_value()) == "a@b.co"


@pytest.mark.browser
def test_a_query_result_ref_clicks_the_element_it_names(live):
    page, actions, run = live("shop.html")
    found = execute_offline(make_call("query_elements", text="compact kettle 3", role="button"),
                            page)
    assert "Compact Kettle 3" in found.text.splitlines()[1]
    clicked = run(execute(make_call("click", index=found.refs[0]), page, actions))
    assert clicked.ok, clicked.text
    card = run(actions.page.evaluate(
        "() => document.activeElement.closest('article, li, .card, div').innerText"))
    assert "Compact Kettle 3" in card


# A terminal-like widget: the page draws the text in a <div> and reads the keys through an
# invisible input beside it that a click on the <div> focuses (MiniWoB++'s terminal).
_TERMINAL_JS = """() => {
  const box = document.createElement('div');
  box.innerHTML = '<div id="term">$ </div><input id="term-keys" style="opacity: 0">';
  document.body.prepend(box);
  const term = box.querySelector('#term'), keys = box.querySelector('#term-keys');
  term.addEventListener('click', () => keys.focus());
  keys.addEventListener('keydown', (e) => {
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey) term.textContent += e.key;
  });
}"""


@pytest.mark.browser
def test_typing_into_a_widget_goes_to_the_hidden_field_its_click_focuses(live):
    actions, run, term = injected(live, _TERMINAL_JS, "#term")
    unfocused = run(actions.type(term, "ls", "the terminal"))
    assert unfocused.error == "not_editable", unfocused.message
    assert run(actions.click(term, "the terminal")).ok
    typed = run(actions.type(term, "ls -a", "the terminal"))
    assert typed.ok and "hidden field" in typed.message, typed.message
    assert value_of(run, actions, "#term", "textContent") == "$ ls -a"
