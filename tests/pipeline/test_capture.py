"""Live capture on real headless Chromium: node table, frames, shadow roots, values, AX facts."""

from __future__ import annotations

import pytest

from pipeline.capture import CaptureSession
from pipeline.capture.build import REDACTED
from pipeline.live.browser import BrowserConfig
from pipeline.page_state import STYLE_KEYS, PageState

pytestmark = pytest.mark.browser

FIXTURE_PAGES = [
    "forms.html", "shop.html", "modal.html", "select.html", "iframe.html", "shadow.html",
    "opacity.html", "visibility.html", "pagination.html", "card_link.html", "aria_widgets.html",
    "clickables.html",
]  # fmt: skip


def by_attr(state: PageState, key: str, value: str):
    matches = [n for n in state.nodes if n.attributes.get(key) == value]
    assert len(matches) == 1, f"expected one node with {key}={value!r}, found {len(matches)}"
    return matches[0]


@pytest.fixture(scope="module")
def capture_session():
    """This module checks the accessibility-tree path too: its session has capture_ax on."""
    from tests.conftest import require_chromium

    require_chromium()
    with CaptureSession(BrowserConfig(capture_ax=True)) as session:
        yield session


def inside(inner, outer) -> bool:
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return ox <= x and oy <= y and x + w <= ox + ow + 0.5 and y + h <= oy + oh + 0.5


@pytest.mark.parametrize("name", FIXTURE_PAGES)
def test_node_table_invariants(capture_fixture, name):
    state = capture_fixture(name)
    nodes = state.nodes
    assert nodes[0].tag == "#document" and nodes[0].parent is None
    assert state.has_layout and state.has_paint_order and state.has_ax
    assert state.title and state.url.endswith(name) and state.frames[0].url == state.url
    assert state.viewport == (1280, 720) and state.document_size[1] >= 720
    for i, node in enumerate(nodes):
        assert node.id == i
        assert node.parent is None or node.parent < i
        assert 0 <= node.frame < len(state.frames)
        assert set(node.styles) <= set(STYLE_KEYS)
        if node.kind == "text":
            assert node.text.strip() and not node.children and node.role is None
        elif node.is_element and node.bounds is not None:
            assert set(node.styles) == set(STYLE_KEYS), node
            assert node.paint_order is not None
    assert {"snapshot", "dom", "ax", "total"} <= set(state.meta["timings_ms"])
    assert state.meta["warnings"] == []


def test_shop_products_in_document_order(capture_fixture):
    state = capture_fixture("shop.html")
    buttons = [n for n in state.nodes if n.tag == "button" and n.name == "Add to Cart"]
    assert len(buttons) == 200 and all(b.role == "button" for b in buttons)
    titles = [state.text_content(n.id) for n in state.nodes if n.tag == "h3"]
    assert [int(t.rsplit(" ", 1)[1]) for t in titles] == list(range(1, 201))
    nav = next(n for n in state.nodes if n.tag == "nav")
    assert (nav.role, nav.name) == ("navigation", "Primary")
    h1 = next(n for n in state.nodes if n.tag == "h1")
    assert h1.role == "heading" and h1.states["level"] == 1


def test_iframe_inlined_in_page_coordinates(capture_fixture):
    state = capture_fixture("iframe.html")
    iframe = by_attr(state, "id", "contact-frame")
    assert len(state.frames) == 2
    frame = state.frames[1]
    assert frame.owner == iframe.id and frame.url.endswith("iframe_child.html")
    assert not frame.cross_origin
    doc = state.nodes[iframe.children[0]]
    assert doc.tag == "#document" and doc.frame == 1 and iframe.frame == 0
    button = by_attr(state, "id", "contact-send")
    assert button.frame == 1 and button.role == "button" and button.name == "Send message"
    assert state.ancestors(button.id)[-1] == 0 and iframe.id in state.ancestors(button.id)
    # border 4px + padding 10px: the document starts 14px inside the iframe's border box
    assert doc.bounds[:2] == (iframe.bounds[0] + 14, iframe.bounds[1] + 14)
    assert inside(button.bounds, iframe.bounds) and inside(button.bounds, doc.bounds)
    after = by_attr(state, "id", "after-frame")
    assert after.frame == 0 and after.id > button.id  # frame content sits at the iframe's place


