"""One focused test per distill pass, on hand-built PageStates (no browser)."""

from __future__ import annotations

from dataclasses import replace

from distill_helpers import page

from pipeline.distill import DistillOptions, distill
from pipeline.distill.occlusion import background_alpha
from pipeline.distill.rects import RectUnion

OPAQUE = "background-color:rgb(255, 255, 255)"


def texts(dp) -> list[str]:
    return [d.text for d in dp.root.walk() if d.is_text]


def tags(dp) -> list[str]:
    return [d.tag for d in dp.root.walk() if not d.is_text]


def ref_ids(dp) -> list[str]:
    """The ``id`` attribute of each ref's source node, in ref order."""
    return [dp.state.nodes[d.node_id].attributes.get("id", d.tag) for d in dp.refs.values()]


def report(dp, name):
    return next(r for r in dp.report if r.name == name)


# --- noise ----------------------------------------------------------------------------------
def test_noise_drops_scripts_head_svg_internals_and_blank_text():
    dp = distill(
        page(
            "<html><head><title>T</title><script>x()</script></head><body>\n  "
            "<style>p{}</style><noscript>no</noscript><template><b>t</b></template>"
            '<svg><path d="M0"/></svg><svg id="s" onclick="go()"><path d="M1"/></svg>'
            "<p>Hi</p></body></html>"
        )
    )
    assert texts(dp) == ["Hi"]
    assert "path" not in tags(dp) and tags(dp).count("svg") == 1
    assert ref_ids(dp) == ["s"]
    assert report(dp, "noise").removed > 0


# --- visibility -----------------------------------------------------------------------------
def test_visibility_display_none_and_hidden_attribute_and_inline_style():
    dp = distill(
        page(
            '<body><div data-css="display:none"><button id="a">A</button></div>'
            '<button id="b" hidden>B</button><p style="display: none">gone</p>'
            '<input type="hidden" name="csrf"><button id="c">C</button></body>'
        )
    )
    assert ref_ids(dp) == ["c"]
    assert texts(dp) == ["C"]


def test_visibility_hidden_parent_keeps_visible_child_as_bare_container():
    dp = distill(
        page(
            '<body><div id="p" onclick="x()" data-css="visibility:hidden">secret'
            '<button id="v" data-css="visibility:visible">Shown</button></div></body>'
        )
    )
    assert ref_ids(dp) == ["v"]  # the hidden clickable parent is a container, not a ref
    assert texts(dp) == ["Shown"]


def test_inherited_opacity_zero_hides_descendants():
    dp = distill(
        page(
            '<body><div data-css="opacity:0"><div><button id="ghost">Ghost</button></div></div>'
            '<div data-css="opacity:0.5"><button id="half" data-css="opacity:0.5">Half</button>'
            "</div></body>"
        )
    )
    assert ref_ids(dp) == ["half"]


def test_aria_hidden_subtree_goes_but_a_dialog_inside_stays():
    dp = distill(
        page(
            '<body><div aria-hidden="true"><button id="x">X</button>'
            '<div role="dialog" aria-label="Confirm"><button id="ok">OK</button></div></div>'
            "</body>"
        )
    )
    assert ref_ids(dp) == ["ok"]


def test_a_control_that_is_itself_aria_hidden_stays_visible():
    dp = distill(
        page(
            '<body><input id="spin" type="text"><a id="up" role="button" aria-hidden="true" '
            'class="ui-spinner-up"><span class="ui-icon">up</span></a>'
            '<div aria-hidden="true"><a id="behind" href="/x">Behind a modal</a></div></body>'
        )
    )
    assert ref_ids(dp) == ["spin", "up"]


def test_an_icon_without_text_or_attributes_shows_its_rarest_class_names():
    dp = distill(
        page(
            '<body><span class="icon trash js-delete extra" onclick="x()"></span>'
            '<span class="icon star" onclick="x()">Star</span><span class=" " onclick="x()"></span>'
            '</body>'
        )
    )
    # "icon" is shared with the star, so the three rarer names are shown, in their own order.
    assert [d.attrs for d in dp.refs.values()] == [{"class": "trash js-delete extra"}, {}, {}]


