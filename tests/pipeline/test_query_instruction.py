"""Queries built from an instruction alone: operation, value, naming words, role filter."""

from __future__ import annotations

import pytest

from pipeline.distill import distill
from pipeline.html.source import page_from_file, page_from_html
from pipeline.query import index_for, query_elements, similar
from pipeline.query.alike import MAX_CHOICES, similar_target, similar_words
from pipeline.query.instruction import query_for_step, query_from_instruction, task_clauses
from pipeline.report.page_set import FIXTURE_DIR


@pytest.mark.parametrize(
    ("instruction", "op", "value", "weights", "role"),
    [
        ('Enter "Kelly" into the username field', "TYPE", "Kelly", {"username": 1.0}, "textbox"),
        ("Type Kelly in the name box", "TYPE", "Kelly", {"name": 1.0}, "textbox"),
        ("Search for coffee grinders", "TYPE", "coffee grinders", {"search": 1.0}, "textbox"),
        ("Select France from the country dropdown", "SELECT", "France",
         {"france": 1.0, "country": 1.0}, "combobox"),  # the option a custom list shows
        ('Click on the "ok" button.', "CLICK", "", {"ok": 3.0}, None),
        ("Put the Compact Kettle 3 in my basket", "CLICK", "",
         {"compact": 1.0, "kettle": 1.0, "3": 1.0, "basket": 1.0}, None),
    ],
)
def test_operation_value_and_naming_words(instruction, op, value, weights, role):
    plan = query_from_instruction(instruction)
    assert (plan.op, plan.value) == (op, value)
    assert plan.arguments["keyword_weights"] == weights
    assert plan.arguments.get("role") == role


def test_a_plan_runs_against_a_page():
    page = distill(page_from_file(FIXTURE_DIR / "forms.html"))
    plan = query_from_instruction('Type "hunter2" as the password for signing in')
    result = query_elements(page, **plan.arguments)
    top = page.state.nodes[page.node_of(result.refs[0])]
    assert top.attributes["type"] == "password"


def test_an_instruction_without_words_still_gives_a_query():
    plan = query_from_instruction('Click on the "♥♥♥" button.')
    assert plan.arguments["text"] == "♥♥♥" and "keyword_weights" not in plan.arguments


def test_a_task_of_several_actions_gets_no_role_filter():
    plan = query_from_instruction('Enter "Kelly" into the text field and press Submit.')
    assert plan.op == "TYPE" and "role" not in plan.arguments
    assert plan.arguments["keyword_weights"] == {"submit": 1.0}


def test_task_clauses_follow_the_steps():
    assert task_clauses('Enter the username "kim" and the password "x" into the text fields '
                        "and press login.") == [
        'Enter the username "kim"', 'Enter the password "x" into the text fields', "press login"]
    assert task_clauses("Select nb, pKy and click Submit.") == ["Select nb", "Select pKy",
                                                                "click Submit"]
    assert task_clauses('Find the 1st word, type that into the textbox and press "Submit"')[1:] == [
        "type that into the textbox", 'press "Submit"']
    plan = query_for_step('Enter "Kelly" into the text field and press Submit.', ["typed"])
    assert plan.op == "CLICK" and plan.arguments["keyword_weights"] == {"submit": 1.0}
    # a comma before a verb ends a clause that opens with one; scrolling is a step of its own
    assert task_clauses('Scroll down to the bottom of the textarea, enter the name "Cristin" '
                        'then press "Cancel"') == [
        "Scroll down to the bottom of the textarea", 'enter the name "Cristin"', 'press "Cancel"']
    assert task_clauses('For the user @kim, click the "Block" button.') == [
        'For the user @kim, click the "Block" button']  # who, not a step
    assert task_clauses("Scroll the textarea to the bottom then push submit.") == [
        "Scroll the textarea to the bottom", "push submit"]
    # the sending command that ends a task is a step of its own, however it is joined
    assert task_clauses("Scroll the textarea to the bottom of the text hit submit.") == [
        "Scroll the textarea to the bottom of the text", "hit submit"]
    assert task_clauses("Press submit.") == ["Press submit"]


def test_a_step_of_a_longer_task_prefers_the_role_and_searches_the_other_clauses():
    from pipeline.query.instruction import query_for_step

    task = 'Read the note, then type the code into the textbox, then check "Remember" and press "Submit".'
    plan = query_for_step(task, [])  # "Read the note" takes no step: "type the code ..."
    assert "role" not in plan.arguments and plan.arguments["prefer_role"] == "textbox"
    weights = plan.arguments["keyword_weights"]
    assert weights["remember"] == 1.0  # the next clause's quoted name: 3 x 1/2, capped at 1
    assert "submit" not in weights  # nothing done yet: the form is not sent first
    assert weights["note"] == 0.25  # an earlier clause's word
    typed = query_for_step(task, ["[textbox]  -> TYPE: 4217"]).arguments["keyword_weights"]
    assert typed["submit"] == 1.0  # once a step is done: the next clause's quoted name
    page = distill(page_from_html(
        '<body><p>Lorem ipsum dolor</p><input type="text" id="answer">'
        '<button id="subbtn">Submit</button></body>'))
    tags = [page.refs[ref].tag for ref in query_elements(page, **plan.arguments).refs[:2]]
    assert sorted(tags) == ["button", "input"]  # the filter would have hidden the button


def test_before_any_action_the_send_button_of_a_later_clause_is_not_searched():
    from pipeline.query.instruction import query_for_step

    page = distill(page_from_html(
        '<body><svg width="100" height="100"><rect id="shape" x="10" y="10" width="30" '
        'height="30" fill="blue"/></svg><button id="subbtn">Submit</button></body>'))
    plan = query_for_step("Drag the item left then press Submit.", [])
    assert "submit" not in plan.arguments["keyword_weights"]
    first = query_elements(page, **plan.arguments).refs[0]
    assert page.refs[first].tag != "button"  # the shape to drag, not the form's button
    dragged = query_for_step("Drag the item left then press Submit.", ["[rect]   -> DRAG: by -30,0"])
    assert page.refs[query_elements(page, **dragged.arguments).refs[0]].tag == "button"
    # a clause that takes no action ("Select nothing") leaves sending as the first step
    nothing = query_for_step("Select nothing and click Submit.", [])
    assert nothing.arguments["keyword_weights"]["submit"] == 1.0


