"""query_elements over the fixture pages and a hand-made store: filters, scoring, messages."""

import re

import pytest
from query_helpers import fixture, store

from pipeline.distill import distill
from pipeline.html.source import page_from_html
from pipeline.query import build_index, index_for, query_elements
from pipeline.query import index as index_module
from pipeline.query.hidden import hidden_openers
from pipeline.query.instruction import query_for_step, query_from_instruction
from pipeline.query.scoring import make_query
from pipeline.query.text import joined, terms, words


def refs_of(result):
    assert result.ok, result.text
    return result.refs


def test_words_split_identifiers_and_drop_stop_words():
    assert words("signInButton add_to-cart $87.19") == [
        "sign",
        "in",
        "button",
        "add",
        "to",
        "cart",
        "87.19",
    ]
    assert terms("Add to Cart") == ("add", "cart")
    assert terms("to") == ("to",)  # only stop-words: keep them
    assert terms("purchasing") == terms("Purchase")
    assert joined("Sign in") == ("signin",)


def test_a_code_of_letters_and_digits_stays_one_word_and_an_index_is_split_off():
    assert words("Rj4R4sY V8WJY 12px the 2nd") == ["rj4r4sy", "v8wjy", "12px", "the", "2"]
    assert words("signInButton2 rowItem3 ch4 ky7") == [
        "sign", "in", "button", "2", "row", "item", "3", "ch4", "ky7"]
    assert words("12/09/2016 1,000.50") == ["12", "09", "2016", "1,000.50"]
    assert terms("RJ4r4sy") == terms("rj4r4sy") == ("rj4r4sy",)  # a code is not stemmed


def test_a_code_in_the_query_matches_the_code_not_a_digit_of_another_element():
    page = distill(page_from_html(
        "<body><p>Select Rj4R4sY and click Submit.</p>"
        + "".join(f'<label><input type="checkbox" id="ch{i}">{label}</label>'
                  for i, label in enumerate(["qKW", "Rj4R4sY", "mT0", "x9Q", "Lw"]))
        + '<button id="subbtn">Submit</button></body>'))
    result = query_elements(page, text="Rj4R4sY", max_results=10)
    assert result.text.startswith('1 element matches text="Rj4R4sY"'), result.text
    assert result.refs[0] == 2  # ch1, labelled Rj4R4sY; ch4 shares only a "4" with the code


def test_an_id_that_numbers_what_the_task_names_matches_it_exactly():
    # MiniWoB++ use-slider-2: three nameless sliders, id=slider-1..3, beside Submit
    page = distill(page_from_html(
        "<body>" + "".join(f'<div id="slider-{n}" class="ui-slider" tabindex="0"></div>'
                           for n in (1, 2, 3))
        + '<button id="subbtn">Submit</button></body>'))
    plan = query_for_step("Set the sliders to the combination [12,3,11] and submit.", [])
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].attributes["id"] == "slider-1"


def test_a_checkbox_label_counts_as_the_text_one_clicks():
    page = distill(page_from_html(
        "<body><p>Select 78MoLcK and click Submit.</p>"
        '<label><input type="radio" name="o">kQ2</label>'
        '<label><input type="radio" name="o">78MoLcK</label>'
        '<button id="subbtn">Submit</button></body>'))
    plan = query_from_instruction("Select 78MoLcK and click Submit.")
    result = query_elements(page, **plan.arguments)
    assert result.refs[:2] == [2, 3], result.text  # the option named, then the button


@pytest.mark.parametrize(
    "role, expected",
    [
        (
            "textbox",
            [8, 9, 10, 11, 12, 13, 14],
        ),  # text, email, tel, password, number, textarea, contenteditable
        ("button", [4, 6, 7, 18, 19, 20]),  # button, input submit/reset/image
        ("link", [1, 2, 3, 5, 25]),
        ("checkbox", [16]),
        ("radio", [17]),
        ("combobox", [15, 23]),
        ("select", [15, 23]),
        ("dropdown", [15, 23]),
        ("tab", [21]),
        ("menuitem", [22]),
        ("option", [24]),
        ("input", [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 23]),  # hidden input excluded
    ],
)
def test_role_synonyms(role, expected):
    assert refs_of(query_elements(store(), role=role)) == expected


