"""Clickability from the markup alone, on sources without listener or cursor evidence."""

from __future__ import annotations

import pytest
from distill_helpers import page

from pipeline.distill import distill
from pipeline.distill.colours import painted_colour
from pipeline.html.source import page_from_html
from pipeline.query import query_elements
from pipeline.query.instruction import query_for_step


def ref_texts(html: str, **kwargs) -> list[str]:
    dp = distill(page_from_html(html, **kwargs))
    return [dp.state.text_content(d.node_id) or d.tag for d in dp.refs.values()]


def ref_backend_ids(dump: str) -> list[int]:
    """The backend ids of a Mind2Web raw dump's refs, in ref order."""
    dp = distill(page_from_html(dump, kind="mind2web_raw"))
    return [dp.backend_id(ref) for ref in dp.refs]


def ref_attributes(html: str, name: str) -> list[str | None]:
    """Attribute ``name`` of each ref's element, in ref order."""
    dp = distill(page_from_html(html))
    return [dp.state.nodes[d.node_id].attributes.get(name) for d in dp.refs.values()]


def test_script_driven_spans_get_refs_by_their_class_words():
    html = ('<body><div class="list"><span class="alink">sed.</span> plain text '
            '<span class="email-reply">Reply</span><span class="trash"></span>'
            '<span class="note">not a control</span></div></body>')
    dp = distill(page_from_html(html))
    tags = {dp.state.nodes[d.node_id].attributes.get("class") for d in dp.refs.values()}
    assert tags == {"alink", "email-reply", "trash"}
    interactivity = next(r for r in dp.report if r.name == "interactivity")
    assert "markup" in interactivity.note


def test_a_live_capture_never_reads_class_words():
    state = page('<body><span class="btn">Go</span><button>Real</button></body>', source="live")
    assert [d.tag for d in distill(state).refs.values()] == ["button"]


def test_a_class_word_on_most_elements_is_a_wrapper_not_a_control():
    items = "".join(f'<div class="item-wrap"><p>line {i}</p></div>' for i in range(30))
    html = f'<body>{items}<span class="close-btn">x</span></body>'
    assert ref_texts(html) == ["x"]


def test_a_list_item_around_clickable_labels_leaves_them_the_refs():
    html = ('<body><ul><li class="expandable"><div class="hitarea expandable-hitarea"></div>'
            '<span class="folder">Jess</span><ul><li><span class="file">Kim</span></li></ul>'
            "</li></ul></body>")
    texts = ref_texts(html)
    assert "Jess" in texts and "Kim" in texts and "JessKim" not in texts


def test_a_wrapper_around_one_control_and_an_icon_takes_the_ref():
    html = ('<body><div class="email-send"><span class="email-reply"><div class="icon"></div>'
            '<div>Reply</div></span><span class="email-forward"><div class="icon"></div>'
            "<div>Forward</div></span></div><p>Body text of the mail</p></body>")
    assert ref_attributes(html, "class") == ["email-reply", "email-forward"]


def test_a_marked_wrapper_around_form_fields_is_a_form_not_a_control():
    html = ('<body><div id="menu"><h2 id="header-book">Book Your One-Way Flight</h2>'
            '<input type="text" id="flight-from"><input type="text" id="flight-to">'
            '<button id="search">Search</button></div></body>')
    assert "Book Your One-Way Flight" not in ref_texts(html)
    assert ref_attributes(html, "id") == ["flight-from", "flight-to", "search"]


def test_svg_shapes_with_an_id_get_refs():
    html = ('<body><svg width="100" height="100"><circle id="c1" cx="5" cy="5" r="4"/>'
            '<rect x="0" y="0" width="3" height="3"/></svg><p>Click the circle</p></body>')
    dp = distill(page_from_html(html))
    assert [d.tag for d in dp.refs.values()] == ["circle"]


def test_a_page_without_any_control_falls_back_to_its_short_texts():
    dp = distill(page_from_html("<body><div><span>Alpha</span><span>Beta</span></div></body>"))
    assert len(dp.refs) == 2
    assert next(r for r in dp.report if r.name == "interactivity").note.startswith("fallback")


CLEANED = """<html backend_node_id="1"><body backend_node_id="2">
<div backend_node_id="3"><a backend_node_id="4"><text backend_node_id="5">Flights</text></a>
<a backend_node_id="6"><text backend_node_id="7">Hotels</text></a>
<a backend_node_id="8"><text backend_node_id="9">Cars</text></a></div>
<input backend_node_id="10" type="text" placeholder="Where to?">
<button backend_node_id="11" type="submit" aria_label="Search"></button>
<button backend_node_id="12"><text backend_node_id="13">Sign in</text></button>
<span backend_node_id="14"></span>
</body></html>"""


