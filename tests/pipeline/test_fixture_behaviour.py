"""What the engine must do on each fixture page, captured live in headless Chromium.

These are the behaviours the golden files freeze, stated one by one (and the places where
browser-use's serializer goes wrong, FACTS.md), plus replay: every ref's XPath and CSS selector
find exactly that element in the live page.
"""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.render import render_flat, render_outline
from pipeline.report.page_set import fixture_pages

pytestmark = pytest.mark.browser


def ref_ids(page) -> list[str]:
    return [page.state.nodes[d.node_id].attributes.get("id", "") for d in page.refs.values()]


def test_forms_redact_passwords_and_index_a_wrapped_control_once(capture_fixture):
    state = capture_fixture("forms.html")
    page = distill(state)
    flat = render_flat(page)
    assert "[2]<input type=password id=login-password value=••• required=true />" in flat
    assert "hunter2" not in str(state.to_dict())  # the prefilled password never leaves the page
    assert ref_ids(page).count("remember") == 1
    assert not any(page.state.nodes[d.node_id].tag == "label" for d in page.refs.values())


def test_shop_listing_keeps_200_products_and_every_landmark(capture_fixture):
    page = distill(capture_fixture("shop.html"))
    flat = render_flat(page)
    assert flat.count(">Add to Cart</button>") == 200
    labels = {(lm.label, lm.name) for lm in page.landmarks}
    assert {("HEADER", None), ("NAV", "Primary"), ("MAIN", None), ("FOOTER", None)} <= labels
    assert any(label == "ASIDE" for label, _ in labels)
    outline = render_outline(page)
    assert outline.index('NAV: "Primary"') < outline.index("MAIN:")


def test_modal_hides_everything_behind_it_including_the_iframe(capture_fixture):
    page = distill(capture_fixture("modal.html"))
    assert ref_ids(page) == ["accept", "reject", "settings"]
    assert "Refresh forecast" not in render_flat(page)  # the iframe's button, behind the modal


def test_select_shows_selected_value_and_option_count(capture_fixture):
    flat = render_flat(distill(capture_fixture("select.html")))
    line = next(line for line in flat.splitlines() if "<select" in line)
    assert "value=Germany" in line and "options=50" in line and "first_options=" in line
    assert "format=YYYY-MM-DD" in flat and "max=10" in flat


def test_a_dropdown_showing_its_default_option_is_still_to_choose(capture_fixture):
    """A select always holds a value (its first or its selected option), so the planner's
    ``prefer_pending`` must not rank it as done below the button that follows it."""
    from pipeline.query.elements import query_elements
    from pipeline.query.filters import acted_on
    from pipeline.query.index import index_for
    from pipeline.query.instruction import query_for_step

    page = distill(capture_fixture("select.html"))
    plan = query_for_step("Select France from the list and click Save preferences", [])
    assert plan.arguments["prefer_pending"]
    top = query_elements(page, **plan.arguments).refs[0]
    assert page.state.nodes[page.node_of(top)].attributes["id"] == "country"
    entries = index_for(page).entries
    assert not acted_on(entries[top])  # value=Germany is the page's default, not an action
    filled = [ref for ref, e in entries.items() if e.node.attributes.get("id") == "quantity"]
    assert filled and not acted_on(entries[filled[0]])  # a number field: a guess to replace


def test_same_origin_iframe_and_open_shadow_root_are_inlined(capture_fixture):
    iframe = distill(capture_fixture("iframe.html"))
    assert {"contact-name", "contact-message", "contact-send"} <= set(ref_ids(iframe))
    assert "▼ iframe" in render_flat(iframe)
    shadow = distill(capture_fixture("shadow.html"))
    assert {"shadow-email", "shadow-subscribe"} <= set(ref_ids(shadow))
    assert "shadow-root (open)" in render_flat(shadow)


def test_inherited_opacity_visibility_and_clipping(capture_fixture):
    assert ref_ids(distill(capture_fixture("opacity.html"))) == ["faded-button", "visible-button"]
    visible = ref_ids(distill(capture_fixture("visibility.html")))
    assert visible == ["visible-child", "aria-hidden-button", "save"]  # painted, so clickable


def test_pagination_digits_and_hrefs_are_kept(capture_fixture):
    flat = render_flat(distill(capture_fixture("pagination.html")))
    for digit in ("1", "2", "3"):
        assert f'<a href="?page={digit}">{digit}</a>' in flat


def test_card_link_keeps_its_inner_button_as_its_own_ref(capture_fixture):
    page = distill(capture_fixture("card_link.html"))
    assert ref_ids(page) == ["recipe-card", "save-recipe", "plain-card"]
    assert "\t[2]<button type=button id=save-recipe>Save recipe</button>" in render_flat(page)


def test_aria_widgets_and_non_semantic_clickables(capture_fixture):
    widgets = distill(capture_fixture("aria_widgets.html"))
    roles = {widgets.state.nodes[d.node_id].role for d in widgets.refs.values()}
    assert {"combobox", "option", "tab", "menuitem", "menuitemcheckbox"} <= roles
    clickables = distill(capture_fixture("clickables.html"))
    ids = ref_ids(clickables)
    assert {"onclick-tile", "pointer-tile", "testid-tile"} <= set(ids)
    assert "search-box" not in ids  # the word "search" in a class makes nothing clickable
    assert ids.count("wrapped-checkbox") == 1


@pytest.mark.parametrize("name", fixture_pages())
def test_every_ref_replays_to_its_element(name, capture_fixture, capture_session):
    page = distill(capture_fixture(name))
    live = capture_session.page
    for ref, selector in page.selectors.items():
        frame = live.main_frame
        for frame_css in selector.frame_path:
            handle = capture_session.run(frame.query_selector(frame_css))
            frame = capture_session.run(handle.content_frame())
        node = page.state.nodes[page.node_of(ref)]
        by_css = frame.locator(selector.css)
        assert capture_session.run(by_css.count()) == 1, (name, ref, selector.css)
        tag = capture_session.run(by_css.evaluate("el => el.tagName.toLowerCase()"))
        assert tag == node.tag, (name, ref, selector.css)
        if not selector.in_shadow:
            same = capture_session.run(frame.evaluate(
                "([x, c]) => document.evaluate(x, document, null, 9, null).singleNodeValue"
                " === document.querySelector(c)", [selector.xpath, selector.css]))
            assert same, (name, ref, selector.xpath, selector.css)