def test_role_is_case_insensitive_and_unknown_roles_match_role_or_tag():
    page = store()
    assert refs_of(query_elements(page, role="Button")) == refs_of(
        query_elements(page, role="button")
    )
    assert refs_of(query_elements(page, role="textarea")) == refs_of(
        query_elements(page, role="textbox")
    )
    assert refs_of(query_elements(page, role="li")) == [22, 24]


def test_stemming_finds_purchase_from_purchasing():
    assert refs_of(query_elements(store(), text="purchasing"))[0] == 18


def test_fuzzy_sign_in_finds_signin_id():
    result = query_elements(store(), text="Sign in")
    assert refs_of(result)[0] == 4 and result.hits[0].field == "id"


def test_add_to_cart_ranks_the_cart_buttons_first():
    page = fixture("shop.html")
    result = query_elements(page, text="add to cart", max_results=100)
    assert all(page.refs[r].tag == "button" for r in result.refs)
    assert result.refs == sorted(result.refs)  # equal scores: document order
    assert result.total == 201  # 200 buttons, then the Cart (0) link


def test_result_lines_tell_identical_buttons_apart():
    result = query_elements(fixture("shop.html"), text="add to cart", max_results=3)
    lines = result.text.splitlines()
    assert lines[0].startswith("201 elements match") and "top 3" in lines[0]
    assert (
        lines[1]
        == '[23]<button type=button>Add to Cart</button> — Classic Kettle 1, $87.19 (MAIN › "Kitchen")'
    )
    assert len(set(lines[1:])) == 3


def test_the_card_context_is_searchable():
    result = query_elements(fixture("shop.html"), text="Deluxe Toaster 14", role="button")
    assert result.refs[0] == 49 and result.hits[0].field == "context"


def test_what_cards_share_is_searched_but_not_shown():
    posts = "".join(
        f'<div class="media"><div class="details"><span class="name">{name}</span>'
        f'<span class="username">@{handle}</span></div><div class="body">{body}</div>'
        '<div class="controls"><button class="reply" aria-label="Reply"></button>'
        '<button class="like" aria-label="Like"></button></div></div>'
        for name, handle, body in [("Pier", "at", "Auctor eget."), ("Wally", "ut", "Vitae nec."),
                                   ("Pier", "at", "Libero fermentum."),
                                   ("Wally", "ut", "Semper a.")])
    page = distill(page_from_html(f"<body>{posts}</body>"))
    plan = query_from_instruction('Click the "Like" button on all posts by @at')
    assert plan.arguments["keyword_weights"]["at"] == 1.0  # a handle, not the stop-word
    result = query_elements(page, **plan.arguments)
    cards = [index_for(page).entries[ref].context for ref in result.refs[:2]]
    assert cards == ["Auctor eget.", "Libero fermentum."]  # the posts by @at, their own text
    assert "@at" not in result.text  # shared by several cards: searched, never shown


def test_a_cards_own_text_past_the_shown_two_is_searched():
    posts = "".join(  # social-media's posts: the author line lies two texts above the buttons
        f'<div class="media"><div class="details"><div class="name">{name}</div>'
        f'<div class="username">@{handle}</div><div class="time">{hours}h ago</div></div>'
        f'<div class="body">{body}</div><div class="controls"><span class="reply"></span>'
        '<span class="like"></span></div></div>'
        for name, handle, hours, body in [("Amitie", "livia", 16, "Pretium fusce."),
                                          ("Oneida", "michel", 9, "Tristique duis."),
                                          ("Hebert", "non", 1, "Viverra sed.")])
    page = distill(page_from_html(f"<body>{posts}</body>"))
    plan = query_from_instruction('For the user @michel, click on the "Reply" button.')
    result = query_elements(page, **plan.arguments)
    top = index_for(page).entries[result.refs[0]]
    assert top.context == "Tristique duis., 9h ago" and "reply" in top.node.attributes["class"]
    assert "@michel" not in result.text  # searched, never shown


def test_text_scoring_prefers_visible_text_over_attributes():
    result = query_elements(fixture("shop.html"), text="search")
    assert result.refs[:2] == [3, 2]  # button text beats the input's type/placeholder
    assert result.hits[0].match == "exact" and result.hits[0].field == "text"


