"""Oracle policies for the typing tasks: text fields, logins, answers read off the page, forms.

The value comes from the utterance (quoted text, miniwob's fields) or from the page itself (a
table, a sum, a distorted word, a paragraph); ``guess-number`` reads the page's feedback after
each guess and bisects.
"""

from __future__ import annotations

import re

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    check,
    click,
    css,
    enter,
    field,
    is_visible,
    ordinal,
    quoted,
    text_of,
    type_,
)


async def enter_text(page, episode):
    yield type_(css("#tt"), quoted(episode.utterance)[0])
    yield click(css("#subbtn"))


async def enter_text_2(page, episode):
    text = quoted(episode.utterance)[0]
    upper = "upper case" in episode.utterance
    yield type_(css("#tt"), text.upper() if upper else text.lower())
    yield click(css("#subbtn"))


async def enter_password(page, episode):
    password = quoted(episode.utterance)[0]
    yield type_(css("#password"), password)
    yield type_(css("#verify"), password)
    yield click(css("#subbtn"))


async def enter_date(page, episode):
    """The date as the task writes it: the executor sets a date input from "04/15/2018"."""
    yield type_(css("#tt"), after(episode.utterance, r"(\d\d/\d\d/\d{4})").group(1))
    yield click(css("#subbtn"))


async def enter_time(page, episode):
    """The time as the task writes it ("3:03 PM"): the executor converts it for the field."""
    yield type_(css("#tt"), after(episode.utterance, r"Enter (\d{1,2}:\d\d\s?[AP]M)").group(1))
    yield click(css("#subbtn"))


async def login_user(page, episode):
    yield type_(css("#username"), field(episode, "username"))
    yield type_(css("#password"), field(episode, "password"))
    yield click(css("#subbtn"))


async def login_user_popup(page, episode):
    """A popup may open when a field gets focus: cancel it and type the field again."""
    for selector, name in (("#username", "username"), ("#password", "password")):
        value = field(episode, name)
        yield type_(css(selector), value)
        if await is_visible(page, css("#popup-cancel")):
            yield click(css("#popup-cancel"))
            if await page.input_value(selector) != value:
                yield type_(css(selector), value)
    yield click(css("#subbtn"))


async def read_table(page, episode):
    key = after(episode.utterance, r"Enter the value of (.+) into the text field").group(1)
    value = await page.evaluate(
        "(key) => { for (const tr of document.querySelectorAll('#tab tr')) {"
        " const td = tr.querySelectorAll('td'); if (td[0].textContent === key)"
        " return td[1].textContent; } return null; }", key)
    if value is None:
        raise PolicyError(f"{episode.task}: no row {key!r} in the table")
    yield type_(css("#tt"), value)
    yield click(css("#subbtn"))


_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "x": lambda a, b: a * b}


async def simple_arithmetic(page, episode):
    problem = await text_of(page, "#math-problem")
    match = re.match(r"(-?\d+) ([-+x]) (-?\d+) =", problem)
    if match is None:
        raise PolicyError(f"{episode.task}: cannot read the problem {problem!r}")
    answer = _ARITHMETIC[match.group(2)](int(match.group(1)), int(match.group(3)))
    yield type_(css("#math-answer"), str(answer))
    yield click(css("#subbtn"))


async def text_transform(page, episode):
    yield type_(css("#tt"), (await text_of(page, "#captcha")).replace(" ", ""))
    yield click(css("#subbtn"))


async def find_word(page, episode):
    position = ordinal(after(episode.utterance, r"Find the (\w+) word").group(1))
    words = (await text_of(page, "#area p")).split()
    if position >= len(words):
        raise PolicyError(f"{episode.task}: the paragraph has only {len(words)} words")
    yield type_(css("#answer-input"), re.sub(r"[^a-zA-Z]", "", words[position]))
    yield click(css("#subbtn"))


async def multi_orderings(page, episode):
    match = after(episode.utterance, r"Search for (.+) movies directed by (.+) from year (\d+)\.")
    for header, value in zip(("Genre", "Director", "Year"), match.groups(), strict=True):
        yield type_(_row_input(header), value)
    yield click(css("#area .final"))


def _row_input(header: str) -> str:
    """The text box in the table row headed ``header``."""
    return (f"() => Array.from(document.querySelectorAll('#area tr')).find((tr) => "
            f"tr.querySelector('th').textContent === '{header}').querySelector('input')")


async def form_sequence_2(page, episode):
    match = after(episode.utterance, r"Check the (\w+) radio button and enter the number "
                                     r'"(-?\d+)" into the (\w+) textbox')
    yield check(css(f'#area input[type=radio][value="{ordinal(match.group(1)) + 1}"]'))
    yield type_(css(f"#input-{ordinal(match.group(3)) + 1}"), match.group(2))
    yield click(css("#subbtn"))


# The range the page's feedback has left, kept on the page: each answer replaces the one before,
# and a restarted run (DAgger's label after the student's guesses) bisects on from what the
# feedback said so far, as the engine's hint does from the history (query.guesses).
_GUESS_RANGE_JS = """([low, high]) => {
  const said = (id) => {
    const e = document.getElementById(id);
    return e && !e.classList.contains('hide') ? parseInt(e.querySelector('span').textContent, 10)
                                              : null;
  };
  const higher = said('higher'), lower = said('lower');
  if (higher === null && lower === null && !document.getElementById('tt').value) {
    window.pagescoutGuessRange = null;  // a new episode: no guess yet
  }
  const range = window.pagescoutGuessRange = window.pagescoutGuessRange || [low, high];
  if (higher !== null) range[0] = Math.max(range[0], higher + 1);
  if (lower !== null) range[1] = Math.min(range[1], lower - 1);
  return range;
}"""


async def guess_number(page, episode):
    """Bisect 0-9 on the page's feedback; every guess is typed and submitted with Enter."""
    while True:
        low, high = await page.evaluate(_GUESS_RANGE_JS, [0, 9])
        if low > high:
            raise PolicyError(f"{episode.task}: the feedback never said the guess was right")
        yield type_(css("#tt"), str((low + high) // 2))
        yield enter(css("#tt"))
        if not (await is_visible(page, css("#higher")) or await is_visible(page, css("#lower"))):
            return


POLICIES = {
    "enter-text": enter_text,
    "enter-text-2": enter_text_2,
    "enter-password": enter_password,
    "enter-date": enter_date,
    "enter-time": enter_time,
    "login-user": login_user,
    "login-user-popup": login_user_popup,
    "read-table": read_table,
    "simple-arithmetic": simple_arithmetic,
    "text-transform": text_transform,
    "find-word": find_word,
    "multi-orderings": multi_orderings,
    "form-sequence-2": form_sequence_2,
    "guess-number": guess_number,
}
