"""Progress the model can see: text fields say ``empty`` or their value in every listing, the
user turn says what the last action changed (or that it changed nothing), and the history names
a field by its label. Hand-built pages with backend ids, as a live capture has them."""

from __future__ import annotations

from dataclasses import replace

from distill_helpers import page as html_page

from pipeline.agent.conversation import opening
from pipeline.agent.history import history_line
from pipeline.agent.observe import observe
from pipeline.agent.progress import PreviousStep, changed_nothing, effect_line
from pipeline.distill import distill
from pipeline.model.token_count import count_tokens
from pipeline.page_state import PageState
from pipeline.query import query_elements
from pipeline.render import render_flat
from pipeline.tools import make_call

LOGIN = (  # MiniWoB++ login-user's form: bare labels, then the fields
    '<body><div id="form"><p><label>Username</label><input type="text" id="username"{user}></p>'
    '<p><label>Password</label><input type="password" id="pw"{secret}></p>'
    '<p><input type="checkbox" id="remember"><textarea id="note"{note}></textarea></p>'
    '<button id="subbtn">Login</button></div>{extra}<p>Time left: {clock} / 60sec</p></body>'
)


def live_page(user: str = "", secret: str = "", note: str = "", extra: str = "",
              clock: int = 60, url: str = "https://login.test/") -> PageState:
    """The login form as a capture sees it: values as live facts, stable backend ids."""
    def value(v: str) -> str:
        return f' data-value="{v}"' if v else ""
    state = html_page(LOGIN.format(user=value(user), secret=value(secret), note=value(note),
                                   extra=extra, clock=clock))
    state = replace(state, url=url, title="Login")
    for node in state.nodes:
        node.backend_id = 1000 + node.id
    return state


def ref_of(page, element_id: str) -> int:
    return next(ref for ref, node in page.refs.items() if node.attrs.get("id") == element_id)


def test_text_fields_say_empty_or_their_value_and_passwords_only_filled():
    page = distill(live_page(user="kenda", secret="hunter2"))
    flat = render_flat(page)
    assert '<input type=text id=username value=kenda />' in flat
    assert '<input type=password id=pw value=••• />' in flat
    assert "hunter2" not in flat
    assert '<textarea id=note empty />' in flat
    assert "<input type=checkbox id=remember checked=false />" in flat  # no field to fill
    empty = distill(live_page())
    listed = query_elements(empty, role="textbox").text
    assert '<input type=text id=username empty />' in listed
    assert '<input type=password id=pw empty />' in listed
    assert "empty" in observe(empty, "full").text


def test_typing_reports_the_field_and_its_new_value():
    before, after = distill(live_page()), distill(live_page(user="kenda"))
    call = make_call("type", index=ref_of(before, "username"), text="kenda")
    line = effect_line(PreviousStep(before, call), after)
    user = ref_of(after, "username")
    assert line == f"Last action's effect: [{user}] Username now holds \"kenda\"; nothing else changed."


def test_a_password_is_reported_filled_without_its_value():
    before, after = distill(live_page(user="kenda")), distill(live_page("kenda", "hunter2"))
    call = make_call("type", index=ref_of(before, "pw"), text="hunter2")
    line = effect_line(PreviousStep(before, call), after)
    assert "Password is filled (hidden)" in line
    assert "hunter2" not in line


def test_an_action_that_changes_nothing_says_so():
    before, after = distill(live_page()), distill(live_page(clock=57))  # the clock ticked
    click = make_call("click", index=ref_of(before, "subbtn"))
    assert effect_line(PreviousStep(before, click), after) == (
        "Last action's effect: that click changed nothing on the page.")
    typed = make_call("type", index=ref_of(before, "username"), text="")
    assert "that typing changed nothing" in effect_line(PreviousStep(before, typed), after)