def test_name_matches_the_accessible_name():
    page = store()
    assert refs_of(query_elements(page, name="Card number"))[0] == 8
    assert refs_of(query_elements(page, name="Gift message"))[0] == 14


def test_attributes_exact_substring_and_presence():
    page = store()
    assert refs_of(query_elements(page, attributes={"name": "email"})) == [9]
    assert refs_of(query_elements(page, attributes={"href": "help"})) == [3]
    assert refs_of(query_elements(page, attributes={"TYPE": "Submit"})) == [18]
    assert refs_of(query_elements(page, attributes={"placeholder": ""})) == [11, 13]
    assert refs_of(query_elements(page, attributes="type=radio")) == [17]  # text form


def test_landmarks_by_label_role_and_name():
    page = fixture("shop.html")
    nav = refs_of(query_elements(page, role="link", within_landmark="NAV", max_results=100))
    assert nav == list(range(6, 14))
    assert refs_of(query_elements(page, within_landmark="NAV:Primary", max_results=100)) == nav
    assert (
        refs_of(query_elements(page, within_landmark='navigation: "primary"', max_results=100))
        == nav
    )
    assert refs_of(query_elements(page, within_landmark="Filters", max_results=100)) == list(
        range(14, 22)
    )
    main = query_elements(page, role="button", within_landmark="MAIN")
    assert main.total == 200 and all(22 <= r for r in main.refs)
    store_navs = refs_of(query_elements(store(), within_landmark="nav"))
    assert store_navs == [2, 3, 4, 5]  # both navs


def test_near_heading_scopes_to_the_section():
    page = fixture("shop.html")
    kitchen = query_elements(page, role="button", near_heading="kitchen", max_results=100)
    assert kitchen.total == 50 and kitchen.refs[0] == 23
    card = refs_of(query_elements(page, near_heading="Classic Kettle 1"))
    assert card == [22, 23]  # the card link holding the heading and its button


def test_combined_criteria():
    page = fixture("shop.html")
    result = query_elements(
        page,
        text="add to cart",
        role="button",
        within_landmark="MAIN",
        near_heading="Outdoor",
        max_results=5,
    )
    assert result.total == 50 and result.refs == [123, 125, 127, 129, 131]
    assert 'under "Outdoor"' in result.text.splitlines()[0]


def test_max_results():
    page = fixture("shop.html")
    assert len(query_elements(page, role="link", max_results=7).hits) == 7
    assert len(query_elements(page, role="link", max_results="3").hits) == 3
    assert len(query_elements(page, role="link", max_results=0).hits) == 1


def test_keyword_weights_score_with_the_same_template():
    page = fixture("shop.html")
    result = query_elements(page, keyword_weights={"add to cart": 40, "cart": 5}, max_results=3)
    assert [page.refs[r].tag for r in result.refs] == ["button"] * 3
    cart = query_elements(page, keyword_weights={"shopping cart": 30, "basket": 10})
    assert cart.refs[0] == 5  # the Cart (0) link
    assert query_elements(page, keyword_weights=["kettle"]).total > 0  # a plain list works


def test_ties_are_broken_by_document_order():
    result = query_elements(fixture("shop.html"), text="kettle", max_results=50)
    scores = [h.score for h in result.hits]
    assert scores == sorted(scores, reverse=True)
    for a, b in zip(result.hits, result.hits[1:]):
        if a.score == b.score:
            assert a.ref < b.ref


def test_empty_result_names_what_to_relax():
    result = query_elements(fixture("shop.html"), role="button", within_landmark="NAV")
    assert result.ok and result.hits == [] and result.total == 0
    text = result.text
    assert text.startswith("No elements match role=button, within NAV.")
    assert "without within_landmark: 201 match (MAIN 200, HEADER 1)" in text
    assert "without role: 8 match (NAV:Primary 8)" in text


def test_text_found_nowhere_says_so():
    result = query_elements(fixture("shop.html"), text="xylophone zebra")
    assert result.hits == [] and "try other words" in result.text


def test_bad_arguments_never_raise():
    page = fixture("shop.html")
    bad = query_elements(page, within_landmark="SIDEBARX")
    assert not bad.ok and "NAV:Primary" in bad.text and "PAGE" in bad.text
    heading = query_elements(page, near_heading="qqqqq")
    assert not heading.ok and '"All products"' in heading.text
    odd = query_elements(page, attributes=5, keyword_weights="x", max_results="abc")
    assert odd.ok and len(odd.hits) == 20  # unusable arguments are ignored
    role = query_elements(page, role=123)
    assert role.ok and "roles on this page: link 217, button 201" in role.text


