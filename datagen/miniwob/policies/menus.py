"""Oracle policies for tasks that open something before the target shows: dialogs, accordions,
jQuery UI menus (a submenu opens when the mouse rests on its parent: ``hover``) and tabs."""

from __future__ import annotations

import json

from datagen.miniwob.policies import click as click_tasks
from datagen.miniwob.policies.base import (
    PolicyError,
    after,
    click,
    css,
    hover,
    is_visible,
    quoted,
)

_MENU_ITEM = "#area .ui-menu-item-wrapper"


async def click_test(page, episode):
    yield click(css("#subbtn"))


async def click_test_transfer(page, episode):
    """Two buttons; the utterance names the one to press ("Click button ONE.")."""
    label = after(episode.utterance, r"^Click button (\S+)\.$").group(1)
    yield click(css("#area button", label))


async def click_dialog(page, episode):
    yield click(css(".ui-dialog-titlebar-close"))


async def click_collapsible(page, episode):
    """Open the one accordion section, then press Submit."""
    if not await is_visible(page, css("#area .ui-accordion-content")):
        yield click(css("#area h3"))
    yield click(css("#subbtn"))


async def click_menu(page, episode):
    """``Select A>B>C``: rest the mouse on each parent so its submenu opens, click the leaf."""
    path = after(episode.utterance, r"^Select (.+)$").group(1).split(">")
    for depth, name in enumerate(path):
        item = _menu_item(path[: depth + 1])
        yield hover(item) if depth < len(path) - 1 else click(item)


async def click_menu_2(page, episode):
    """Open the menu with its button, open the submenu that holds the item, click the item.
    The item is named by its label, or by an icon the task shows (the same icon class)."""
    label = quoted(episode.utterance)[-1]
    if "with the" in episode.utterance and "icon" in episode.utterance:
        label = await page.evaluate(
            "() => { const icon = document.querySelector('#query .ui-icon');"
            " if (!icon) return null; const cls = Array.from(icon.classList).find((c) =>"
            " c.startsWith('ui-icon-')); const twin = document.querySelector("
            "`#menu .${cls}`); return twin ? twin.parentElement.textContent.replace(/\\s+/g,"
            " ' ').trim() : null; }")
        if label is None:
            raise PolicyError(f"{episode.task}: no menu item has the task's icon")
    if not await is_visible(page, "() => document.querySelector('#menu')"):
        yield click(css("#open-menu"))
    parents = await page.evaluate(
        "(label) => { const norm = (s) => s.replace(/\\s+/g, ' ').trim();"
        f" const item = Array.from(document.querySelectorAll({json.dumps(_MENU_ITEM)}))"
        ".find((e) => norm(e.textContent) === label); if (!item) return null; const path = [];"
        " for (let ul = item.closest('ul'); ul && ul.id !== 'menu'; ul = ul.parentElement"
        ".closest('ul')) path.unshift(norm(ul.previousElementSibling.textContent));"
        " return path; }", label)
    if parents is None:
        raise PolicyError(f"{episode.task}: no menu item {label!r}")
    for name in parents:
        yield hover(css(_MENU_ITEM, name))
    yield click(css(_MENU_ITEM, label))


async def click_tab_2_medium(page, episode):
    """As click-tab-2, but the second tab may be empty: when no tab shows the link, switching
    to the second tab to look there is the task's end."""
    word = quoted(episode.utterance)[0]
    found = await page.evaluate(
        "(w) => Array.from(document.querySelectorAll('#area span.alink'))"
        ".some((a) => a.textContent === w)", word)
    if found:
        async for act in click_tasks.click_tab_2(page, episode):
            yield act
    else:
        yield click(css('#area ul a[href="#tabs-2"]'))


def _menu_item(path: list[str]) -> str:
    """The menu item reached by following item names from the top menu."""
    return (f"() => {{ const norm = (s) => s.replace(/\\s+/g, ' ').trim();"
            f" let menu = document.querySelector('#area ul[role=menu]'), item = null;"
            f" for (const name of {json.dumps(path)}) {{ if (!menu) return null;"
            " const li = Array.from(menu.children).find((li) =>"
            " norm(li.firstElementChild.textContent) === name); if (!li) return null;"
            " item = li.firstElementChild; menu = li.querySelector(':scope > ul'); }"
            " return item; }")


POLICIES = {
    "click-test": click_test,
    "click-test-transfer": click_test_transfer,
    "click-dialog": click_dialog,
    "click-collapsible": click_collapsible,
    "click-collapsible-nodelay": click_collapsible,
    "click-collapsible-2-nodelay": click_tasks.click_collapsible_2,
    "click-tab-2-easy": click_tasks.click_tab_2,
    "click-tab-2-medium": click_tab_2_medium,
    "click-tab-2-hard": click_tasks.click_tab_2,
    "click-checkboxes-transfer": click_tasks.click_checkboxes,
    "click-menu": click_menu,
    "click-menu-2": click_menu_2,
}
