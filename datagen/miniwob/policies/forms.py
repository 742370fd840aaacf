"""Oracle policies for form tasks: a moving text field, a multiple-choice list, copying text
from a text area, and a custom dropdown."""

from __future__ import annotations

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    field,
    ordinal,
    quoted,
    select,
    type_,
)


async def focus_text(page, episode):
    yield click(css("#tt"))


async def enter_text_dynamic(page, episode):
    yield type_(css("#tt"), quoted(episode.utterance)[0])
    yield click(css("#subbtn"))


async def click_scroll_list(page, episode):
    """Choose every named option of the multiple select (names may hold ", "), then Submit."""
    wanted = after(episode.utterance, r"^Select (.+) from the scroll list").group(1)
    options = await page.eval_on_selector_all("#options option",
                                              "(os) => os.map((o) => o.textContent.trim())")
    names = split_names(wanted, options)
    if names is None:
        raise PolicyError(f"{episode.task}: {wanted!r} is not a list of options {options}")
    for name in names:
        yield select(css("#options"), name)
    yield click(css("#area button", "Submit"))


def split_names(text: str, names: list[str]) -> list[str] | None:
    """``text`` as ", "-joined entries of ``names`` (longest first where several fit)."""
    if text in names:
        return [text]
    for name in sorted(names, key=len, reverse=True):
        if text.startswith(name + ", "):
            rest = split_names(text[len(name) + 2:], names)
            if rest is not None:
                return [name, *rest]
    return None


async def copy_paste(page, episode):
    """Type the text area's text into the answer field (what copy and paste would put there)."""
    text = await page.input_value("#to-copy")
    yield type_(css("#answer-input"), text)
    yield click(css("#subbtn"))


async def copy_paste_2(page, episode):
    number = ordinal(after(episode.utterance, r"from the (\w+) text area").group(1)) + 1
    text = await page.input_value(f"#text-{number}")
    yield type_(css("#answer-input"), text)
    yield click(css("#subbtn"))


async def form_sequence_3(page, episode):
    """Open the custom dropdown, click the entry, then the labelled button."""
    choice, button = field(episode, "dropdown target"), field(episode, "button target")
    yield click(css("#dropdown-container .selectric"))
    yield click(css("#dropdown-container .selectric-items li", choice))
    yield click(css("#buttons button", button))


POLICIES = {
    "focus-text": focus_text,
    "enter-text-dynamic": enter_text_dynamic,
    "click-scroll-list": click_scroll_list,
    "copy-paste": copy_paste,
    "copy-paste-2": copy_paste_2,
    "form-sequence-3": form_sequence_3,
}