def test_modal_paints_over_page_and_iframe(capture_fixture):
    state = capture_fixture("modal.html")
    overlay = by_attr(state, "id", "consent-overlay")
    subscribe = by_attr(state, "id", "subscribe")
    refresh = by_attr(state, "id", "refresh-weather")
    iframe = by_attr(state, "id", "widget")
    assert refresh.frame == 1 and inside(refresh.bounds, iframe.bounds)
    assert overlay.paint_order > subscribe.paint_order and overlay.paint_order > iframe.paint_order
    assert overlay.styles["background-color"] != "rgba(0, 0, 0, 0)"
    assert inside(iframe.bounds, overlay.bounds)
    dialog = next(n for n in state.nodes if n.role == "dialog")
    assert dialog.name == "We value your privacy" and dialog.states.get("modal") is True


def test_shadow_root_inlined_before_light_children(capture_fixture):
    state = capture_fixture("shadow.html")
    host = by_attr(state, "id", "subscribe-box")
    root = state.nodes[host.children[0]]
    assert root.tag == "#shadow-root" and root.attributes == {"mode": "open"}
    assert root.in_shadow and not host.in_shadow
    button = by_attr(state, "id", "shadow-subscribe")
    assert button.in_shadow and root.id in state.ancestors(button.id)
    assert (button.role, button.name) == ("button", "Subscribe")
    light = by_attr(state, "id", "light-note")
    assert light.parent == host.id and not light.in_shadow and light.id > button.id
    assert light.bounds is not None  # slotted: rendered inside the shadow tree's box


def test_closed_and_unslotted_shadow_content(capture_session, tmp_path):
    from pipeline.live.static_server import serve_directory

    (tmp_path / "page.html").write_text(
        "<!DOCTYPE html><title>t</title><x-box id=host><b id=unslotted>not shown</b></x-box>"
        "<script>customElements.define('x-box', class extends HTMLElement { constructor() {"
        " super(); this.attachShadow({mode: 'closed'}).innerHTML = '<button id=inner>Go</button>';"
        " } });</script>"
    )
    with serve_directory(tmp_path) as base:
        state = capture_session.capture(f"{base}/page.html")
    host = by_attr(state, "id", "host")
    assert state.nodes[host.children[0]].attributes == {"mode": "closed"}
    assert by_attr(state, "id", "inner").in_shadow
    unslotted = by_attr(state, "id", "unslotted")
    assert unslotted.parent == host.id and unslotted.bounds is None


def test_cross_origin_iframe_recorded_not_inlined(capture_session, fixture_server, tmp_path):
    from pipeline.live.static_server import serve_directory

    port = fixture_server.rsplit(":", 1)[1]
    child = f"http://localhost:{port}/iframe_child.html"  # another site than 127.0.0.1
    (tmp_path / "outer.html").write_text(
        f'<!DOCTYPE html><title>outer</title><p>Top</p><iframe id="x" src="{child}"></iframe>'
    )
    with serve_directory(tmp_path) as base:
        state = capture_session.capture(f"{base}/outer.html")
    iframe = by_attr(state, "id", "x")
    assert [(f.owner, f.url, f.cross_origin) for f in state.frames[1:]] == [(iframe.id, child, True)]
    assert not iframe.children and all(n.frame == 0 for n in state.nodes)


def test_live_values_after_typing(capture_session, fixture_server):
    capture_session.goto(f"{fixture_server}/forms.html")
    page = capture_session.page
    capture_session.run(page.fill("#full-name", "Ada Lovelace"))
    capture_session.run(page.check("#plan-pro"))
    capture_session.run(page.uncheck("#remember"))
    capture_session.run(page.fill("#bio", "Counts engines."))
    capture_session.run(page.fill("#signup-password", "typed-secret"))
    state = capture_session.capture()
    assert by_attr(state, "id", "full-name").value == "Ada Lovelace"
    assert by_attr(state, "id", "bio").value == "Counts engines."
    assert by_attr(state, "id", "plan-pro").states["checked"] is True
    assert by_attr(state, "id", "plan-free").states["checked"] is False
    assert by_attr(state, "id", "remember").states["checked"] is False
    typed = by_attr(state, "id", "signup-password")
    assert typed.value == REDACTED and typed.states["redacted"] is True