def test_text_less_buttons_that_show_only_their_role_are_told_apart_by_class():
    arrow = ('<a role="button" class="ui-button ui-widget ui-spinner-button ui-spinner-{0} '
             'ui-corner-{1} ui-button-icon-only"><span class="ui-icon"></span></a>')
    dp = distill(
        page(
            '<body><span class="ui-spinner ui-widget"><input id="spin" type="text">'
            + arrow.format("up", "tr") + arrow.format("down", "br") + "</span>"
            '<a role="button" class="ui-button" title="Help"></a></body>'
        )
    )
    assert [d.attrs for d in dp.refs.values()][1:] == [
        # the rarest names first, whole, as long as they fit in 40 characters
        {"role": "button", "class": "ui-button ui-spinner-up ui-corner-tr"},
        {"role": "button", "class": "ui-button ui-spinner-down ui-corner-br"},
        {"role": "button", "title": "Help"},  # a title names it: no class names
    ]


def test_zero_size_boxes_go_unless_a_descendant_is_visible():
    dp = distill(
        page(
            '<body data-box="0,0,800,600"><button id="zero" data-box="10,10,0,0">Z</button>'
            '<div data-box="0,50,0,0"><button id="overflow" data-box="0,50,80,20">O</button></div>'
            '<a id="skip" href="#main" data-box="-9999,0,100,20">Skip</a>'
            '<a id="below" href="/x" data-box="0,5000,100,20">Below</a>'
            '<button id="ok" data-box="0,100,80,20">OK</button></body>',
            document_size=(800, 1200),
            source="live",
        )
    )
    assert ref_ids(dp) == ["overflow", "ok"]


def test_boxes_clipped_away_by_overflow_hidden_go_but_escaping_ones_stay():
    dp = distill(
        page(
            '<body data-box="0,0,800,600">'
            '<div data-box="0,10,0,0" data-css="overflow:hidden">'
            '<button id="clipped" data-box="0,10,80,20">C</button>'
            '<button id="fixed" data-box="0,300,80,20" data-css="position:fixed">F</button></div>'
            '<div data-box="0,40,100,20" data-css="overflow:visible hidden">'
            '<button id="wide" data-box="90,40,80,20">W</button>'
            '<button id="below" data-box="0,70,80,20">B</button></div>'
            '<div data-box="0,100,100,20" data-css="position:relative">'
            '<div data-box="0,100,100,20" data-css="overflow:hidden">'
            '<button id="escapes" data-box="0,130,80,20" data-css="position:absolute">E</button>'
            '</div></div>'
            '<div data-box="0,200,100,20" data-css="overflow:auto">'
            '<button id="scrolled" data-box="0,260,80,20">S</button></div></body>',
            document_size=(800, 600),
        )
    )
    assert ref_ids(dp) == ["fixed", "wide", "escapes", "scrolled"]


def test_select_options_without_boxes_survive_visibility():
    dp = distill(
        page(
            '<body data-box="0,0,800,600"><select id="s" data-box="0,0,100,20">'
            "<option>One</option><option selected>Two</option></select></body>"
        )
    )
    assert dp.refs[1].attrs["selected"] == "Two"
    assert dp.refs[1].attrs["options"] == "2"


# --- occlusion ------------------------------------------------------------------------------
def _modal_page(backdrop_css: str, iframe: bool = False) -> str:
    frame = (
        '<iframe id="f" data-box="0,300,400,200" data-po="4"><x-doc url="https://shop.test/f">'
        '<html data-box="0,300,400,200" data-po="1"><body data-box="0,300,400,200" data-po="2">'
        '<button id="inframe" data-box="10,310,80,20" data-po="3">In frame</button>'
        "</body></html></x-doc></iframe>"
        if iframe
        else ""
    )
    return (
        '<html data-box="0,0,800,600" data-po="1"><body data-box="0,0,800,600" data-po="2">'
        f'<button id="under" data-box="10,10,80,20" data-po="3">Under</button>{frame}'
        f'<div id="backdrop" data-box="0,0,800,600" data-po="10" data-css="{backdrop_css}">'
        '<div role="dialog" data-box="200,100,400,200" data-po="11" '
        f'data-css="{OPAQUE}"><button id="ok" data-box="250,150,80,20" data-po="12">OK</button>'
        "</div></div></body></html>"
    )