def test_a_date_is_searched_as_the_day_a_calendar_shows():
    from pipeline.query.dates import date_terms
    from pipeline.query.instruction import query_for_step

    assert date_terms("Select 12/09/2016 as the date") == ["9"]
    plan = query_for_step("Select 12/09/2016 as the date and hit submit.",
                          ["opened", "month", "day"])
    assert plan.arguments["keyword_weights"]["submit"] == 1.0
    page = distill(page_from_html(
        '<body><table><tr><td><a href="#">8</a></td><td><a href="#">9</a></td></tr></table>'
        "<button>Submit</button></body>"))
    first = query_for_step("Select 12/09/2016 as the date and hit submit.", [])
    refs = query_elements(page, **first.arguments).refs
    assert page.state.text_content(page.node_of(refs[0])) == "9"


def test_only_the_governed_value_is_a_value():
    plan = query_from_instruction('Enter the username "kim" and the password "V8WJY"')
    assert plan.value == "kim"
    weights = plan.arguments["keyword_weights"]
    assert weights["v8wjy"] == 1.0  # a search word, not the element's name (3.0)
    named = query_from_instruction('Enter "kim" into the "Login" field')
    assert named.arguments["keyword_weights"]["login"] == 3.0
    reply = query_from_instruction('Reply to them with the text "Leo tempus".')
    assert (reply.op, reply.value) == ("TYPE", "Leo tempus")
    assert "leo" not in reply.arguments.get("keyword_weights", {})


def test_prefer_role_lists_the_role_first_without_a_word_match():
    page = distill(page_from_html('<body><button>Submit</button><input type="text"></body>'))
    result = query_elements(page, keyword_weights={"submit": 0.5}, prefer_role="textbox")
    assert [page.refs[ref].tag for ref in result.refs] == ["input", "button"]


def test_a_clause_that_only_says_what_to_work_out_takes_no_step():
    from pipeline.query.instruction import query_for_step

    task = "Solve the math problem and type your answer into the textbox. Press submit when done."
    first = query_for_step(task, [])
    assert first.op == "TYPE" and first.arguments["prefer_role"] == "textbox"
    assert query_for_step(task, ["typed"]).arguments["keyword_weights"]["submit"] == 1.0
    named = query_for_step("Find the email by Kim and click the trash icon.", [])
    assert named.arguments["keyword_weights"]["kim"] == 1.0  # a name: a step of its own


def test_copying_is_reading_and_pasting_is_typing():
    from pipeline.query.instruction import query_for_step, task_clauses

    task = "Copy the text in the textarea below, paste it into the textbox and press Submit."
    assert task_clauses(task) == ["Copy the text in the textarea below",
                                  "paste it into the textbox", "press Submit"]
    first = query_for_step(task, [])
    assert first.op == "TYPE" and first.arguments["prefer_role"] == "textbox"
    page = distill(page_from_html(
        '<body><textarea id="to-copy">Eget rhoncus</textarea><input type="text" id="answer">'
        '<button>Submit</button></body>'))
    top = query_elements(page, **first.arguments).refs[0]
    assert page.refs[top].attrs["id"] == "answer"


def test_a_date_picked_in_another_clause_stays_a_search_word():
    from pipeline.query.instruction import query_for_step

    picked = query_for_step("Select 12/08/2016 as the date and hit submit.",
                            ["opened", "month", "day"])
    assert picked.arguments["keyword_weights"]["8"] == 0.25
    typed = query_for_step("Enter 02/14/2017 as the date and hit submit.", ["typed"])
    assert "14" not in typed.arguments["keyword_weights"]


CALENDAR = ('<body><input type="text" id="datepicker"><button id="subbtn">Submit</button>'
            '<div class="ui-datepicker-header"><a title="Prev">Prev</a><a title="Next">Next</a>'
            "<span>December 2016</span></div><table><tr>"
            + "".join(f'<td><a href="#">{day}</a></td>' for day in range(1, 32))
            + "</tr></table></body>")


def test_a_picked_date_searches_its_month_and_the_calendar_navigation():
    from pipeline.query.dates import month_terms
    from pipeline.query.instruction import query_for_step

    assert month_terms("Select 09/17/2016 as the date") == ["september", "prev", "previous",
                                                            "next"]
    assert month_terms("Select the 3rd item") == []
    typed = query_from_instruction("Enter 09/17/2016 into the date field")
    assert "prev" not in typed.arguments["keyword_weights"]  # typed: no calendar to move
    page = distill(page_from_html(CALENDAR))
    task = "Select 09/17/2016 as the date and hit submit."
    for moves in (1, 2, 3):  # the calendar shows December: months back before the day
        refs = query_elements(page, **query_for_step(task, [""] * moves).arguments).refs
        assert "Prev" in [page.state.text_content(page.node_of(ref)) for ref in refs[:5]]