def test_passwords_redacted_everywhere(capture_fixture, tmp_path):
    state = capture_fixture("forms.html")
    password = by_attr(state, "id", "login-password")
    assert password.value == REDACTED and password.attributes["value"] == REDACTED
    assert password.states["redacted"] is True
    empty = by_attr(state, "id", "signup-password")
    assert not empty.value and "redacted" not in empty.states
    state.save(tmp_path / "forms.json.gz")
    import gzip

    assert "hunter2" not in gzip.decompress((tmp_path / "forms.json.gz").read_bytes()).decode()


def test_select_and_value_inputs(capture_session, fixture_server):
    state = capture_session.capture(f"{fixture_server}/select.html")
    select = by_attr(state, "id", "country")
    assert select.value == "Germany" and select.role == "combobox"
    options = [state.nodes[c] for c in select.children if state.nodes[c].tag == "option"]
    assert len(options) == 50
    assert [o.attributes["value"] for o in options if o.states["selected"]] == ["DE"]
    assert by_attr(state, "id", "volume").value == "3"
    assert by_attr(state, "id", "quantity").value == "2"
    assert by_attr(state, "id", "delivery-date").value == "2024-06-15"
    capture_session.run(capture_session.page.select_option("#country", "JP"))
    after = capture_session.capture()
    assert by_attr(after, "id", "country").value == "Japan"
    assert by_attr(after, "value", "DE").states["selected"] is False


def test_accessibility_facts(capture_fixture):
    state = capture_fixture("forms.html")
    email = by_attr(state, "id", "login-email")
    assert (email.role, email.name) == ("textbox", "Email address")
    assert email.states.get("required") is True
    remember = by_attr(state, "id", "remember")
    assert (remember.role, remember.name, remember.states["checked"]) == (
        "checkbox", "Remember me", True)  # fmt: skip
    assert (by_attr(state, "id", "plan-team").role, by_attr(state, "id", "plan-team").name) == (
        "radio", "Team")  # fmt: skip
    widgets = capture_fixture("aria_widgets.html")
    combo = by_attr(widgets, "id", "city")
    assert combo.role == "combobox" and combo.name == "City" and combo.states["expanded"] is True
    assert by_attr(widgets, "id", "tab-economy").states["selected"] is True
    assert by_attr(widgets, "id", "mi-alerts").role == "menuitemcheckbox"


def test_styles_scroll_and_clickability(capture_fixture):
    state = capture_fixture("clickables.html")
    scroller = by_attr(state, "id", "scroller")
    scroll_height = scroller.scroll[3]
    assert scroll_height > scroller.bounds[3] and scroller.styles["overflow"] == "auto"
    assert by_attr(state, "id", "onclick-tile").states.get("clickable") is True
    assert by_attr(state, "id", "pointer-tile").styles["cursor"] == "pointer"
    assert "clickable" not in by_attr(state, "id", "search-box").states
    hidden = capture_fixture("visibility.html")
    assert by_attr(hidden, "id", "display-none-button").bounds is None
    assert by_attr(hidden, "id", "hidden-child").styles["visibility"] == "hidden"
    assert by_attr(hidden, "id", "visible-child").styles["visibility"] == "visible"
    faded = capture_fixture("opacity.html")
    assert by_attr(faded, "id", "ghost-wrapper").styles["opacity"] == "0"


def test_bounds_are_page_coordinates_when_scrolled(capture_session, fixture_server):
    before = capture_session.capture(f"{fixture_server}/shop.html")
    capture_session.run(capture_session.page.evaluate("window.scrollTo(0, 1500)"))
    after = capture_session.capture()
    assert after.scroll == (0.0, 1500.0)
    button = next(n for n in before.nodes if n.name == "Add to Cart" and n.bounds[1] > 2000)
    assert after.nodes[button.id].bounds == button.bounds


def test_save_load_round_trip(capture_fixture, tmp_path):
    for name in ("iframe.html", "shadow.html", "forms.html"):
        state = capture_fixture(name)
        loaded = PageState.load(state.save(tmp_path / f"{name}.json.gz"))
        assert loaded.to_dict() == state.to_dict()
        assert loaded.nodes == state.nodes and loaded.frames == state.frames