def test_occlusion_hides_content_behind_a_modal_backdrop():
    dp = distill(page(_modal_page("background-color:rgba(0, 0, 0, 0.5)")))
    assert ref_ids(dp) == ["ok"]
    assert report(dp, "occlusion").removed >= 2  # the button and its text


def test_occlusion_ignores_transparent_and_pointer_events_none_overlays():
    clear = distill(page(_modal_page("background-color:rgba(0, 0, 0, 0)")))
    click_through = distill(page(_modal_page(f"{OPAQUE}; pointer-events:none")))
    faint = distill(page(_modal_page(f"{OPAQUE}; opacity:0.3")))
    for dp in (clear, click_through, faint):
        assert ref_ids(dp) == ["under", "ok"]


def test_occlusion_across_frames_hides_an_iframe_behind_a_modal():
    dp = distill(page(_modal_page("background-color:rgb(0, 0, 0)", iframe=True)))
    assert ref_ids(dp) == ["ok"]
    assert "iframe" not in tags(dp)


def test_iframe_content_is_not_hidden_by_its_own_document_background():
    dp = distill(page(_modal_page("background-color:rgba(0, 0, 0, 0)", iframe=True)))
    assert ref_ids(dp) == ["under", "inframe", "ok"]


def test_occlusion_union_of_partially_overlapping_occluders():
    def state(right_edge: int):
        return page(
            '<body data-box="0,0,800,600" data-po="1">'
            '<button id="b" data-box="100,100,100,50" data-po="2">B</button>'
            f'<div data-box="50,50,120,200" data-po="3" data-css="{OPAQUE}"></div>'
            f'<div data-box="150,80,{right_edge - 150},100" data-po="4" data-css="{OPAQUE}"></div>'
            "</body>"
        )

    assert ref_ids(distill(state(250))) == []  # two halves together cover the button
    assert ref_ids(distill(state(199))) == ["b"]  # a 1px strip stays uncovered


def test_occlusion_does_not_count_descendants_as_occluders():
    dp = distill(
        page(
            '<body data-box="0,0,800,600" data-po="1"><a id="card" href="/p" '
            'data-box="0,0,200,100" data-po="2"><div data-box="0,0,200,100" data-po="3" '
            f'data-css="{OPAQUE}">Product</div></a></body>'
        )
    )
    assert ref_ids(dp) == ["card"]


def test_rect_union_and_background_alpha():
    union = RectUnion()
    union.add((0, 0, 10, 10), 1)
    union.add((5, 0, 20, 10), 2)
    assert union.covers((2, 2, 18, 8))
    assert not union.covers((2, 2, 21, 8))
    assert not union.covers((2, 2, 18, 8), skip_owners=(2, 2))
    assert background_alpha("rgba(0, 0, 0, 0)") == 0.0
    assert background_alpha("rgb(0 0 0 / 50%)") == 0.5
    assert background_alpha("rgb(1, 2, 3)") == 1.0
    assert background_alpha("transparent") == 0.0


def test_occlusion_reports_skipped_without_paint_order():
    dp = distill(page('<body><button data-box="0,0,10,10">B</button></body>'))
    assert report(dp, "occlusion").skipped == "source has no paint order"
    no_layout = distill(page("<body><a href='/'>x</a></body>"))
    assert report(no_layout, "propagating_bounds").skipped == "source has no layout"