def test_an_open_calendar_leads_to_the_wanted_month_then_to_the_day():
    task = "Select 09/17/2016 as the date and hit submit."
    december = distill(page_from_html(CALENDAR))
    september = distill(page_from_html(CALENDAR.replace("December", "September")))
    closed = distill(page_from_html(CALENDAR.split("<div")[0] + "</body>"))
    for moves in (1, 2, 3, 4):  # the step count only guesses the clause: the page decides
        arguments = query_for_step(task, [""] * moves).arguments
        assert arguments["calendar_date"] == "2016-09-17"
        first = [page.state.text_content(page.node_of(query_elements(page, **arguments).refs[0]))
                 for page in (december, september)]
        assert first == ["Prev", "17"]
    after = query_elements(closed, **query_for_step(task, [""] * 4).arguments).refs[0]
    assert closed.state.text_content(closed.node_of(after)) == "Submit"  # no calendar shown
    assert "calendar_date" in query_for_step(task, []).arguments  # the date's own clause
    before = query_for_step("Enter kim as the name and select 09/17/2016 as the date", [])
    assert "calendar_date" not in before.arguments  # a date still to come moves nothing yet


def test_a_month_a_year_away_leads_with_the_date_field_and_its_key():
    from pipeline.agent.observe import step_candidates
    from pipeline.query.dates import year_jump

    assert year_jump("2016-01-14", [(2016, 12)]) == "Control+PageUp"  # 11 months back
    assert year_jump("2017-11-02", [(2016, 12)]) == "Control+PageDown"
    assert year_jump("2016-06-14", [(2016, 12)]) is None  # six clicks of Prev are as short
    assert year_jump("2016-01-14", []) is None  # no calendar shown
    calendar = CALENDAR.replace('id="datepicker"', 'id="datepicker" placeholder="Date:"')
    page = distill(page_from_html(calendar))
    task = "Select 01/14/2016 as the date and hit submit."
    first = step_candidates(task, ["[textbox]   -> CLICK"], page).splitlines()[1]
    assert "datepicker" in first and first.endswith(" — press Control+PageUp: a year back"), first
    near = step_candidates("Select 09/17/2016 as the date and hit submit.",
                           ["[textbox]   -> CLICK"], page).splitlines()[1]
    assert near.startswith("[") and "Prev" in near and "press" not in near, near


def test_a_place_keeps_its_comma_in_a_task():
    from pipeline.query.instruction import task_clauses

    assert task_clauses("Book the shortest flight from: San Jose, CA to: MSP on 12/23/2016") == [
        "Book the shortest flight from: San Jose, CA to: MSP on 12/23/2016"]
    assert task_clauses("Select BQrG, Wbxdr, MH and click Submit.") == [
        "Select BQrG", "Select Wbxdr", "Select MH", "click Submit"]


def test_an_ordinal_is_a_weak_position_word_not_a_name():
    plan = query_from_instruction("Click the 3rd search result")
    assert plan.arguments["keyword_weights"] == {"search": 1.0, "result": 1.0, "3": 0.25}
    page = distill(page_from_html(
        '<body><div><a href="#" class="search-title">Kenda</a></div>'
        '<ul class="pagination"><li><a href="#">2</a></li><li><a href="#">3</a></li></ul>'
        "</body>"))
    refs = query_elements(page, **plan.arguments).refs
    assert page.state.text_content(page.node_of(refs[0])) == "Kenda"  # not the page link "3"


def test_separators_inside_quotes_never_split_the_task():
    from pipeline.query.instruction import task_clauses

    task = 'Find the email by Kim and reply to them with the text "Leo. Tempus, then turpis.".'
    assert task_clauses(task) == [
        "Find the email by Kim", 'reply to them with the text "Leo. Tempus, then turpis."']


def test_what_the_page_shows_as_done_ranks_below_what_is_still_to_do():
    html = ('<body><label>Password <input type="password" id="p1" value="IEBQ"></label>'
            '<label>Verify password <input type="password" id="p2"></label>'
            '<button>Submit</button></body>')
    page = distill(page_from_html(html))
    task = 'Enter the password "IEBQ" into both text fields and press submit.'
    plan = query_for_step(task, ["type"])
    assert plan.arguments["prefer_pending"]
    top = page.state.nodes[page.node_of(query_elements(page, **plan.arguments).refs[0])]
    assert top.attributes["id"] == "p2"  # the empty field, not the filled one nor Submit
    assert not query_for_step("Uncheck every box and press Submit", []).arguments.get(
        "prefer_pending")  # undoing acts on what is done


@pytest.mark.parametrize(
    ("task", "position", "weighs"),
    [
        ('Enter the password "x" into both text fields and press submit.', 1, "both"),
        ('Enter the password "x" into both text fields and press submit.', 2, "submit"),
        ("Click the Retweet button on all posts and then click Submit.", 2, "retweet"),
        ("Click the Retweet button on all posts and then click Submit.", 3, "submit"),
        # whose posts: as many as the page shows (test_all_posts_by_someone_are_theirs_alone)
        ("Click the Retweet button on all posts by @vel and then click Submit.", 5, "retweet"),
    ],
)
def test_both_and_all_give_a_clause_more_than_one_action(task, position, weighs):
    weights = query_for_step(task, [""] * position).arguments["keyword_weights"]
    assert weights[weighs] == max(weights.values())


def test_a_task_that_ends_by_typing_still_has_its_form_to_send():
    task = "Search for saga movies directed by Lloyd from year 1991."
    weights = query_for_step(task, ["type", "type", "type"]).arguments["keyword_weights"]
    assert weights["submit"] == weights["search"] / 4  # weak: the fields come first
    html = ('<body><label>Genre <input type="text" value="saga"></label>'
            '<label>Director <input type="text" value="Lloyd"></label>'
            '<div class="btn">Submit</div></body>')
    page = distill(page_from_html(html))
    top = query_elements(page, **query_for_step(task, ["type", "type"]).arguments).refs[0]
    assert page.state.text_content(page.node_of(top)) == "Submit"  # both fields are done
    assert "submit" not in query_for_step("Enter the code and click OK", ["type"]).arguments[
        "keyword_weights"]  # it names its own last click


