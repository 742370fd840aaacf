"""The oracle's label from any state of an episode: what the scripted policy would do next.

    act = await next_label(page, episode)      # None: the policy has nothing left to do

DAgger asks the oracle at every state the student reaches. The scripted policies are written to
play from the start, so the label is the first act of a *fresh* run of the task's policy on the
page as it is now whose effect the page does not already show: the generator is started on the
current page, each act it yields is checked with ``effect_shown`` and skipped (not performed)
when the page already shows it, and the first act that is still needed is the label. Policies
check the page themselves where a click's or a key's effect is visible (a tab open, a folder
expanded, an email open, a terminal focused or its files listed, an editor's text selected or
styled, a flight search's results listed): an act whose effect no rule reads -- a focusing
click -- would otherwise be the label of every state after it, and a student that followed it
would loop; ``effect_shown`` is the rule for every policy: a TYPE whose target already holds the
text, a SELECT whose option is already selected (or whose slider shows the number), a checkbox
or radio click (``check``) whose target is already in the wanted state, a SELECT_TEXT whose
passage is what the page has selected. A policy that cannot read the page raises PolicyError.
"""

from __future__ import annotations

from typing import Any

from datagen.miniwob.policies import policy_for
from datagen.miniwob.policies.base import Act
from pipeline.live import sliders
from pipeline.live.field_values import wire_value
from pipeline.live.miniwob import Episode
from pipeline.live.sliders import number_of
from pipeline.query.passage import squeezed

# The state of an act's target that the generic rule compares with the act (null: no element).
_TARGET_STATE_JS = """() => {
  const e = (TARGET)();
  if (!e) return null;
  const selected = e.tagName === 'SELECT' && e.selectedIndex >= 0
    ? e.options[e.selectedIndex] : null;
  const handle = (FIND).call(e, HANDLE);  // the handle itself, or the slider's one handle
  const slider = handle ? (READ).call(handle) : null;
  return {value: typeof e.value === 'string' ? e.value : null, type: e.type || '',
          checked: !!e.checked,
          selected: selected ? [selected.value, selected.textContent.trim()] : [],
          slider: slider ? slider.value : null};
}""".replace("HANDLE", repr(sliders.HANDLE_SELECTOR)).replace("READ", sliders.READ_JS).replace(
    "FIND", sliders.FIND_HANDLE_JS)


_SELECTION_JS = "() => window.getSelection().toString()"


async def next_label(page: Any, episode: Episode) -> Act | None:
    """The first act of a fresh run of the episode's policy that the page does not show yet."""
    acts = policy_for(episode.task)(page, episode)
    try:
        async for act in acts:
            if not await effect_shown(page, act):
                return act
        return None
    finally:
        await acts.aclose()


async def effect_shown(page: Any, act: Act) -> bool:
    """Whether the page already shows what ``act`` would do (the generic rule, see module doc)."""
    if act.original_op == "SELECT_TEXT":
        selected = await page.evaluate(_SELECTION_JS)
        return squeezed(selected) == squeezed(act.value)
    if act.original_op == "ENTER" or (act.op == "CLICK" and act.checked is None):
        return False
    state = await page.evaluate(_TARGET_STATE_JS.replace("TARGET", act.target))
    if state is None:
        return False
    if act.op == "TYPE":  # a date typed as "04/15/2018" shows as "2018-04-15"
        return state["value"] in (act.value, wire_value(state["type"], act.value))
    if act.op == "SELECT":  # an option, or a slider's number
        return act.value in state["selected"] or (
            state["slider"] is not None and state["slider"] == number_of(act.value))
    return state["checked"] == act.checked