# --- interactivity and propagating bounds ---------------------------------------------------
def test_card_link_swallows_inner_clickables_but_not_its_button():
    html = (
        '<body data-box="0,0,800,600"><a id="card" href="/p/1" data-box="0,0,300,200">'
        '<span id="title" tabindex="0" data-box="10,10,200,20">Shoe</span>'
        '<button id="fav" data-box="250,10,40,40">Fav</button>'
        '<div id="badge" onclick="x()" data-box="290,190,30,30">!</div></a></body>'
    )
    dp = distill(page(html))
    assert ref_ids(dp) == ["card", "fav", "badge"]  # badge sticks out of the card's box
    assert "Shoe" in texts(dp)
    assert report(dp, "propagating_bounds").removed == 1
    off = distill(page(html), replace(DistillOptions(), propagating_bounds=False))
    assert ref_ids(off) == ["card", "title", "fav", "badge"]


def test_label_wrapping_an_input_is_indexed_once():
    dp = distill(
        page(
            '<body><label><input id="cb" type="checkbox"> Remember me</label>'
            '<label for="email">Email</label><input id="email" type="email">'
            '<input id="real" type="checkbox" style="display:none">'
            '<label id="custom" for="real">Custom box</label></body>'
        )
    )
    assert ref_ids(dp) == ["cb", "email", "custom"]  # a label stands in for a hidden control


def test_no_false_positives_from_search_words_and_inherited_cursor():
    dp = distill(
        page(
            '<body><div class="search-box" id="search"><span>Search results</span></div>'
            '<div id="clicky" data-css="cursor:pointer"><span data-css="cursor:pointer">In</span>'
            '</div><iframe id="frame"><x-doc><button id="inner">Go</button></x-doc></iframe></body>'
        )
    )
    assert ref_ids(dp) == ["clicky", "inner"]
    assert dp.refs[1].tier == "non_semantic" and dp.refs[2].tier == "semantic"


def test_tiers_semantic_and_non_semantic_signals():
    dp = distill(
        page(
            '<body><a id="nohref">plain</a><a id="link" href="/x">x</a>'
            '<div id="role" role="tab">T</div><div id="ce" contenteditable="true"></div>'
            '<div id="tab" tabindex="0">t</div><div id="neg" tabindex="-1">n</div>'
            '<span id="m2w" data-states=\'{"clickable": true}\'>m</span>'
            '<button id="off" disabled>Off</button></body>'
        )
    )
    assert ref_ids(dp) == ["link", "role", "ce", "tab", "m2w", "off"]
    assert dp.refs[6].attrs["disabled"] == "true"
    sized = distill(
        page(
            '<body data-box="0,0,800,600"><span id="icon" aria-label="Close" '
            'data-box="0,0,24,24"></span><span id="big" aria-label="Panel" '
            'data-box="0,30,400,300">p</span><div id="t" data-testid="x" data-box="0,0,90,30">'
            '</div><div data-testid="y" data-box="0,40,800,400">wide</div></body>'
        )
    )
    assert ref_ids(sized) == ["icon", "t"]


def test_jquery_ui_drag_handles_get_refs_beside_their_listening_container():
    dp = distill(
        page(
            '<body><ul id="list" data-states=\'{"clickable": true}\'>'
            '<li id="a" class="ui-sortable-handle">A</li><li id="b" class="ui-sortable-handle">B'
            '</li></ul><div id="wrap" data-states=\'{"clickable": true}\'>'
            '<textarea id="tt"></textarea><div id="edge" class="ui-resizable-handle '
            'ui-resizable-e"></div></div><li id="plain">C</li></body>'
        )
    )
    assert ref_ids(dp) == ["list", "a", "b", "wrap", "tt", "edge"]
    assert dp.refs[2].tier == "non_semantic"