def test_a_date_picked_from_a_calendar_takes_a_few_actions_before_the_next_clause():
    task = "Select 09/17/2016 as the date and hit submit."
    for taken in range(3):  # open the calendar, page to September, pick the 17th
        weights = query_for_step(task, [""] * taken).arguments["keyword_weights"]
        assert weights["17"] == max(weights.values()), taken
    weights = query_for_step(task, [""] * 3).arguments["keyword_weights"]
    assert weights["submit"] == max(weights.values())


SPINNER = ('<body><p><label for="spinner">Select a value:</label><span class="ui-spinner">'
           '<input id="spinner" role="spinbutton" aria-valuenow="{now}" value="{now}">'
           '<a role="button" class="ui-spinner-up"></a><a role="button" class="ui-spinner-down">'
           '</a></span></p><button id="subbtn">Submit</button></body>')


@pytest.mark.parametrize(("now", "first"), [("0", "ui-spinner-up"), ("-2", "ui-spinner-down"),
                                            ("4", None), ("9", "ui-spinner-down")])
def test_a_spinner_is_stepped_toward_the_tasks_number(now, first):
    from pipeline.query.spinners import spin_value

    assert spin_value("Select -6 with the spinner") == "-6"
    assert spin_value("Select 12/09/2016 and the 3rd item") is None
    task = "Select -4 with the spinner and hit Submit." if now == "-2" else (
        "Select 4 with the spinner and hit Submit.")
    page = distill(page_from_html(SPINNER.format(now=now)))
    for moves in (0, 1, 3):
        top = query_elements(page, **query_for_step(task, [""] * moves).arguments).refs[0]
        node = page.state.nodes[page.node_of(top)]
        if first is None:  # it holds the number: the task moves on
            assert moves == 0 or node.tag == "button"
        else:
            assert node.attributes.get("class") == first


def test_an_ordinal_picks_that_one_of_the_results_alike():
    results = "".join(f'<div><a href="#" class="search-title">{name}</a><div>{name}.com</div>'
                      f"<p>About {name}</p></div>"
                      for name in ("Jess", "Michel", "Kenda", "Dannie"))
    page = distill(page_from_html(
        '<body><input id="search-text"><button id="search">Search</button>'
        f'{results}<ul class="pagination"><li><a href="#">2</a></li><li><a href="#">3</a></li>'
        "</ul></body>"))
    task = 'Use the textbox to enter "Kenda" and press "Search", then click the 3rd search result.'
    plan = query_for_step(task, ["typed", "searched"])
    assert plan.arguments["ordinal"] == 3
    top = query_elements(page, **plan.arguments).refs[0]
    assert page.state.text_content(page.node_of(top)) == "Kenda"
    drag = query_from_instruction("Drag Marji to the 2nd position.")
    assert "ordinal" not in drag.arguments  # where it goes, not which one


def test_a_skipped_item_is_still_planned_after_the_ones_done_out_of_order():
    task = "Select Yf, 59, uaOYVOt, zlE and click Submit."
    history = ["[checkbox]  Yf -> CLICK", "[checkbox]  uaOYVOt -> CLICK"]  # 59 skipped
    weights = query_for_step(task, history).arguments["keyword_weights"]
    assert weights["59"] == max(weights.values())
    again = history + ["[checkbox]  uaOYVOt -> CLICK"]  # ticked twice: 59 is still to do
    weights = query_for_step(task, again).arguments["keyword_weights"]
    assert weights["59"] == max(weights.values())
    done = history + ["[checkbox]  59 -> CLICK", "[checkbox]  zlE -> CLICK"]
    weights = query_for_step(task, done).arguments["keyword_weights"]
    assert weights["submit"] == max(weights.values())


def test_lines_that_name_no_clause_count_as_the_next_steps():
    task = 'Enter the username "kenda" and the password "x1" and press login.'
    unnamed = query_for_step(task, ["[textbox]  Username -> TYPE: kenda", "[key]  Tab -> PRESS"])
    counted = query_for_step(task, ["", ""])
    assert unnamed.arguments == counted.arguments  # the login clause either way
    assert unnamed.arguments["keyword_weights"]["login"] == 1.0
    wrong_field = query_for_step(task, ["[textbox]  Password -> TYPE: x1"])  # the second first
    assert wrong_field.value == "kenda"


def test_a_quoted_reply_after_a_comma_is_typed_not_searched():
    plan = query_from_instruction('reply to Angil, "Vitae."')
    assert (plan.op, plan.value) == ("TYPE", "Vitae.")
    assert set(plan.arguments["keyword_weights"]) == {"reply", "angil"}
    assert "role" not in plan.arguments  # a goal of several steps: the email is opened first
    html = ('<body><div class="email"><b>Deloria</b> Congue dui vitae.</div>'
            '<div class="email"><b>Angil</b> Lorem ipsum.</div></body>')
    page = distill(page_from_html(html))
    top = query_elements(page, **query_for_step('reply to Angil, "Vitae."', []).arguments).refs[0]
    assert "Angil" in page.state.text_content(page.node_of(top))