def test_cleaned_html_gives_every_link_and_button_a_ref():
    dp = distill(page_from_html(CLEANED))
    backend = {dp.backend_id(ref) for ref in dp.refs}
    assert {4, 6, 8, 11, 12} <= backend
    assert 14 in backend  # kept by the cleaner with neither text nor children: a candidate


def test_cleaned_html_search_button_ranks_top_two_for_a_search_task():
    dp = distill(page_from_html(CLEANED))
    task = 'Search for hotels in "Paris" and press search'
    for position in (0, 1):
        plan = query_for_step(task, [""] * position)
        refs = query_elements(dp, **plan.arguments).refs
        ranked = [dp.backend_id(ref) for ref in refs]
        assert 11 in ranked[:2] or (position == 0 and 10 in ranked[:2])


def test_a_short_text_coloured_apart_from_its_paragraph_gets_a_ref():
    html = ('<body><p style="color: #333">Read the <span style="color: #06c">details</span> '
            'or the <span style="color: #333">summary</span> first.</p></body>')
    assert ref_texts(html) == ["details"]


def test_a_menu_item_around_a_bare_link_leaves_the_ref_to_the_link():
    html = ('<body><ul><li class="menu-item"><a>Home</a></li>'
            '<li class="menu-item"><a>Deals</a></li></ul></body>')
    dp = distill(page_from_html(html))
    assert [d.tag for d in dp.refs.values()] == ["a", "a"]


def big_cleaned_page() -> str:
    """A cleaned_html step of Mind2Web's size: 165 bare links, 41 buttons, two fields."""
    ids = iter(range(100, 10_000))

    def text(value: str) -> str:
        return f'<text backend_node_id="{next(ids)}">{value}</text>'

    links = "".join(f'<li backend_node_id="{next(ids)}"><a backend_node_id="{next(ids)}">'
                    f"{text(f'Destination {k}')}</a></li>" for k in range(160))
    links += "".join(f'<a backend_node_id="{next(ids)}">{text(t)}</a>' for t in (
        "Advanced search", "Search tips", "Recent searches", "Flights", "Hotels"))
    buttons = "".join(f'<button backend_node_id="{next(ids)}">{text(f"Option {k}")}</button>'
                      for k in range(40))
    return (f'<html backend_node_id="1"><body backend_node_id="2"><div backend_node_id="3">'
            f'<ul backend_node_id="4">{links}</ul><input backend_node_id="10" type="text" '
            'placeholder="From"><input backend_node_id="11" type="text" placeholder="To">'
            f'<button backend_node_id="12" type="submit" aria_label="Search"></button>{buttons}'
            "</div></body></html>")


def test_a_large_cleaned_page_keeps_every_link_and_ranks_the_search_button():
    dp = distill(page_from_html(big_cleaned_page()))
    tags = [dp.state.nodes[d.node_id].tag for d in dp.refs.values()]
    assert tags.count("a") == 165 and tags.count("button") == 41
    task = "Search for a flight from New York to Los Angeles"
    for position in (1, 2, 3):  # after the fields were typed: the submit button is next
        refs = query_elements(dp, **query_for_step(task, [""] * position).arguments).refs
        assert 12 in [dp.backend_id(ref) for ref in refs[:2]]


def test_marked_svg_groups_are_the_clickable_unit():
    slices = "".join(f'<g class="slice" id="s{k}"><path d="M0 0L5 5"/><text>{k}</text></g>'
                     for k in "AB")
    dp = distill(page_from_html(f'<body><svg width="50" height="50">{slices}</svg></body>'))
    assert [(d.tag, dp.state.text_content(d.node_id)) for d in dp.refs.values()] == [
        ("g", "A"), ("g", "B")]


def test_an_empty_box_painted_apart_from_its_surroundings_is_a_swatch():
    html = ('<body><div id="area" style="background-color: white">'
            '<span data-color="blue" style="background-color: rgb(16, 16, 173)"></span>'
            '<span data-color="red" style="background: red"></span>'
            '<span style="background-color: white"></span>'  # the colour around it: no swatch
            '<div style="height: 1px; background-color: #ccc"></div>'  # a rule, not a control
            '<span style="background-color: transparent"></span></div><p>Pick one</p></body>')
    assert ref_attributes(html, "data-color") == ["blue", "red"]