def test_a_click_that_only_restyles_its_button_as_chosen_is_an_effect():
    # MiniWoB++ odd-or-even marks the answer by a class alone: not "changed nothing"
    quiz = '<button id="odd" class="odd{}">Odd</button>'
    before = distill(live_page(extra=quiz.format("")))
    after = distill(live_page(extra=quiz.format(" selected")))
    click = make_call("click", index=ref_of(before, "odd"))
    assert effect_line(PreviousStep(before, click), after) == (
        f"Last action's effect: [{ref_of(after, 'odd')}] Odd changed: <button id=odd "
        "selected=true>Odd</button>; nothing else changed.")


def test_a_number_the_click_drew_is_an_effect_while_the_clock_ticking_is_not():
    # MiniWoB++ generate-number: each click of Generate draws a new number
    drawn = '<button id="generate">Generate</button><p>{}</p>'
    before = distill(live_page(extra=drawn.format(9)))
    after = distill(live_page(extra=drawn.format(3), clock=57))
    click = make_call("click", index=ref_of(before, "generate"))
    assert effect_line(PreviousStep(before, click), after) == (
        "Last action's effect: 1 new: 3; 1 gone.")


def test_a_blinking_block_cursor_is_no_effect_while_a_typed_command_is():
    # MiniWoB++ terminal: the prompt's cursor "█" blinks whether or not a click focused it
    prompt = '<div id="terminal" onclick="1"><span>user$ {}</span></div>'
    before = distill(live_page(extra=prompt.format("█")))
    click = make_call("click", index=ref_of(before, "terminal"))
    blinked = distill(live_page(extra=prompt.format("")))
    assert effect_line(PreviousStep(before, click), blinked) == (
        "Last action's effect: that click changed nothing on the page.")
    typed = distill(live_page(extra=prompt.format("ls █")))
    assert "changed nothing" not in effect_line(PreviousStep(before, click), typed)


def test_typing_into_a_terminal_reports_its_end_not_an_empty_field():
    # the keys go to a hidden field the click focused; the terminal itself holds no value, and
    # "is still empty" sent a student typing "help" again and again
    banner = "Welcome! Type help for a list of available commands. Last login: Mon Dec 07 2026"
    prompt = f'<div id="terminal" onclick="1"><p>{banner}</p><span>user$ {{}}</span></div>'
    before = distill(live_page(extra=prompt.format("█")))
    typed = distill(live_page(extra=prompt.format("help █")))
    line = effect_line(PreviousStep(before, make_call(
        "type", index=ref_of(before, "terminal"), text="help")), typed)
    assert "still empty" not in line and "holds" not in line
    assert 'changed: <div id=terminal>…' in line and "user$ help</div>;" in line, line


def test_a_drag_says_how_far_and_which_way_its_element_moved():
    # MiniWoB++ drag-circle: the circle's line is the same wherever it sits, so only its box
    # tells a drag down from a drag up (or from one that moved nothing: "changed nothing")
    shape = '<div id="area"><span id="circle" onclick="1" data-box="{},{},20,20"></span></div>'
    before = distill(live_page(extra=shape.format(100, 100)))
    drag = make_call("drag", index=ref_of(before, "circle"), dx=0, dy=30)
    after = distill(live_page(extra=shape.format(100, 130), clock=57))
    ref = ref_of(after, "circle")
    assert effect_line(PreviousStep(before, drag), after) == (
        f"Last action's effect: [{ref}] moved 30 px down; nothing else changed.")
    assert not changed_nothing(PreviousStep(before, drag), after)
    wobbly = distill(live_page(extra=shape.format(67, 104)))  # the mouse's wobble is no move
    assert f"[{ref}] moved 33 px left;" in effect_line(PreviousStep(before, drag), wobbly)
    both = distill(live_page(extra=shape.format(120, 60)))
    assert f"[{ref}] moved 20 px right and 40 px up;" in effect_line(PreviousStep(before, drag),
                                                                     both)
    stayed = distill(live_page(extra=shape.format(100, 100)))
    assert effect_line(PreviousStep(before, drag), stayed) == (
        "Last action's effect: that drag changed nothing on the page.")
    # a click's element moving (a layout shift) is no effect of the click
    click = make_call("click", index=ref_of(before, "circle"))
    assert changed_nothing(PreviousStep(before, click), after)