# --- compound -------------------------------------------------------------------------------
def test_select_shows_selected_value_count_and_first_options():
    countries = ["Afghanistan", "Albania", "Algeria", "Andorra"] + [f"C{i}" for i in range(45)]
    options = "".join(
        f"<option{' selected' if name == 'C7' else ''}>{name}</option>" for name in countries
    )
    options += "<option data-states='{\"selected\": false}'>Canada</option>"
    dp = distill(page(f'<body><select name="country">{options}</select></body>'))
    select = dp.refs[1]
    assert select.attrs["selected"] == "C7"
    assert select.attrs["options"] == "50"
    assert select.attrs["first_options"] == "Afghanistan|Albania|Algeria|Andorra"
    assert select.children == []
    assert report(dp, "compound").removed == 100  # 50 options and their texts
    live = distill(
        page(
            '<body><select data-value="b"><option value="a">A</option>'
            '<option value="b">B</option></select></body>'
        )
    )
    assert live.refs[1].attrs["selected"] == "B"


def test_input_hints_for_range_number_and_dates():
    dp = distill(
        page(
            '<body><input type="range" min="10" max="20"><input type="number" max="5">'
            '<input type="date"><input type="time" data-value="12:30"></body>'
        )
    )
    attrs = [d.attrs for d in dp.refs.values()]
    assert attrs[0] | {} == {"type": "range", "min": "10", "max": "20", "step": "1", "value": "15"}
    assert attrs[1]["max"] == "5"
    assert attrs[2]["format"] == "YYYY-MM-DD"
    assert attrs[3]["format"] == "HH:MM" and attrs[3]["value"] == "12:30"


# --- wrapper collapse and text merge --------------------------------------------------------
def test_wrapper_chains_collapse_but_semantic_containers_stay():
    dp = distill(
        page(
            '<body><div class="a"><div class="b"><span><button>Go</button></span></div></div>'
            '<div id="keep"><span>x</span></div><nav><ul><li><a href="/">Home</a></li></ul></nav>'
            "</body>"
        )
    )
    body = dp.root.children[0]
    assert [c.tag for c in body.children] == ["button", "div", "nav"]
    assert tags(dp)[-4:] == ["nav", "ul", "li", "a"]
    assert report(dp, "wrapper_collapse").removed == 4


def test_text_merge_keeps_short_texts_and_joins_neighbours():
    dp = distill(
        page(
            '<body><nav><a href="?p=1">1</a><a href="?p=2">2</a><a href="?p=3">›</a></nav>'
            "<p>Hello   <span>big</span>\n world</p><p><span>$</span><span>5</span></p></body>"
        )
    )
    assert texts(dp) == ["1", "2", "›", "Hello big world", "$ 5"]


# --- attributes -----------------------------------------------------------------------------
def test_attributes_pruned_deduplicated_capped_and_states_shown():
    long = "x" * 150
    dp = distill(
        page(
            '<body><a href="https://shop.test/cart?id=1" class="btn" data-foo="1" '
            'aria-label="Cart">Cart</a>'
            f'<input id="query" name="query" placeholder="Search" aria-label="Search" title="{long}">'
            '<input type="password" data-value="hunter2">'
            '<input type="checkbox" checked><a href="https://other.test/x">o</a>'
            '<button aria-expanded="false">Menu</button></body>'
        )
    )
    cart, query, password, box, other, menu = (d.attrs for d in dp.refs.values())
    assert cart == {"href": "/cart?id=1"}
    assert query == {"id": "query", "placeholder": "Search", "title": "x" * 100 + "…", "empty": ""}
    assert password["value"] == "•••"
    assert box == {"type": "checkbox", "checked": "true"}
    assert other["href"] == "https://other.test/x"
    assert menu == {"expanded": "false"}


def test_a_popup_is_shown_only_where_one_opens():
    # a menu item with a submenu is hovered, the leaves beside it are clicked
    dp = distill(
        page(
            '<body><ul role="menu"><li role="menuitem" aria-haspopup="true">Share</li>'
            '<li role="menuitem" aria-haspopup="false">Print</li>'
            '<li role="menuitem">Close</li></ul>'
            '<button aria-haspopup="listbox">Size</button></body>'
        )
    )
    share, print_, close, size = (d.attrs for d in dp.refs.values() if d.tag != "ul")
    assert share == {"role": "menuitem", "haspopup": "true"}
    assert print_ == close == {"role": "menuitem"}
    assert size == {"haspopup": "listbox"}