def test_a_swatch_with_a_known_box_is_neither_a_rule_nor_a_panel():
    html = ('<html backend_node_id="1"><body backend_node_id="2">'
            '<span backend_node_id="3" bounding_box_rect="0,0,40,40" style="background-color: red">'
            '</span><div backend_node_id="4" bounding_box_rect="0,50,300,2" '
            'style="background-color: gray"></div><div backend_node_id="6" '
            'bounding_box_rect="0,60,300,200" style="background-color: rgba(0, 0, 0, 0.5)"></div>'
            '<p backend_node_id="5">Choose</p></body></html>')
    assert ref_backend_ids(html) == [3]


def test_a_class_word_on_many_words_of_a_sentence_marks_each_of_them():
    linked = " ".join(f'word <span class="alink">w{i}</span>' for i in range(30))
    rows = "".join(f'<div class="item-row">row {i}</div>' for i in range(30))
    classes = ref_attributes(f"<body><p>{linked}</p><div>{rows}</div></body>", "class")
    assert classes == ["alink"] * 30  # the 30 rows share a flooded word and sit in no sentence


TABS = ('<ul role="tablist">' + "".join(
    f'<li role="tab" aria-controls="tabs-{k}"><a href="#tabs-{k}" role="presentation" '
    f'tabindex="-1">{k}</a></li>' for k in (1, 2, 3)) + "</ul>")


@pytest.mark.parametrize("source", ["html", "live"])
def test_a_presentational_link_inside_a_tab_leaves_the_ref_to_the_tab(source):
    state = page_from_html(f"<body>{TABS}</body>") if source == "html" else page(
        f"<body>{TABS}</body>", source="live")
    dp = distill(state)
    assert [(d.tag, dp.state.text_content(d.node_id)) for d in dp.refs.values()] == [
        ("li", "1"), ("li", "2"), ("li", "3")]


def test_svg_shapes_styled_with_a_pointer_get_refs_and_plain_ones_do_not():
    html = ('<body><svg><circle cx="10" cy="10" r="8" style="cursor:pointer;"></circle>'
            '<text x="40" y="10" style="cursor: pointer">I</text>'
            '<rect x="60" y="0" width="9" height="9"></rect></svg></body>')
    assert sorted(ref_texts(html)) == ["I", "circle"]


def test_svg_shapes_with_a_click_handler_get_refs_and_make_the_marked_rest_drawing():
    # the handler is the author's mark, as a pointer cursor is: the frame named by an id is
    # drawing here, and the drawing is no surface clicked at a point
    html = ('<body><svg width="120" height="90"><rect id="frame" x="0" y="0" width="120" '
            'height="90" fill="white"></rect><circle cx="10" cy="10" r="8" '
            'onclick="pick(1)"></circle><polygon points="40,5 50,20 30,20" '
            'onmousedown="pick(2)"></polygon><circle cx="90" cy="70" r="4"></circle></svg>'
            '</body>')
    assert sorted(ref_texts(html)) == ["circle", "polygon"]


def test_a_control_drawn_as_one_glyph_gets_a_ref_and_words_around_it_do_not():
    html = ('<body><div class="selectric"><span class="label"></span><b class="knob">▾</b></div>'
            '<p>Pick one <span>option</span> below</p><span class="ql-picker-label"></span>'
            '<span>×</span></body>')
    assert ref_attributes(html, "class") == ["knob", "ql-picker-label", None]


def test_the_items_of_a_list_named_as_a_control_get_the_refs_not_the_list():
    html = ('<body><div class="selectric-items"><div class="selectric-scroll"><ul>'
            '<li data-index="0">5ft 9in</li><li data-index="1">6 ft</li></ul></div></div>'
            '<ul class="facts"><li>plain row</li></ul></body>')
    assert ref_texts(html) == ["5ft 9in", "6 ft"]


def test_a_heading_named_header_is_a_title_but_an_accordion_header_is_a_control():
    html = ('<body><h2 id="header-book">Book Your Flight</h2>'
            '<h3 class="ui-accordion-header">Section 1</h3><div>Body text</div></body>')
    assert ref_texts(html) == ["Section 1"]


def test_a_menu_is_named_by_its_items_not_by_the_text_before_it():
    html = ('<body><div id="query">Select Pandora>Natalee</div>'
            '<ul id="menu" role="menu" tabindex="0"><li><div role="menuitem">Grete</div></li><li><div role="menuitem">Pandora</div></li>'
            '</ul></body>')
    dp = distill(page_from_html(html))
    assert [d.tag for d in dp.refs.values()] == ["ul", "div", "div"]  # the menu keeps a ref
    plan = query_for_step("Select Pandora>Natalee", [])
    top = query_elements(dp, **plan.arguments).refs[0]
    assert dp.state.text_content(dp.node_of(top)) == "Pandora"


