"""Oracle policies for tasks whose answer is read off the page and typed, chosen or revealed:
counting blocks, solving for x, odd or even, the greatest hidden card, generating a fitting
number, the last word of a text, scrolling a text to an end, colours named by the task, and a
search form whose labels move between layouts."""

from __future__ import annotations

import json
import re

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    field,
    is_visible,
    scroll,
    text_of,
    type_,
)

MAX_GENERATE = 30  # Generate presses before giving up (each draws 0..10)
_NUMBER_RULES = {
    r"less than (\d+)": lambda n, k: n < k,
    r"greater than (\d+)": lambda n, k: n > k,
    r"an odd number": lambda n, _: n % 2 == 1,
    r"an even number": lambda n, _: n % 2 == 0,
}


async def visual_addition(page, episode):
    count = await page.evaluate("() => document.querySelectorAll('#math-problem "
                                ".addition-block').length")
    yield type_(css("#math-answer"), str(count))
    yield click(css("#subbtn"))


async def simple_algebra(page, episode):
    """``x - 3 = 5`` or ``4 + x = 9`` as the page shows it; x is an integer."""
    problem = await text_of(page, "#math-problem")
    match = re.fullmatch(r"(x|-?\d+) ([+-]) (x|-?\d+) = (-?\d+)", problem)
    if match is None:
        raise PolicyError(f"{episode.task}: cannot read the equation {problem!r}")
    left, op, right, total = match.groups()
    known, total = int(right if left == "x" else left), int(total)
    if op == "+":
        x = total - known
    else:
        x = total + known if left == "x" else known - total
    yield type_(css("#math-answer"), str(x))
    yield click(css("#subbtn"))


# Each row's number and whether its Odd / its Even button is marked.
_ROWS_JS = """(rows) => rows.map((r) => [
  parseInt(r.querySelector('.display-number').textContent, 10),
  !!r.querySelector('.odd.selected'), !!r.querySelector('.even.selected')])"""


async def odd_or_even(page, episode):
    """Mark each row's number odd or even (a row already marked right is left: a restarted run),
    then submit."""
    rows = await page.eval_on_selector_all("#numbers .row", _ROWS_JS)
    for row, (number, odd, even) in enumerate(rows):
        kind, marked = ("odd", odd) if number % 2 else ("even", even)
        if not marked:
            yield click(f"() => document.querySelectorAll('#numbers .row')[{row}]"
                        f".querySelector('.{kind}')")
    yield click(css("#submit"))


async def find_greatest(page, episode):
    """Turn each card over (a click shows it), remember its number, pick the greatest."""
    cards = await page.evaluate("() => document.querySelectorAll('#cardholder .card').length")
    seen = {}
    for card in range(cards):
        target = css("#cardholder .card", nth=card)
        yield click(target)
        value = f"() => ({target})().querySelector('.card-value')"
        if not await is_visible(page, value):
            raise PolicyError(f"{episode.task}: card {card} did not show its number")
        seen[card] = int(await page.evaluate(f"() => ({value})().textContent"))
    best = max(seen, key=seen.get)
    if best != cards - 1:
        yield click(css("#cardholder .card", nth=best))
    yield click(css("#submit"))


async def generate_number(page, episode):
    rule = next(((p, f) for p, f in _NUMBER_RULES.items()
                 if re.search(p, episode.utterance)), None)
    if rule is None:
        raise PolicyError(f"{episode.task}: no known rule in {episode.utterance!r}")
    pattern, fits = rule
    bound = re.search(pattern, episode.utterance)
    limit = int(bound.group(1)) if bound.groups() else 0
    for _ in range(MAX_GENERATE):
        shown = await text_of(page, "#display-number")
        if shown.lstrip("-").isdigit() and fits(int(shown), limit):
            break
        yield click(css("#generate"))
    else:
        raise PolicyError(f"{episode.task}: no fitting number in {MAX_GENERATE} draws")
    yield click(css("#submit"))


_ROOM_JS = """(up) => { const t = document.querySelector('#text-area');
  return up ? t.scrollTop > 1 : t.scrollHeight - t.scrollTop - t.clientHeight > 1; }"""


async def scroll_text(page, episode):
    """Type the text area's last word: its value holds all of it, so no scroll is needed (the
    task scores the word alone), and the planner shows the word beside the answer field."""
    words = re.findall(r"[A-Za-z0-9]+", await page.input_value("#text-area"))
    if not words:
        raise PolicyError(f"{episode.task}: the text area is empty")
    yield type_(css("#answer-input"), words[-1])
    yield click(css("#subbtn"))


async def scroll_text_2(page, episode):
    where = after(episode.utterance, r"to the (top|bottom) of the text").group(1)
    if await page.evaluate(_ROOM_JS, where == "top"):
        yield scroll(css("#text-area"), "up" if where == "top" else "down", to_end=True)
    yield click(css("#subbtn"))


async def click_color(page, episode):
    yield click(css(f"#area .color[data-color={json.dumps(field(episode, 'target'))}]"))


async def click_shades(page, episode):
    color = field(episode, "target")
    shades = await page.evaluate(
        f"() => document.querySelectorAll('#area span[data-color={json.dumps(color)}]').length")
    for nth in range(shades):
        yield click(css(f"#area span[data-color={json.dumps(color)}]", nth=nth))
    yield click(css("#submit"))


_LAYOUT_LABELS = {"genre": "Genre", "director": "Director", "year": ("Year", "Released")}


async def multi_layouts(page, episode):
    """Type each field into the input whose row reads its label, then search."""
    for name, labels in _LAYOUT_LABELS.items():
        words = json.dumps([labels] if isinstance(labels, str) else list(labels))
        yield type_("() => Array.from(document.querySelectorAll('#area input')).find((i) =>"
                    f" {words}.some((w) => i.closest('p, tr, .row, .field, .ui-entry')"
                    ".textContent.includes(w)))", field(episode, name))
    yield click("() => Array.from(document.querySelectorAll('#area button, #area .ui-submit, #area .final'))"
                "[0] || null")


POLICIES = {
    "visual-addition": visual_addition,
    "simple-algebra": simple_algebra,
    "odd-or-even": odd_or_even,
    "find-greatest": find_greatest,
    "generate-number": generate_number,
    "scroll-text": scroll_text,
    "scroll-text-2": scroll_text_2,
    "click-color": click_color,
    "click-shades": click_shades,
    "multi-layouts": multi_layouts,
}