def test_whole_page_landmark():
    page = fixture("forms.html")
    assert query_elements(page, within_landmark="PAGE").total == len(page.refs)


def test_index_is_built_once_per_page(monkeypatch):
    page = store()
    first = index_for(page)
    calls = []
    monkeypatch.setattr(index_module, "build_index", lambda p: calls.append(p) or build_index(p))
    query_elements(page, text="mug")
    query_elements(page, role="button")
    assert index_for(page) is first and calls == []


def test_result_refs_are_the_flat_rendering_refs():
    from pipeline.render import render_flat

    page = fixture("shop.html")
    flat = render_flat(page)
    for line in query_elements(page, text="kettle", max_results=5).text.splitlines()[1:]:
        element = re.match(r"(\[\d+\]<.*?</\w+>|\[\d+\]<[^>]*/>)", line).group(1)
        assert element in flat


def test_fuzzy_matching_catches_typos():
    result = query_elements(store(), text="acount")
    assert result.refs[0] == 4 and result.hits[0].match == "fuzzy"


def test_label_leak_markers_are_never_searched_or_shown():
    from distill_helpers import page

    from pipeline.distill import distill
    from pipeline.query import get_element_details

    leaky = distill(page('<button data_pw_testid_buckeye="uid-77">Go</button><a href="/x">X</a>'))
    found = query_elements(leaky, text="uid-77")
    assert found.total == 0 and all(hit.score == 0 for hit in found.hits)
    assert "buckeye" not in get_element_details(leaky, 1) and "buckeye" not in found.text


def test_a_small_candidate_set_is_listed_whole_matches_first():
    from distill_helpers import page

    from pipeline.distill import distill

    small = distill(page('<button>Cancel</button><button>Place order</button><a href="/h">Help</a>'))
    found = query_elements(small, text="complete my purchase")  # no word in common
    assert found.total == 0 and found.refs == [1, 2, 3]
    lines = found.text.splitlines()
    assert lines[0] == 'No elements match text="complete my purchase".'
    assert "Other elements on the page (no word matched; all 3 are listed):" in lines
    found = query_elements(small, text="help", role="button")
    assert found.refs == [1, 2] and "with role=button" in found.text
    found = query_elements(small, text="order")
    assert found.refs == [2, 1, 3] and found.total == 1


def test_a_large_page_that_matches_nothing_lists_the_nearest_spellings():
    from distill_helpers import page

    from pipeline.distill import distill

    items = "".join(f'<a href="/p{i}">Product number {i}</a>' for i in range(30))
    large = distill(page(f"{items}<button>Checkout now</button>"))
    found = query_elements(large, text="cheque outs")
    assert found.total == 0 and found.refs[0] == 31
    assert "Nearest by spelling (no word matched" in found.text
    assert query_elements(large, text="zzzz qqq").refs == []  # nothing near: no list


def test_a_wrapper_and_its_control_saying_the_same_words_are_not_a_repeat():
    page = distill(page_from_html(
        '<body><h3 role="tab">Section #36</h3><div><p>Lorem ipsum</p></div>'
        '<p role="tab"><button id="subbtn">Submit</button></p></body>'))
    index = index_for(page)
    button = next(e for e in index.entries.values() if e.node.tag == "button")
    assert button.context == ""  # "Submit" is said once: no card context to tell it apart
    result = query_elements(page, keyword_weights={"section": 1.0, "submit": 0.5})
    assert page.refs[result.refs[0]].tag == "h3"


def contexts(html: str) -> list[tuple[str, str]]:
    """(label or tag, context) of every ref, in document order."""
    index = index_for(distill(page_from_html(html)))
    return [(e.label or e.node.tag, e.context) for _, e in sorted(index.entries.items())]


