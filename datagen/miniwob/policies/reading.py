"""Oracle policies for tasks that read something on the page before they act: a table to copy
values from, an agreement to scroll to its end, a terminal's directory listing, a paragraph to
highlight."""

from __future__ import annotations

import re

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    ordinal,
    press,
    quoted,
    scroll,
    select_text,
    text_of,
    type_,
)

MAX_SCROLLS = 30  # a text area that needs more is not the task's


async def read_table_2(page, episode):
    """Type each labelled field's value from the table row with the same key."""
    table = dict(await page.eval_on_selector_all(
        "#tab tr", "(rows) => rows.map((r) => Array.from(r.cells, (c) => c.textContent.trim()))"))
    keys = await page.eval_on_selector_all("#form label", "(ls) => ls.map((l) => l.dataset.key)")
    for number, key in enumerate(keys, start=1):
        if key not in table:
            raise PolicyError(f"{episode.task}: the table has no row {key!r}")
        yield type_(css(f"#tt{number}"), table[key])
    yield click(css("#subbtn"))


async def sign_agreement(page, episode):
    """Cancel at once, or scroll the agreement to its end, sign it and press the named button."""
    if episode.utterance == "Click the cancel button.":
        yield click(css("#cancel"))
        return
    name, button = quoted(episode.utterance)
    for _ in range(MAX_SCROLLS):
        if await page.evaluate("() => { const t = document.querySelector('#text-area');"
                               " return t.scrollHeight - t.scrollTop - t.clientHeight < 2; }"):
            break
        yield scroll(css("#text-area"), "down", to_end=True)
    else:
        raise PolicyError(f"{episode.task}: the agreement did not reach its end")
    yield type_(css("#name"), name)
    yield click(css(f"#{button.lower()}"))


async def terminal(page, episode):
    """Focus the terminal, ask it for ``help`` as its greeting says, list the files, then
    remove the one the task describes (by extension, or the one with none): each command typed
    into the terminal at once (its keys go to the hidden field its click focuses), then Enter.
    ``help`` first because the page names no other command: what the agent types is read from
    the page (the verifier rejects a command the observation never showed).

    Restartable from any state (DAgger asks it where a student left the terminal): the click
    only while the terminal's field is not focused, ``help`` only while neither its output nor
    a listing is shown, ``ls`` only while no listing is shown, and a command finished from what
    the prompt already holds (a wrong one erased first)."""
    wanted = re.search(r"extension \.(\S+)$", episode.utterance)
    if not await page.evaluate(_FOCUSED_JS):
        yield click(css("#terminal"))
    files = await page.evaluate(_LISTED_JS)
    if files is None and not await page.evaluate(_HELPED_JS):
        async for act in _run_command(page, "help"):
            yield act
    if files is None:
        async for act in _run_command(page, "ls"):
            yield act
        files = await page.evaluate(_LISTED_JS) or []
    if wanted:
        target = next((f for f in files if f.endswith("." + wanted.group(1))), None)
    else:
        target = next((f for f in files if "." not in f), None)
    if target is None:
        raise PolicyError(f"{episode.task}: no listed file fits {episode.utterance!r} ({files})")
    async for act in _run_command(page, f"rm {target}"):
        yield act


# The terminal's hidden field has the focus (its keys reach the prompt).
_FOCUSED_JS = "() => document.activeElement?.id === 'terminal-target'"
# The terminal printed its help (the commands it knows, ``ls`` among them).
_HELPED_JS = r"""() => [...document.querySelectorAll('#terminal-contents .terminal-output')]
  .some(e => e.textContent.trim() === 'Usage: ls')"""
# The files the last ``ls`` listed (the outputs after its command line), or null: none ran.
_LISTED_JS = r"""() => { let files = null, listing = false;
  for (const e of document.querySelectorAll('#terminal-contents .terminal-line, '
                                            + '#terminal-contents .terminal-output')) {
    if (e.classList.contains('terminal-line')) {
      if (e.querySelector('#active-input')) break;
      listing = e.querySelector('.command').textContent.trim().startsWith('ls');
      if (listing) files = [];
    } else if (listing) files.push(...e.textContent.split(/\s+/).filter(Boolean));
  }
  return files; }"""


async def _run_command(page, command: str):
    """The command typed into the focused terminal, then Enter: the rest of it when the prompt
    holds its start, else after erasing what the prompt holds."""
    prompt = await page.evaluate("() => document.querySelector('#active-input').textContent")
    if not command.startswith(prompt):
        for _ in prompt:
            yield press(css("#terminal"), "Backspace")
        prompt = ""
    if command != prompt:
        yield type_(css("#terminal"), command[len(prompt):])
    yield press(css("#terminal"), "Enter")


async def highlight_text(page, episode):
    """Select the paragraph's text as the page shows it, then Submit (which reads the
    selection)."""
    yield select_text(css("#randomText"), await _shown_text(page, "#randomText"))
    yield click(css("#subbtn"))


async def highlight_text_2(page, episode):
    """Select the paragraph the utterance names (1st, 2nd, 3rd), read from the page, then
    Submit."""
    nth = ordinal(after(episode.utterance, r"in the (\w+) paragraph").group(1))
    selector = f"#randomText p:nth-of-type({nth + 1})"
    yield select_text(css("#randomText p", nth=nth), await _shown_text(page, selector))
    yield click(css("#subbtn"))


async def _shown_text(page, selector: str) -> str:
    text = await text_of(page, selector)
    if not text:
        raise PolicyError(f"no text to select in {selector}")
    return text


POLICIES = {
    "read-table-2": read_table_2,
    "sign-agreement": sign_agreement,
    "terminal": terminal,
    "highlight-text": highlight_text,
    "highlight-text-2": highlight_text_2,
}
