"""get_page_summary, get_region and get_element_details over the fixture pages."""

from distill_helpers import page as synthetic_page
from distill_helpers import synthetic_shop
from query_helpers import fixture, store

from pipeline.distill import distill
from pipeline.query import get_element_details, get_page_summary, get_region
from pipeline.render import render_flat


def test_summary_of_the_shop():
    text = get_page_summary(fixture("shop.html"))
    lines = text.splitlines()
    assert lines[0] == 'Page: "Acme Store — All products" file://' + lines[0].split("file://")[1]
    assert "Elements: 427 (217 links, 201 buttons, 9 inputs)" in text
    assert "  NAV:Primary (8 links)" in lines
    assert "  MAIN (200 links, 200 buttons)" in lines
    assert "    REGION:Kitchen (50 links, 50 buttons)" in lines
    assert "    ## Kitchen (REGION:Kitchen, 100 elements; 50 subheadings)" in lines
    assert "Classic Kettle 1" not in text  # the 200 product headings are counted, not listed
    assert len(lines) < 30


def test_summary_scroll_position_and_pages_without_landmarks():
    text = get_page_summary(distill(synthetic_shop(40)))
    assert "Scroll: top of page, 4.4 pages below" in text
    assert "# Products (MAIN, 80 elements)" in text
    bare = get_page_summary(
        distill(__import__("distill_helpers").page("<p>hi</p><button>Go</button>"))
    )
    assert "Landmarks: none (use PAGE as the landmark)" in bare and "Elements: 1 (1 button)" in bare


def test_summary_says_which_text_fields_are_still_empty():
    page = __import__("distill_helpers").page(
        '<div><label for=u>Username</label><input id=u value="kenda"></div>'
        '<div><label for=p>Password</label><input id=p type=password value="secret"></div>'
        '<div><label for=c>Comment</label><textarea id=c></textarea></div>'
        '<input type=checkbox aria-label="Remember me"><button>Login</button>')
    text = get_page_summary(distill(page))
    assert 'Text fields: Username (holds "kenda"), Password (filled), Comment (empty)' in text
    bare = get_page_summary(distill(__import__("distill_helpers").page("<button>Go</button>")))
    assert "Text fields" not in bare


def test_summary_counts_the_text_fields_it_does_not_name():
    text = get_page_summary(fixture("forms.html"))
    assert ("Text fields (6, 4 empty): Email address (empty), Password (filled), Full name "
            "(empty), Email (empty), Choose a password (empty), and 1 more") in text


def test_region_interactive_lists_refs_in_the_shared_format():
    page = fixture("shop.html")
    text = get_region(page, "NAV:Primary")
    lines = text.splitlines()
    assert lines[0] == "NAV:Primary: 8 elements (8 links)"
    flat = render_flat(page).splitlines()
    assert all(line in flat for line in lines[1:]) and len(lines) == 9


def test_region_heading_scope_and_views():
    page = fixture("shop.html")
    outdoor = get_region(page, "MAIN", heading_scope="outdoor")
    assert outdoor.splitlines()[:3] == [
        'MAIN › "Outdoor": 100 elements (50 links, 50 buttons)',
        "## Outdoor",
        "[122]<a href=/p/51>Classic Tent 51</a>",
    ]
    assert outdoor.splitlines()[-1].startswith("… ") and "heading_scope" in outdoor  # capped
    card = get_region(page, "MAIN", "Classic Kettle 1", "text")
    assert card.splitlines()[1:] == ["Classic Kettle 1", "$87.19", "Add to Cart"]
    full = get_region(page, "MAIN", "Classic Kettle 1", "full")
    assert "[22]<a href=/p/1>Classic Kettle 1</a>" in full and "$87.19" in full
    assert "[24]" not in full


def test_region_full_keeps_hierarchy_and_text_has_no_refs():
    page = fixture("forms.html")
    full = get_region(page, "REGION:Sign in", content_type="full")
    assert "[4]<button type=submit id=login-submit>Sign in</button>" in full
    text = get_region(page, "PAGE", content_type="text")
    assert "## Create an account" in text and "[" not in text


def test_region_errors_list_what_exists():
    page = fixture("shop.html")
    assert get_region(page, "SIDEBARX").startswith('Error: no landmark "SIDEBARX". Landmarks')
    assert get_region(page, "MAIN", "zzzz").startswith('Error: no heading matches "zzzz" in MAIN')
    assert "interactive, text, full" in get_region(page, "MAIN", content_type="pictures")


def test_details_of_a_button_in_a_card():
    text = get_element_details(fixture("shop.html"), 23)
    assert text.splitlines()[:2] == ["Element [23]: <button>", "Role: button"]
    assert "Attributes: class=add type=button" in text
    assert "Parents: div.card < div.grid < section < main" in text
    assert "Landmark: MAIN › REGION:Kitchen" in text
    assert "Heading: # All products › ## Kitchen › ### Classic Kettle 1" in text
    assert "Context: Classic Kettle 1, $87.19" in text


def test_details_of_a_select_lists_options_with_the_selected_one():
    text = get_element_details(fixture("select.html"), "[1]")
    options = next(line for line in text.splitlines() if line.startswith("Options"))
    assert options.startswith("Options (50, showing 20; *selected*): Argentina | ")
    assert "*Germany*" in options


def test_details_states_and_bounds():
    page = distill(synthetic_shop(8))
    text = get_element_details(page, 3)
    assert "Bounds: x=20 y=200 w=280 h=200 (in the viewport)" in text
    checkbox = get_element_details(store(), 16)
    assert "States: not checked" in checkbox


def test_details_of_unknown_refs_name_the_range():
    page = store()
    assert get_element_details(page, 999) == (
        "Error: no element [999]; valid indexes are 1..25 (the numbers in [N] of a query result)."
    )
    assert get_element_details(page, "abc").startswith("Error: no element [abc]")


def test_region_text_reads_a_table_row_by_row():
    page = distill(synthetic_page("""<html><body><table>
      <tr><td>First name</td><td>Bibby</td></tr>
      <tr><td>Religion</td><td><b>Sikhism</b></td></tr>
      <tr><td>Profile</td><td><a href="/u/bibby">open</a></td></tr>
    </table><input id="tt"><button>Submit</button></body></html>"""))
    text = get_region(page, "PAGE", content_type="text")
    assert text.splitlines()[1:3] == ["First name | Bibby", "Religion | Sikhism"]
    assert "\nProfile\nopen\n" in text  # a row with a ref prints its cells as before
    interactive = get_region(page, "PAGE")  # the element views are as they were
    assert "Bibby" not in interactive and "[1]<a href=/u/bibby>open</a>" in interactive