def test_a_lone_button_names_the_text_box_it_acts_on_but_not_the_list_beside_it():
    # MiniWoB++ search-engine and choose-list: a field and its button in one form row
    assert contexts('<body><div id="area"><input type="text" id="q">'
                    '<button id="search">Search</button></div></body>')[0] == ("input", "Search")
    assert contexts('<body><p>Guess the number.</p><div><input type="number" id="tt">'
                    '<button id="subbtn">Submit</button></div></body>')[0] == ("input", "Submit")
    assert contexts(
        '<body><div id="query">Select Darya from the list and click Submit.</div>'
        '<div id="area"><select id="options"><option>Bibbie</option><option>Darya</option>'
        "</select><button>Submit</button></div></body>"
    )[0] == ("select", "")  # neither the button's label nor the task text above the form
    fields = contexts('<body><div><input type="text" id="a"><input type="text" id="b">'
                      '<button>Submit</button></div></body>')
    assert fields[:2] == [("input", ""), ("input", "")]  # it sends both and names neither


def test_rows_of_identical_buttons_take_their_own_row_text_even_when_rows_share_it():
    # MiniWoB++ odd-or-even: Odd, the number, Even in each row; two rows show -5
    rows = "".join(
        f'<div class="row"><button class="odd">Odd</button><div>{n}</div>'
        '<button class="even">Even</button></div>' for n in (-5, -5, 8)
    )
    found = contexts(f'<body><div id="numbers">{rows}</div><button>Submit</button></body>')
    assert found == [("odd", "-5"), ("even", "-5"), ("odd", "-5"), ("even", "-5"),
                     ("odd", "8"), ("even", "8"), ("submit", "")]


def test_a_flat_list_gives_each_button_the_text_between_it_and_its_twins():
    found = contexts("<body><div><span>Kettle</span><button>Buy</button>"
                     "<span>Toaster</span><button>Buy</button></div></body>")
    assert found == [("buy", "Kettle"), ("buy", "Toaster")]


def test_a_name_nowhere_on_the_page_leads_to_the_menu_toggle_of_the_right_card():
    posts = "".join(
        f'<div class="media"><div class="name">{name}</div><div class="username">@{handle}</div>'
        f'<div class="body">{body}</div><div class="controls"><span class="reply"></span>'
        '<span class="like"></span><span class="more"></span>'
        f'<ul style="display:none"><li>Report @{handle}</li></ul></div></div>'
        for name, handle, body in [("Lawson", "annis", "Egestas volutpat."),
                                   ("Ag", "tora", "Pellentesque pretium.")])
    page = distill(page_from_html(f"<body>{posts}</body>"))
    task = 'For the user @annis, click on the "Report" button.'
    top = index_for(page).entries[
        query_elements(page, **query_for_step(task, []).arguments).refs[0]]
    assert top.node.attributes["class"] == "more" and "annis" in top.context
    plain = {k: v for k, v in query_for_step(task, []).arguments.items() if k != "reveal_hidden"}
    top = index_for(page).entries[query_elements(page, **plain).refs[0]]
    assert top.node.attributes["class"] == "reply"  # without it: the card's first control


MENU = """<body><button id="open-menu">Menu</button><ul role="menu">
<li><div role="menuitem">Save</div></li>
<li><div role="menuitem" aria-haspopup="true">Playback</div>
  <ul role="menu" style="display:none"><li><div role="menuitem">Prev</div></li>
  <li><div role="menuitem">Stop</div></li></ul></li>
<li><div role="menuitem">Zoom In</div></li></ul></body>"""


def test_a_name_in_a_hidden_submenu_leads_to_the_item_that_opens_it():
    page = distill(page_from_html(MENU))
    task = 'Click the "Menu" button, and then find and click on the item labeled "Prev".'
    refs = query_elements(page, **query_for_step(task, ["[button]  Menu -> CLICK"]).arguments).refs
    assert index_for(page).entries[refs[0]].text == "Playback"
    shown = distill(page_from_html(MENU.replace(' style="display:none"', "")))
    refs = query_elements(shown, **query_for_step(task, ["[button]  Menu -> CLICK"]).arguments).refs
    assert index_for(shown).entries[refs[0]].text == "Prev"  # once open, the item itself


def test_of_several_hidden_copies_the_one_whose_card_the_task_names_opens():
    posts = "".join(
        f'<div class="media"><div class="username">@{handle}</div><div class="controls">'
        '<span class="reply"></span><span class="more"><ul style="display:none">'
        f'<li>Share via DM</li><li>Block @{handle}</li></ul></span></div></div>'
        for handle in ("annis", "tora", "vel"))
    page = distill(page_from_html(f"<body>{posts}</body>"))
    for task, handle in [('For the user @tora, click on the "Block" button.', "tora"),
                         ('For the user @vel, click on the "Share via DM" button.', "vel")]:
        top = index_for(page).entries[
            query_elements(page, **query_for_step(task, []).arguments).refs[0]]
        assert top.node.attributes["class"] == "more" and handle in top.context