def test_a_command_word_quoted_inside_a_sentence_is_not_a_button():
    html = ('<body><div>Click the "<span>Reply</span>" button on all posts.</div>'
            '<div class="post"><span>Reply</span></div></body>')
    dp = distill(page_from_html(html))
    assert [dp.state.nodes[dp.state.nodes[d.node_id].parent].attributes.get("class")
            for d in dp.refs.values()] == ["post"]


def test_a_calendars_time_slots_are_controls_however_many_there_are():
    slots = "".join(f'<div class="half-hour" id="hh-{i}"></div>' for i in range(48))
    rows = "".join(f'<div class="hour-row"><span>{i}am</span></div>' for i in range(24))
    html = (f'<body><div id="cal">{rows}{slots}<div class="time-slot">1PM</div></div>'
            '<p>Nothing to click here.</p></body>')
    classes = ref_attributes(html, "class")
    assert classes.count("half-hour") == 48 and "time-slot" in classes
    assert "hour-row" not in classes  # 24 rows that wrap a label each: a row's name


def test_where_svg_parts_carry_a_pointer_the_other_marked_parts_are_drawing_but_a_drop_box():
    """The line marked by an id is drawing; the outline box the shapes go into keeps a ref (a
    drag names it), and says it is black by its stroke."""
    html = ('<body><svg id="area_svg"><circle cx="10" cy="10" r="8" fill="black" '
            'style="cursor:pointer;"></circle><rect x="20" y="0" width="9" height="9" '
            'style="cursor:pointer;"></rect><line id="axis" x1="0" y1="60" x2="150" y2="60" '
            'stroke="gray"></line><rect id="shape-container" x="40" y="0" width="80" '
            'height="45" fill="none" stroke="black"></rect></svg>'
            '<p>Drag all circles into the box.</p><button id="subbtn">Submit</button></body>')
    assert ref_texts(html) == ["circle", "rect", "rect", "Submit"]
    dp = distill(page_from_html(html))
    box = next(d for d in dp.refs.values() if d.attrs.get("id") == "shape-container")
    assert painted_colour(dp.state.nodes[box.node_id], dp.state) == "black"


def test_an_outline_rect_is_no_drop_box_where_the_drawing_has_no_shape_to_drag():
    html = ('<body><svg id="chart"><rect x="0" y="0" width="80" height="45" '
            'fill="none" stroke="black"></rect><text x="5" y="20">Sales</text></svg>'
            '<button>Next</button></body>')
    assert ref_texts(html) == ["Next"]


def test_an_unmarked_svg_drawing_is_a_surface_clicked_at_a_point_and_an_icon_is_not():
    html = ('<html backend_node_id="1"><body backend_node_id="2"><p backend_node_id="3">Click '
            'the midpoint between the two points.</p><svg backend_node_id="4" '
            'bounding_box_rect="2,52,160,160"><circle backend_node_id="5" cx="10" cy="10" r="4">'
            '</circle><circle backend_node_id="6" cx="90" cy="70" r="4"></circle></svg>'
            '<svg backend_node_id="7" bounding_box_rect="170,52,18,18"><path backend_node_id="8" '
            'd="M0 0L5 5"></path></svg></body></html>')
    assert ref_backend_ids(html) == [4]
    assert ref_texts('<body><svg width="120" height="90"><circle r="4"/></svg></body>') == ["svg"]


def test_an_empty_icon_named_by_its_action_gets_a_ref_and_a_region_so_named_does_not():
    html = ('<html backend_node_id="1"><body backend_node_id="2"><div backend_node_id="3" '
            'id="search-results" bounding_box_rect="0,20,160,90"></div><span backend_node_id="4" '
            'id="open-search" bounding_box_rect="137,5,12,12"></span><div backend_node_id="5" '
            'class="search-box"><p backend_node_id="6">Find an email</p></div></body></html>')
    assert ref_backend_ids(html) == [4]


def test_a_page_without_any_control_falls_back_to_its_empty_boxes_of_a_controls_size_too():
    html = ('<html backend_node_id="1"><body backend_node_id="2"><p backend_node_id="3" '
            'bounding_box_rect="0,0,160,12">Click the square.</p><div backend_node_id="4" '
            'bounding_box_rect="0,20,160,100"><div backend_node_id="5" '
            'bounding_box_rect="30,40,20,20"></div><div backend_node_id="6" '
            'bounding_box_rect="0,130,160,2"></div><div backend_node_id="7" '
            'bounding_box_rect="0,60,120,90"></div></div></body></html>')  # a panel
    assert ref_backend_ids(html) == [3, 5]


