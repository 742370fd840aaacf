"""Oracle policies for the click tasks: buttons, links, dialogs, widgets, tabs, option lists.

Each reads its target from the utterance (quoted text, an ordinal, a list of names) and, for the
multi-step tasks, opens what hides the target first (a tab, an accordion section, a tree folder).
click-checkboxes-soft matches the asked words to the boxes' words with WordNet (``similar``).
"""

from __future__ import annotations

import json

from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    check,
    click,
    css,
    is_visible,
    ordinal,
    quoted,
)
from pipeline.query.similar import boxes_for


async def click_test_2(page, episode):
    yield click(css("#subbtn"))


async def click_button_sequence(page, episode):
    yield click(css("#subbtn"))
    yield click(css("#subbtn2"))


async def click_button(page, episode):
    """click-button and unicode-test: the button whose text is quoted."""
    yield click(css("#area button", quoted(episode.utterance)[0]))


async def click_link(page, episode):
    yield click(css("#area span.alink", quoted(episode.utterance)[0]))


async def click_dialog_2(page, episode):
    label = quoted(episode.utterance)[0]
    if label == "x":
        yield click(css(".ui-dialog-titlebar-close"))
    else:
        yield click(css(".ui-dialog-buttonset button", label))


async def click_widget(page, episode):
    kind = quoted(episode.utterance)[0]
    yield click(css(f"#area [data-type={json.dumps(kind)}]"))


async def click_tab(page, episode):
    yield click(css("#area ul a", after(episode.utterance, r"(Tab #\d)").group(1)))


async def click_tab_2(page, episode):
    """Open the tab whose panel holds the quoted link, then click the link."""
    word = quoted(episode.utterance)[0]
    panel = await page.evaluate(
        "(w) => { for (const a of document.querySelectorAll('#area span.alink')) {"
        " if (a.textContent === w) return a.closest('[id^=tabs-]').id; } return null; }", word)
    if panel is None:
        raise PolicyError(f"{episode.task}: no link {word!r} in any tab")
    link = css(f"#{panel} span.alink", word)
    if not await is_visible(page, link):
        yield click(css(f'#area ul a[href="#{panel}"]'))
    yield click(link)


async def click_collapsible_2(page, episode):
    """Expand the accordion section holding the quoted link, then click the link."""
    word = quoted(episode.utterance)[0]
    link = css("#area span.alink", word)
    if not await is_visible(page, link):
        yield click(f"() => ({link})().closest('.ui-accordion-content').previousElementSibling")
    yield click(link)


async def click_option(page, episode):
    name = after(episode.utterance, r"^Select (.*) and click Submit\.$").group(1)
    yield check(_checkable(name))
    yield click(css("#subbtn"))


async def click_checkboxes(page, episode):
    """Tick the named boxes (and only those), then submit."""
    names = after(episode.utterance, r"^Select (.*) and click Submit\.$").group(1)
    async for act in _tick_only(page, [] if names == "nothing" else names.split(", ")):
        yield act


async def click_checkboxes_soft(page, episode):
    """Tick the boxes whose words WordNet finds similar to the asked ones, then submit."""
    words = after(episode.utterance, r"^Select words similar to (.*) and click Submit\.$").group(1)
    boxes = await page.evaluate(
        "() => Array.from(document.querySelectorAll('#area label'), (l) => l.textContent.trim())")
    async for act in _tick_only(page, boxes_for(words.split(", "), boxes)):
        yield act


async def _tick_only(page, wanted: list[str]):
    """Untick any box ticked by mistake, tick the ``wanted`` ones, then submit."""
    ticked = await page.evaluate(
        "() => Array.from(document.querySelectorAll('#area label'))"
        ".filter((l) => l.querySelector('input:checked')).map((l) => l.textContent.trim())")
    for name in [n for n in ticked if n not in wanted] + wanted:
        yield check(_checkable(name), name in wanted)
    yield click(css("#subbtn"))


def _checkable(name: str) -> str:
    """The checkbox or radio inside the label that reads ``name``."""
    return (f"() => {{ for (const l of document.querySelectorAll('#area label')) {{ "
            f"if (l.textContent.trim() === {json.dumps(name)}) return l.querySelector('input'); }}"
            " return null; }")