def test_a_hidden_text_under_the_whole_page_opens_nothing():
    html = ('<body><button>Save</button><button>Load</button><button>Quit</button>'
            '<button>Help</button><div style="display:none">Prev</div></body>')
    page = distill(page_from_html(html))
    assert hidden_openers(index_for(page), [make_query("Prev")]) == {}


def test_a_link_in_a_hidden_tab_panel_leads_to_the_tab_that_controls_it():
    words = {1: "Vel", 2: "Quis", 3: "Aliquet"}
    tabs = "".join(f'<li role="tab" aria-controls="tabs-{i}">{i}</li>' for i in words)
    panels = "".join(
        f'<div id="tabs-{i}"{"" if i == 1 else " style=display:none"}><p>Lorem ipsum dolor sit '
        f'amet, consectetur between elit.</p><span class="alink">{word}</span></div>'
        for i, word in words.items())
    page = distill(page_from_html(f'<body><ul role="tablist">{tabs}</ul>{panels}</body>'))
    task = 'Switch between the tabs to find and click on the link "Aliquet".'
    top = index_for(page).entries[
        query_elements(page, **query_for_step(task, []).arguments).refs[0]]
    assert top.node.attributes.get("aria-controls") == "tabs-3"
    # a word of the task's other words in hidden prose ("between") opens nothing
    assert hidden_openers(index_for(page), [make_query("between")], labels_only=True) == {}


ICON_MENU = """<body><div id="query">Click the "Menu" button, and then find and click on the item
with the <span class="ui-icon ui-icon-{shown}"></span> icon.</div>
<button id="open-menu">Menu</button><ul role="menu">
<li><div role="menuitem"><span class="ui-icon ui-icon-disk"></span>Save</div></li>
<li><div role="menuitem"><span class="ui-icon ui-icon-caret-1-e"></span>Playback</div>
  <ul role="menu" style="display:none"><li><div role="menuitem"><span class="ui-icon
  ui-icon-stop"></span>Stop</div></li></ul></li>
<li><div role="menuitem"><span class="ui-icon ui-icon-print"></span>Print</div></li></ul></body>"""


@pytest.mark.parametrize(("shown", "first"), [("print", "Print"), ("disk", "Save"),
                                              ("stop", "Playback")])
def test_an_icon_the_task_shows_leads_to_the_item_that_holds_it(shown, first):
    from pipeline.query.icons import icon_name

    assert icon_name({"class": "ui-icon ui-icon-seek-start"}) == "seek-start"
    assert icon_name({"class": "fa fa-lg fa-print"}) == "print"
    assert icon_name({"class": "ui-menu-icon ui-icon ui-icon-caret-1-e"}) == ""
    page = distill(page_from_html(ICON_MENU.format(shown=shown)))
    task = 'Click the "Menu" button, and then find and click on the item with the icon.'
    plan = query_for_step(task, ["[button]  Menu -> CLICK"])
    refs = query_elements(page, **plan.arguments).refs
    assert index_for(page).entries[refs[0]].text == first  # a hidden item: what opens it


def test_a_click_step_does_not_count_a_filled_text_field_as_done():
    # MiniWoB++ click-widget: the textarea to click holds the page's own text
    page = distill(page_from_html(
        '<body><div class="widget"><button data-type="button">8</button></div>'
        '<div class="widget"><textarea data-type="textarea">YPK4g</textarea></div>'
        '<div class="widget"><input type="input" data-type="text" value="oN"></div></body>'))
    plan = query_for_step('Click on a "textarea" widget.', [])
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].tag == "textarea"
    click_text = query_for_step('Click on a "text" widget.', [])
    assert query_elements(page, **click_text.arguments).refs[0] == 3  # the input holding "oN"
    typed = query_for_step('Enter "Kim" into a "text" widget.', [])  # a step that fills:
    assert query_elements(page, **typed.arguments).refs == [2, 3]  # the filled one is done