def test_the_tiles_cells_and_squares_of_a_board_get_refs():
    board = "".join(f'<div class="cell" id="c{i}">{"X" if i == 4 else ""}</div>' for i in range(9))
    html = (f'<body><p>Play as O.</p><div id="board">{board}</div>'
            '<span class="tile">7</span><span class="ui-selectee">Item</span></body>')
    assert ref_attributes(html, "id") == [f"c{i}" for i in range(9)] + [None, None]


def test_cleaned_html_keeps_its_svg_shapes_as_controls():
    html = ('<html backend_node_id="1"><body backend_node_id="2"><div backend_node_id="3"><text '
            'backend_node_id="4">Drag all circles into the box.</text></div><svg '
            'backend_node_id="5"><circle backend_node_id="6"></circle><polygon backend_node_id="7">'
            '</polygon><text backend_node_id="8"><text backend_node_id="9">A</text></text></svg>'
            '<button backend_node_id="10"><text backend_node_id="11">Submit</text></button>'
            '</body></html>')
    dp = distill(page_from_html(html, kind="mind2web_cleaned"))
    assert [dp.backend_id(ref) for ref in dp.refs] == [6, 7, 10]


def test_icon_font_glyphs_named_by_an_action_are_controls_and_a_ticked_feature_is_not():
    html = ('<body><div class="toast"><span>Saved</span><i class="fa fa-times"></i></div>'
            '<ul><li><i class="fa fa-check"></i> Free shipping</li></ul>'
            '<span class="glyphicon glyphicon-cog"></span></body>')
    assert ref_attributes(html, "class") == ["fa fa-times", "glyphicon glyphicon-cog"]


@pytest.mark.parametrize("width", ["100%", "auto", "²", ""])
def test_an_svg_whose_size_is_not_known_in_pixels_is_no_surface(width):
    html = (f'<body><p>Pick a point</p><svg width="{width}" height="90"><circle r="4"/></svg>'
            '<button>Done</button></body>')
    assert ref_texts(html) == ["Done"]


def test_a_calendars_day_cell_is_a_control_and_a_date_shown_whole_is_a_label():
    days = "".join(f'<td class="day">{d}</td>' for d in (23, 24, 25))
    html = (f'<body><table><tr>{days}</tr></table><div class="flight">Depart: '
            '<div class="depart-day">Sat Dec 24 2016</div></div><button>Book</button></body>')
    assert ref_texts(html) == ["23", "24", "25", "Book"]


def test_a_header_is_a_control_where_it_opens_a_collapsed_section_and_a_title_bar_elsewhere():
    html = ('<body><div id="terminal"><div id="terminal-header">terminal</div>'
            '<div id="terminal-contents">user$</div></div>'
            '<div class="panel-header">Section A</div><div style="display: none">Hidden</div>'
            '<div class="panel-header">Section B</div><div>Shown</div></body>')
    # the terminal is a surface one types into; its header bar is a title, not a control
    assert ref_texts(html) == ["terminal user$", "Section A"]


def test_a_mere_icon_inside_a_control_tiered_by_its_own_signs_is_part_of_it():
    items = "".join(f'<li class="ui-state-default ui-sortable-handle"><span class="ui-icon '
                    f'ui-icon-arrowthick-2-n-s"></span>{name}</li>' for name in ("Ann", "Bo"))
    html = f'<body><ul class="ui-sortable">{items}</ul><span class="icon"></span></body>'
    assert ref_texts(html) == ["Ann", "Bo", "span"]


def test_a_terminal_is_a_surface_one_clicks_then_types_into_not_its_parts():
    html = ('<body><div id="terminal"><div id="terminal-header">terminal</div>'
            '<div id="terminal-contents"><span class="output">Welcome!</span>'
            '<span class="user">user$</span></div></div>'
            '<div class="console logs">2 warnings</div><div id="terminals-list">a b</div>'
            '<input type="text" id="terminal-target"></body>')
    ids = ref_attributes(html, "id")
    assert "terminal" in ids and "terminal-target" in ids
    assert "terminal-header" not in ids and "terminal-contents" not in ids
    assert "terminals-list" not in ids  # the whole id or a whole class names the surface
    assert ref_attributes(html, "class").count("console logs") == 1
    dp = distill(page_from_html(html))
    plan = query_for_step("Use the terminal below to delete a file ending with .zip", [])
    first = query_elements(dp, **plan.arguments).refs[0]
    assert dp.state.nodes[dp.refs[first].node_id].attributes.get("id") == "terminal"