def test_attributes_off_shows_source_attributes():
    state = page('<body><a href="https://shop.test/x" class="btn">x</a></body>')
    dp = distill(state, replace(DistillOptions(), attributes=False))
    assert dp.refs[1].attrs == {"href": "https://shop.test/x", "class": "btn"}
    assert report(dp, "attributes").skipped == "switched off"


def test_text_of_separate_blocks_stays_on_separate_lines():
    dp = distill(
        page(
            '<body><div class="list"><div>Notification 1: shipped</div>'
            '<div>Notification 2: <b>delayed</b> today</div>'
            '<div data-css="display:inline">inline <span>joins</span></div></div></body>',
            source="live",  # a source without runtime evidence would give the texts refs
        )
    )
    assert texts(dp) == ["Notification 1: shipped", "Notification 2: delayed today", "inline joins"]


def test_scroll_container_content_past_the_document_end_stays():
    dp = distill(
        page(
            '<body data-box="0,0,800,600"><div id="list" data-box="0,0,300,150" '
            'data-css="overflow:auto" data-scroll="0,0,300,900">'
            '<button id="first" data-box="0,0,80,20">1</button>'
            '<button id="last" data-box="0,880,80,20">30</button></div>'
            '<a id="away" href="/x" data-box="0,900,80,20">Away</a></body>',
            document_size=(800, 600),
            source="live",
        )
    )
    assert ref_ids(dp) == ["first", "last"]


def test_with_paint_order_aria_hidden_controls_stay_and_occlusion_decides():
    dp = distill(
        page(
            '<body data-box="0,0,800,600" data-po="1"><div aria-hidden="true" data-box="0,0,800,300"'
            ' data-po="1"><button id="painted" data-box="10,10,80,20" data-po="2">Go</button>'
            '<span data-box="10,40,80,20" data-po="2">decor</span></div></body>'
        )
    )
    assert ref_ids(dp) == ["painted"] and texts(dp) == ["Go"]


def test_content_scrolled_out_of_its_container_is_not_judged_by_what_lies_there():
    dp = distill(
        page(
            '<body data-box="0,0,800,600" data-po="1"><div data-box="0,0,200,100" data-po="1" '
            'data-css="overflow:auto" data-scroll="0,0,200,400">'
            '<button id="in-view" data-box="0,10,80,20" data-po="2">A</button>'
            '<button id="below" data-box="0,200,80,20" data-po="2">B</button></div>'
            f'<div id="panel" data-box="0,150,800,200" data-po="5" data-css="{OPAQUE}">Info</div>'
            '<a id="under-panel" href="/x" data-box="300,200,80,20" data-po="2">C</a></body>',
            document_size=(800, 600),
        )
    )
    assert ref_ids(dp) == ["in-view", "below"]


def test_without_computed_styles_boxes_past_the_document_end_stay():
    dp = distill(
        page(
            '<body data-box="0,0,800,600"><div data-box="0,0,300,150">'
            '<button id="scrolled" data-box="0,880,80,20">30</button></div></body>',
            document_size=(800, 600),
        )
    )
    assert ref_ids(dp) == ["scrolled"]  # a Mind2Web page cannot tell a scroll container


def test_a_class_that_marks_an_element_chosen_shows_as_selected():
    dp = distill(page(
        '<body><button id="odd" class="odd selected">Odd</button>'
        '<button id="even" class="even">Even</button>'
        '<ul><li class="page-item active"><a id="p1" href="#">1</a></li>'
        '<li class="page-item"><a id="p2" href="#">2</a></li></ul>'
        '<a id="tab" href="#t" class="ui-tabs-anchor ui-state-active">Tab</a>'
        '<a id="off" href="#o" class="inactive">Off</a>'
        '<button id="aria" class="selected" aria-pressed="false">Bold</button></body>'
    ))
    shown = {d.attrs.get("id"): d.attrs.get("selected") for d in dp.refs.values()}
    assert shown == {"odd": "true", "even": None, "p1": "true", "p2": None, "tab": "true",
                     "off": None, "aria": None}  # an ARIA state says it already