def test_a_one_clause_task_moves_on_from_the_parts_the_history_served():
    task = ("Book the shortest one-way flight from: Abilene, TX to: St Petersburg/Clearwater, FL "
            "on 10/15/2016.")
    history = ["[textbox]  From: -> TYPE: Abilene, TX", "[listitem]  Abilene, TX (ABI) -> CLICK"]
    weights = query_for_step(task, history).arguments["keyword_weights"]
    assert weights["abilene"] == weights["tx"] == 0.25  # typed and picked
    assert weights["petersburg"] == weights["fl"] == 1.0  # still to type
    typed = query_for_step(task, history[:1]).arguments["keyword_weights"]
    assert typed["abilene"] == 1.0  # typed only: its suggestion is still to pick
    assert weights["15"] == 1.0  # a date's day stays, whatever was clicked
    html = ('<body><h2>Book Your One-Way Flight</h2>'  # book-flight's form, as MiniWoB++ writes it
            '<input class="flight-input" placeholder="From:" value="Abilene, TX (ABI)">'
            '<input class="flight-input" placeholder="To:"'
            ' value="St Petersburg/Clearwater, FL (PIE)">'
            '<label>Departure Date <input class="flight-input" id="datepicker"></label>'
            '<button>Search</button></body>')
    page = distill(page_from_html(html))
    served = history + ["[textbox]  To: -> TYPE: St Petersburg",
                         "[listitem]  St Petersburg/Clearwater, FL (PIE) -> CLICK"]
    top = query_elements(page, **query_for_step(task, served).arguments).refs[0]
    assert page.state.nodes[page.node_of(top)].attributes["id"] == "datepicker"
    # the day picked: the date is done too, and the filled form is sent
    picked = served + ["[textbox]  Departure Date -> CLICK", "[link]  15 -> CLICK"]
    filled = html.replace('id="datepicker"', 'id="datepicker" value="10/15/2016"')
    page = distill(page_from_html(filled.replace("<button>", '<button id="search">')))
    top = query_elements(page, **query_for_step(task, picked).arguments).refs[0]
    assert page.state.text_content(page.node_of(top)) == "Search"


def test_a_form_whose_clauses_are_all_done_is_sent():
    # MiniWoB++ form-sequence-2: the task never names the Submit button
    task = 'Select the 1st radio button and type the number "-5" into the 2nd textbox.'
    html = ('<body><div><input type="radio" name="r" value="1" checked>'
            '<input type="radio" name="r" value="2"><input type="radio" name="r" value="3"></div>'
            '<div><input type="text" id="input-1"><input type="text" id="input-2" value="-5">'
            '<input type="text" id="input-3"></div><div><button>Submit</button></div></body>')
    page = distill(page_from_html(html))
    done = ["[radio]   -> CLICK", "[textbox]   -> TYPE: -5"]
    plan = query_for_step(task, done)
    assert "ordinal" not in plan.arguments and "prefer_role" not in plan.arguments
    top = query_elements(page, **plan.arguments).refs[0]
    assert page.state.text_content(page.node_of(top)) == "Submit"
    assert "ordinal" in query_for_step(task, done[:1]).arguments  # the textbox is still to do


def test_a_name_with_and_is_one_item_not_two_clauses():
    task = "Select Trinidad and Tobago from the scroll list and click Submit."
    assert task_clauses(task) == ["Select Trinidad and Tobago from the scroll list",
                                  "click Submit"]
    assert task_clauses("Select Kim and Press Submit") == ["Select Kim", "Press Submit"]
    chosen = ["[listbox]  Trinidad and Tobago Anguilla Chad -> SELECT: Trinidad and Tobago"]
    weights = query_for_step(task, chosen).arguments["keyword_weights"]
    assert weights["submit"] == max(weights.values()) and "and" not in weights


def test_a_control_named_by_its_action_is_found_by_its_icon():
    # MiniWoB++ email-inbox-nl-turk: "Delete" names the <span class="trash"> of the row
    html = ('<body><div class="email"><div>Lynette</div><span class="trash"></span>'
            '<span class="star"></span></div><div class="email"><div>Kim</div>'
            '<span class="trash"></span><span class="star"></span></div></body>')
    page = distill(page_from_html(html))
    plan = query_from_instruction("Please delete Lynette's emails.")
    assert plan.arguments["keyword_weights"]["trash"] == 1.0
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].attributes["class"] == "trash"
    assert "Lynette" in page.state.text_content(page.state.nodes[top].parent)


def social_feed(liked: set[int]) -> str:
    """MiniWoB++ social-media-all: posts by their authors, each with its own Like."""
    authors, bodies = ["@duis", "@nullam", "@duis"], ["Ut enim.", "Nisl.", "Eros."]
    posts = "".join(
        f'<div class="media"><span class="username">{author}</span><div class="body">{body}'
        f'</div><span class="{"like active" if n in liked else "like"}"></span>'
        f'<span class="share"></span></div>'
        for n, (author, body) in enumerate(zip(authors, bodies, strict=True)))
    return f'<body><div id="area">{posts}</div><button>Submit</button></body>'


def test_all_posts_by_someone_are_theirs_alone():
    task = 'Click the "Like" button on all posts by @duis and then click Submit.'
    plan = query_for_step(task, [])
    assert plan.arguments["qualifier"] == "@duis" and "all" not in plan.arguments[
        "keyword_weights"]
    page = distill(page_from_html(social_feed(set())))
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert "@duis" in page.state.text_content(page.state.nodes[top].parent)
    # both of @duis's posts liked: the third planned action is Submit, not @nullam's Like
    page = distill(page_from_html(social_feed({0, 2})))
    liked = ["[span]  Ut enim. -> CLICK", "[span]  Eros. -> CLICK"]
    top = query_elements(page, **query_for_step(task, liked).arguments).refs[0]
    assert page.state.text_content(page.node_of(top)) == "Submit"


@pytest.mark.parametrize(("task", "recipient"), [
    ("Look for the email that Bobine wrote and forward it to Bevvy", "Bevvy"),
    ("Forward to Cathrine the e-mail from Evy.", "Cathrine"),
    ("Give Bobine the message you received from Cora,", "Bobine"),
    ("Send Bettine the information Lidia sent to you.", "Bettine"),
    ("Send Astrix Sarette's electronic mail.", "Astrix"),
    ("Amargo is waiting for the email by Lissie.", "Amargo"),
    ("Yevette wants his or her message to be sent to Arlyne.", "Arlyne"),
    ("Fallon wants the email Arabele sent to you.", "Fallon"),
    ("Kim needs the message from Lee.", "Kim"),
])
def test_a_recipient_is_typed_into_the_to_field(task, recipient):
    # MiniWoB++ email-inbox-forward-nl(-turk): the forward form, its To field still empty
    form = ('<body><div id="forward"><span id="close-forward"></span>'
            '<span id="send-forward"></span><label>to: <input type="text" '
            'class="forward-sender"{}></label><label>subject: <input type="text" '
            'value="Lacus. At sit."></label></div></body>')
    history = ["[div]  Cora In id. -> CLICK", "[span]  Forward -> CLICK"]  # the email opened
    plan = query_for_step(task, history)
    assert (plan.op, plan.value) == ("TYPE", recipient)
    page = distill(page_from_html(form.format("")))
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].attributes["class"] == "forward-sender"
    typed = [*history, f"[textbox]  to: -> TYPE: {recipient}"]
    page = distill(page_from_html(form.format(f' value="{recipient}"')))
    top = page.node_of(query_elements(page, **query_for_step(task, typed).arguments).refs[0])
    assert page.state.nodes[top].attributes["id"] == "send-forward"
    assert "role" not in query_for_step(task, []).arguments  # the inbox has no To field yet