async def focus_text_2(page, episode):
    position = ordinal(after(episode.utterance, r"the (\w+) input").group(1))
    yield click(css(f"#tt{position + 1}"))


async def navigate_tree(page, episode):
    """Open the closed folders above the named file or folder, outermost first, then click it."""
    name = quoted(episode.utterance)[0]
    folders = await page.evaluate(
        "(name) => { const t = Array.from(document.querySelectorAll('#tree span'))"
        ".find((s) => s.textContent === name); if (!t) return null; const path = [];"
        " for (let li = t.parentElement.parentElement.closest('li'); li;"
        " li = li.parentElement.closest('li')) path.unshift(li.querySelector(':scope > span')"
        ".textContent); return path; }", name)
    if folders is None:
        raise PolicyError(f"{episode.task}: no file or folder {name!r} in the tree")
    for depth, folder in enumerate(folders):
        span = _tree_span(folders[: depth + 1])
        if not await is_visible(page, f"() => ({span})().nextElementSibling.firstElementChild"):
            yield click(span)
    yield click(_tree_span([*folders, name]))


def _tree_span(path: list[str]) -> str:
    """The ``<span>`` reached by following folder names from the tree's root."""
    return (f"() => {{ let ul = document.querySelector('#tree'), span = null; "
            f"for (const name of {json.dumps(path)}) {{ const li = Array.from(ul.children)"
            ".find((li) => li.querySelector(':scope > span').textContent === name);"
            " if (!li) return null; span = li.querySelector(':scope > span');"
            " ul = li.querySelector(':scope > ul') || ul; } return span; }")


_SOCIAL_BUTTONS = {"Reply": "reply", "Retweet": "retweet", "Like": "like"}
_SOCIAL_MENU = {"Share via DM": "share", "Copy link to Tweet": "copy", "Embed Tweet": "embed",
                "Mute": "menu-user", "Block": "block-user", "Report": "report"}


# The icons swap their image on hover; until the new image has loaded an icon has no box and the
# click misses it. Load the hover images first.
_PRELOAD_HOVER_JS = """() => Promise.all(['reply', 'retweet', 'like', 'more'].map((name) =>
  new Promise((done) => { const image = new Image(); image.onload = image.onerror = done;
    image.src = `../common/special/social-media/${name}-hover.png`; })))"""


async def social_media(page, episode):
    """Click the user's control; menu entries need the post's "more" menu opened first."""
    user = after(episode.utterance, r"For the user (@\S+),").group(1)
    action = quoted(episode.utterance)[0]
    post = ("() => Array.from(document.querySelectorAll('#area .media'))"
            f".find((m) => m.querySelector('.username').textContent === {json.dumps(user)})")
    await page.evaluate(_PRELOAD_HOVER_JS)
    if action in _SOCIAL_BUTTONS:
        yield click(f"() => ({post})().querySelector('.{_SOCIAL_BUTTONS[action]}')")
        return
    item = f"() => ({post})().querySelector('li.{_SOCIAL_MENU[action]}')"
    for _ in range(2):  # a click on the icon while its image swaps can miss: try once more
        if await is_visible(page, item):
            break
        yield click(f"() => ({post})().querySelector('.more')")
    yield click(item)


POLICIES = {
    "click-test-2": click_test_2,
    "click-button": click_button,
    "unicode-test": click_button,
    "click-link": click_link,
    "click-dialog-2": click_dialog_2,
    "click-widget": click_widget,
    "click-tab": click_tab,
    "click-tab-2": click_tab_2,
    "click-collapsible-2": click_collapsible_2,
    "click-button-sequence": click_button_sequence,
    "click-option": click_option,
    "click-checkboxes": click_checkboxes,
    "click-checkboxes-large": click_checkboxes,
    "click-checkboxes-soft": click_checkboxes_soft,
    "focus-text-2": focus_text_2,
    "navigate-tree": navigate_tree,
    "social-media": social_media,
}