def test_new_elements_are_listed_with_their_refs_and_the_line_stays_short():
    buttons = "".join(f"<button>Option number {i} of the long list</button>" for i in range(12))
    before = distill(live_page())
    after = distill(live_page(extra=f"<p>Choose one:</p>{buttons}"))
    line = effect_line(PreviousStep(before, make_call("click", index=ref_of(before, "subbtn"))),
                       after)
    first = ref_of(after, "subbtn") + 1  # the new buttons follow the form
    assert line.startswith(f"Last action's effect: 13 new: Choose one:, [{first}]<button>Option")
    assert line.endswith(", and 10 more.")
    assert count_tokens(line) < 80


def test_a_new_page_is_named_by_its_title():
    before = distill(live_page())
    after = distill(replace(live_page(url="https://login.test/welcome"), title="Welcome"))
    click = make_call("click", index=ref_of(before, "subbtn"))
    assert effect_line(PreviousStep(before, click), after) == (
        'Last action\'s effect: a new page loaded: "Welcome".')


def test_no_line_without_a_step_before_or_an_action_in_it():
    page = distill(live_page())
    assert effect_line(None, page) == ""
    assert effect_line(PreviousStep(page, None), page) == ""
    user_turn = opening("Log in", [], page, "query_only", PreviousStep(page, None))[1]["content"]
    assert "Last action's effect" not in user_turn


def test_the_user_turn_puts_the_effect_after_the_history():
    before, after = distill(live_page()), distill(live_page(user="kenda"))
    call = make_call("type", index=ref_of(before, "username"), text="kenda")
    history = [history_line(call, before)]
    turn = opening("Log in", history, after, "query_only", PreviousStep(before, call))[1]
    assert turn["content"].startswith(
        "Task: Log in\nPrevious actions:\n- [textbox]  Username -> TYPE: kenda\n"
        "Last action's effect: [1] Username now holds \"kenda\"; nothing else changed.\n\n"
        "Current page:\n")


def test_the_history_names_a_field_without_a_name_by_the_label_beside_it():
    page = distill(live_page())
    call = make_call("type", index=ref_of(page, "pw"), text="x")
    assert history_line(call, page) == "[textbox]  Password -> TYPE: x"


def test_a_clicked_box_reports_its_own_new_state():
    before = distill(live_page())
    box = before.state.nodes[before.refs[ref_of(before, "remember")].node_id]
    after_state = live_page()
    after_state.nodes[box.id].states["checked"] = True
    after = distill(after_state)
    click = make_call("click", index=ref_of(before, "remember"))
    ref = ref_of(after, "remember")
    assert effect_line(PreviousStep(before, click), after) == (
        f"Last action's effect: [{ref}] Password, Username changed: <input type=checkbox "
        "id=remember checked=true />; nothing else changed.")


def test_every_action_tool_has_an_effect_line():
    """scroll, hover, drag and clear: a line when they change nothing, and clear reports the
    field it emptied; select_text, whose selection no capture shows, says what it selected."""
    from pipeline.tools import tool_names

    before, same = distill(live_page(user="kenda")), distill(live_page(user="kenda", clock=50))
    user, button = ref_of(before, "username"), ref_of(before, "subbtn")
    calls = {"click": make_call("click", index=button), "hover": make_call("hover", index=button),
             "scroll": make_call("scroll", direction="down"),
             "drag": make_call("drag", index=button, dx=5, dy=0),
             "clear": make_call("clear", index=user),
             "type": make_call("type", index=user, text="kenda"),
             "select": make_call("select", index=user, option="x"),
             "press": make_call("press", key="Enter")}
    selection = make_call("select_text", text="Username")
    assert set(tool_names("action")) - {"done"} <= set(calls) | {selection.name}
    for name, call in calls.items():
        assert "changed nothing on the page" in effect_line(PreviousStep(before, call), same), name
    assert effect_line(PreviousStep(before, selection), same) == (
        'Last action\'s effect: "Username" is selected; nothing else changed.')
    cleared = distill(live_page())
    line = effect_line(PreviousStep(before, calls["clear"]), cleared)
    assert f"[{ref_of(cleared, 'username')}] Username is now empty" in line