def drawing(shapes: str) -> str:
    """MiniWoB++ drag-shapes: coloured SVG shapes, the box they go into, and Submit."""
    return (f'<body><svg width="160" height="160">{shapes}</svg>'
            '<button>Submit</button></body>')


def test_a_shape_is_found_by_what_it_is_drawn_as():
    html = drawing('<polygon class="shape" points="7,37 22,7 37,37" fill="yellow"/>'
                   '<rect class="shape" x="50" y="50" width="20" height="20" fill="blue"/>'
                   '<circle class="shape" cx="90" cy="90" r="10" fill="red"/>')
    page = distill(page_from_html(html))
    for task, tag in [("Click the circle.", "circle"), ("Click the triangle.", "polygon"),
                      ("Click the square.", "rect")]:
        top = page.node_of(query_elements(page, **query_for_step(task, []).arguments).refs[0])
        assert page.state.nodes[top].tag == tag, task


def test_where_a_dragged_shape_goes_does_not_name_it():
    # the black box the circles go into is a rect painted black: "black" names the box
    html = drawing('<rect class="box" x="0" y="0" width="60" height="40" fill="black"/>'
                   '<polygon class="shape" points="7,77 22,47 37,77" fill="yellow"/>'
                   '<circle class="shape" cx="90" cy="90" r="10" fill="red"/>')
    page = distill(page_from_html(html))
    plan = query_for_step("Drag all circles into the black box.", [])
    assert plan.arguments["keyword_weights"]["black"] < plan.arguments["keyword_weights"][
        "circles"]
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].tag == "circle"


def test_the_suggestion_that_shows_the_described_word_is_picked():
    # MiniWoB++ use-autocomplete: the start was typed, the suggestions list shows the item
    task = 'Type an item that starts with "An" and ends with "ica".'
    assert task_clauses(task) == [task.rstrip(".")]  # "and ends with": one clause
    html = ('<body><label for="tags">Tags:</label><input id="tags" value="An">'
            '<ul class="ui-autocomplete" role="listbox"><li role="option">Andorra</li>'
            '<li role="option">Antarctica</li></ul><button>Submit</button></body>')
    page = distill(page_from_html(html))
    plan = query_for_step(task, ["[textbox]  Tags: -> TYPE: An"])
    assert (plan.op, plan.value) == ("TYPE", "An")
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.text_content(top) == "Antarctica"
    before = distill(page_from_html(html.replace(' value="An"', "").split("<ul")[0]))
    first = query_for_step(task, [])
    top = before.node_of(query_elements(before, **first.arguments).refs[0])
    assert before.state.nodes[top].tag == "input"  # nothing shows the word yet: the field


def movie_form(labels: list[str], filled: dict[str, str] | None = None) -> str:
    """MiniWoB++ multi-layouts: labelled text fields in the page's order, and Search."""
    filled = filled or {}
    rows = "".join(f'<label for="f{n}">{label}</label><input type="text" id="f{n}"'
                   f'{f" value={chr(34)}{filled[label]}{chr(34)}" if label in filled else ""}>'
                   for n, label in enumerate(labels))
    return f"<body><form>{rows}<button>Search</button></form></body>"


@pytest.mark.parametrize(
    ("labels", "filled", "expected"),
    [
        (["Director", "Genre", "Year"], {}, "Genre"),  # "action": by elimination
        (["Released Date", "Director Name", "Movie Genre"], {}, "Movie Genre"),  # "movies"
        (["Year", "Director", "Genre"], {"Genre": "action"}, "Director"),  # "directed by"
    ],
)
def test_values_said_in_words_fill_the_fields_in_the_task_order(labels, filled, expected):
    task = "Look for action movies directed by Bowen from year 1998."
    page = distill(page_from_html(movie_form(labels, filled)))
    plan = query_for_step(task, [])
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].name == expected


def rows_form(values: dict[str, str]) -> str:
    """MiniWoB++ multi-layouts' second layout: rows of a text and a field (no label), Search."""
    rows = "".join(f'<div class="row"><div>{label}</div><input type="text"'
                   f'{f" value={chr(34)}{value}{chr(34)}" if value else ""}></div>'
                   for label, value in values.items())
    return f'<body><div id="area">{rows}<div><button type="button">Search</button></div></div>'


def test_the_last_empty_field_the_task_names_leads_before_the_form_is_sent():
    # after two of three values Year is still empty: it comes before Search, which the task
    # names too ("Search for ...")
    task = "Search for historical movies directed by Mcknight from year 1980."
    history = ["[textbox]  Genre -> TYPE: historical",
               "[textbox]  Director Name -> TYPE: Mcknight"]
    filled = {"Genre": "historical", "Director Name": "Mcknight"}
    page = distill(page_from_html(rows_form({**filled, "Year": ""})))
    top = query_elements(page, **query_for_step(task, history).arguments).refs[0]
    assert page.state.nodes[page.node_of(top)].tag == "input"
    done = distill(page_from_html(rows_form({**filled, "Year": "1980"})))
    typed = [*history, "[textbox]  Year -> TYPE: 1980"]
    top = query_elements(done, **query_for_step(task, typed).arguments).refs[0]
    assert done.state.nodes[done.node_of(top)].tag == "button"


def test_a_date_field_left_empty_last_does_not_jump_ahead_of_the_suggestion():
    # book-flight: "MOT" typed into To, its autocomplete shows "Minot, ND (MOT)"; the date waits
    task = "Book the cheapest one-way flight from: Anvik, AK to: MOT on 12/23/2016."
    html = (rows_form({"From:": "Anvik, AK", "To:": "MOT", "Departure Date": ""})
            + '<ul><li onclick="pick()">Minot, ND (MOT)</li></ul>')
    page = distill(page_from_html(html))
    history = ["[textbox]  From: -> TYPE: Anvik, AK", "[textbox]  To: -> TYPE: MOT"]
    top = query_elements(page, **query_for_step(task, history).arguments).refs[0]
    assert page.state.nodes[page.node_of(top)].tag == "li"


def test_fields_are_left_in_order_while_one_of_them_pairs_with_no_word():
    # book-flight: "from:"/"to:" pair with no content word; the date field must not jump ahead
    task = "Book the cheapest one-way flight from: Anvik, AK to: MOT on 12/23/2016."
    page = distill(page_from_html(movie_form(["From:", "To:", "Departure Date"])))
    top = page.node_of(query_elements(page, **query_for_step(task, []).arguments).refs[0])
    assert page.state.nodes[top].name != "Departure Date"


def test_a_task_without_words_pairs_no_field():
    page = distill(page_from_html(movie_form(["Director", "Year"])))
    for task in ("", "♥♥♥"):
        assert query_elements(page, keyword_weights={"x": 1.0}, pair_fields=task).ok


def test_a_scroll_clause_leads_with_what_scrolls_though_it_holds_text():
    # scroll-text-2: the text area holds the page's text (not typed: not done), and it scrolls
    html = ('<body><button id="subbtn">Submit</button><textarea id="text-area">'
            + "Lorem ipsum dolor. " * 40 + "</textarea></body>")
    state = page_from_html(html)
    area = next(node for node in state.nodes if node.tag == "textarea")
    area.value = state.text_content(area.id)
    area.bounds, area.scroll = (0.0, 40.0, 200.0, 80.0), (0.0, 0.0, 200.0, 600.0)
    area.styles["overflow"] = "auto"
    page = distill(state)
    task = "Scroll the textarea to the bottom of the text then push submit."
    refs = query_elements(page, **query_for_step(task, []).arguments).refs
    assert page.state.nodes[page.node_of(refs[0])].tag == "textarea"
    scrolled = ["[textbox]  Lorem ipsum dolor. Lorem -> SCROLL: down:end"]
    refs = query_elements(page, **query_for_step(task, scrolled).arguments).refs
    assert page.state.nodes[page.node_of(refs[0])].tag == "button"


def test_a_textarea_is_found_by_what_a_task_calls_it():
    # scroll-text-2 as a recorded dump shows it: no scroll geometry, the tag names it
    html = ('<body><div id="area"><button id="subbtn">Submit</button><textarea id="text-area">'
            + "Lorem ipsum. " * 30 + "</textarea></div></body>")
    page = distill(page_from_html(html))
    task = "Scroll the textarea to the bottom of the text then push submit."
    top = query_elements(page, **query_for_step(task, []).arguments).refs[0]
    assert page.state.nodes[page.node_of(top)].tag == "textarea"


def test_a_resize_handle_says_which_size_it_changes():
    # resize-textarea: jQuery UI's handles differ by their edge's class alone
    handles = "".join(f'<div class="ui-resizable-handle ui-resizable-{edge}"></div>'
                      for edge in ("e", "s", "se"))
    page = distill(page_from_html(f'<body><div class="ui-wrapper"><textarea id="tt"></textarea>'
                                  f'{handles}</div><button>Submit</button></body>'))
    for size, edge in (("height", "s"), ("width", "e")):
        task = f"Resize the textarea so that the {size} is smaller than its initial size."
        result = query_elements(page, **query_for_step(task, []).arguments)
        top = page.node_of(result.refs[0])
        assert page.state.nodes[top].attributes["class"].endswith(f"-{edge}")
        assert f"<div resizes={size} />" in result.text.splitlines()[1]


def test_a_shape_already_in_the_box_is_done():
    # drag-shapes after one drag: the first circle lies inside the outline box (fill none)
    html = ('<body><svg width="160" height="160">'
            '<rect id="shape-container" x="0" y="0" width="80" height="50" fill="none"'
            ' stroke="black"/>'
            '<circle class="shape" cx="20" cy="20" r="8" fill="red"/>'
            '<circle class="shape" cx="120" cy="120" r="8" fill="blue"/>'
            '</svg><button>Submit</button></body>')
    state = page_from_html(html)
    for node in state.nodes:  # the boxes a live capture measures
        if node.tag == "rect":
            node.bounds = (0.0, 0.0, 80.0, 50.0)
        elif node.tag == "circle":
            cx = float(node.attributes["cx"])
            node.bounds = (cx - 8, cx - 8, 16.0, 16.0)
    page = distill(state)
    plan = query_for_step("Drag all circles into the box.", [])
    top = page.node_of(query_elements(page, **plan.arguments).refs[0])
    assert page.state.nodes[top].attributes["fill"] == "blue"


def test_once_every_shape_is_in_a_box_the_unnamed_submit_comes_before_them():
    # drag-shapes-2 after its five drags: the task names no Submit, so it is among the elements
    # no word matched -- and there the ones still to do come first
    html = ('<body><svg width="160" height="160">'
            '<rect id="shape-container" x="0" y="0" width="70" height="50" fill="none"/>'
            '<rect id="shape-container" x="80" y="0" width="70" height="50" fill="none"/>'
            + "".join(f'<circle cx="{cx}" cy="20" r="8" fill="{fill}" style="cursor:pointer"/>'
                      for cx, fill in [(20, "black"), (50, "red"), (100, "blue"), (130, "red")])
            + '</svg><button>Submit</button></body>')
    state = page_from_html(html)
    for node in state.nodes:
        if node.tag == "rect":
            node.bounds = (float(node.attributes["x"]), 0.0, 70.0, 50.0)
        elif node.tag == "circle":
            cx = float(node.attributes["cx"])
            node.bounds = (cx - 8, 12.0, 16.0, 16.0)
    page = distill(state)
    task = "Drag all black shapes into the left box, and everything else into the right box."
    refs = query_elements(page, **query_for_step(task, [""] * 4).arguments).refs
    tags = [page.state.nodes[page.node_of(ref)].tag for ref in refs]
    assert tags.index("button") < tags.index("circle", 1)  # before the unmatched done circles


def test_words_similar_to_the_asked_ones_lead_by_meaning():
    # click-checkboxes-soft: the asked words never show on the page, their synonyms do
    task = "Select words similar to incorrect, tragic and click Submit."
    assert similar_words(task) == ("incorrect", "tragic")
    assert similar_words("Pick the synonyms of big or small.") == ("big", "small")
    assert similar_words("Select Darya and click Submit.") == ()

    def page(ticked: set[str]):
        boxes = "".join(f'<label><input type="checkbox"{" checked" if w in ticked else ""}>'
                        f"{w}</label>" for w in ["water", "sad", "chair", "wrong", "blue"])
        return distill(page_from_html(f"<body>{boxes}<button>Submit</button></body>"))

    def top(ticked: set[str], history: list[str]) -> str:
        shown = page(ticked)
        ref = query_elements(shown, **query_for_step(task, history).arguments).refs[0]
        return index_for(shown).entries[ref].label

    assert top(set(), []) == "wrong"
    assert top({"wrong"}, ["[checkbox]  wrong -> CLICK"]) == "sad"
    done = ["[checkbox]  wrong -> CLICK", "[checkbox]  sad -> CLICK"]
    assert "similar" not in query_for_step(task, done).arguments  # now the Submit clause
    assert top({"wrong", "sad"}, done) == "submit"
    many = distill(page_from_html("<body>" + "".join(
        f'<label><input type="checkbox">item{i}</label>' for i in range(MAX_CHOICES + 1))
        + "</body>"))
    assert similar_target(index_for(many), ("incorrect",)) is None  # too many to walk: words


def test_a_page_of_many_choices_matches_the_most_similar_pairs_first(monkeypatch):
    boxes = ["water", "sad", "chair", "wrong", "blue", "funny"]
    exhaustive = similar.boxes_for(["incorrect", "tragic", "humorous"], boxes)
    monkeypatch.setattr(similar, "EXHAUSTIVE", 1)  # as on a page with dozens of choices
    assert similar.boxes_for(["incorrect", "tragic", "humorous"], boxes) == exhaustive == [
        "wrong", "sad", "funny"]


def test_a_passive_delete_finds_the_trash_icon_too():
    plan = query_from_instruction("Bobine's electronic mail should be deleted from the inbox.")
    assert plan.arguments["keyword_weights"]["trash"] == 1.0


def test_a_message_to_someone_is_typed_into_their_emails_reply():
    task = 'E-mail Kiley the message, "Amet, a. Malesuada. Nunc."'
    plan = query_for_step(task, [])
    assert (plan.op, plan.value) == ("TYPE", "Amet, a. Malesuada. Nunc.")
    assert "role" not in plan.arguments  # the inbox has no text box yet: never a filter
    assert plan.arguments["keyword_weights"]["reply"] == 1.0
    html = ('<body><div class="email-header"><span id="close-email"></span>'
            '<span class="email-sender">Kiley</span></div><div class="email-body">Cras.</div>'
            '<span class="email-reply">Reply</span><span class="email-forward">Forward</span>'
            '</body>')
    page = distill(page_from_html(html))
    history = ["[div]  Kiley Cras turpis. -> CLICK"]
    top = page.node_of(query_elements(page, **query_for_step(task, history).arguments).refs[0])
    assert page.state.text_content(top) == "Reply"


def test_a_scroll_does_no_clause_unless_the_task_asks_for_one():
    """Scrolling a text area to read its end shows more of the page: the clause after it is
    still to do; a task that asks to scroll counts the scroll as its clause."""
    task = "Find the last word in the text area, enter it into the text field and hit Submit."
    scrolled = ["[textbox]  Faucibus gravida -> SCROLL: down:end"]
    assert query_for_step(task, scrolled).arguments["prefer_role"] == "textbox"  # enter it
    scroll_task = "Scroll the text area to the bottom of the text and press Submit."
    assert query_for_step(scroll_task, scrolled).arguments["keyword_weights"]["submit"] >= 1.0


def test_a_number_set_with_a_named_control_names_the_control_not_an_id():
    task = "Choose 2 with the slider, click the 1st checkbox, then hit Submit."
    plan = query_for_step(task, [])
    assert plan.value == "2" and "2" not in plan.arguments["keyword_weights"]
    boxes = "".join(f'<input type="checkbox" id="checkbox-{i}">' for i in (1, 2, 3))
    page = distill(page_from_html(
        f'<body><div id="slider" class="ui-slider" tabindex="0"></div>{boxes}'
        '<button id="subbtn">Submit</button></body>'))
    top = query_elements(page, **plan.arguments).refs[0]  # not checkbox-2 for the "2"
    assert page.state.nodes[page.node_of(top)].attributes.get("id") == "slider"
    assert "12" in query_for_step("Select 12 from the list", []).arguments["keyword_weights"]
