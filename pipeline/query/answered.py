"""Choices the page shows answered: another choice of the same question is already chosen.

A quiz row "[Odd] 9 [Even]", a group of radios, a row of rating buttons: once the page marks one
choice chosen (selected, pressed, a checked radio), its question is answered and the other
choices are as done as the chosen one -- the planner's ``prefer_pending`` ranks them after the
questions still open, so the next row's choices lead instead of the answered row's other one.
A radio's question is its group (the radios of its ``name``); any other chosen control's is its
row: the smallest container around it that holds another control, when that container holds a
few controls (``ROW_CONTROLS``) of the chosen one's role alone. Only buttons and radios answer:
a ticked checkbox is a choice of its own, a selected tab or link only shows where one is.

    answered_choices(index) -> frozenset({2})   # [1]<button selected=true>Odd</button> 9 [2]Even
"""

from __future__ import annotations

from pipeline.distill.model import DNode
from pipeline.query.index import Entry, PageIndex

ROW_CONTROLS = 6  # a container with more controls is a list or a form, not one question's row
_CLIMB = 4  # ancestors tried
_CHOSEN_STATES = ("selected", "pressed", "checked")  # as the distilled attributes show them
# the roles of a question's choices: a selected tab or link only shows where one is
_CHOICE_ROLES = frozenset({"button", "radio"})
_KEY = "answered_choices"


def answered_choices(index: PageIndex) -> frozenset[int]:
    """The refs whose question another chosen ref answers; kept on the page (``derived``)."""
    found = index.page.derived.get(_KEY)
    if found is None:
        found = index.page.derived[_KEY] = _answered(index)
    return found


def _answered(index: PageIndex) -> frozenset[int]:
    chosen = [entry for entry in index.entries.values()
              if entry.node.role in _CHOICE_ROLES
              and any(entry.dnode.attrs.get(state) == "true" for state in _CHOSEN_STATES)]
    out: set[int] = set()
    for entry in chosen:
        others = _group(index, entry) if entry.node.role == "radio" else _row(index, entry)
        out.update(ref for ref in others if ref != entry.ref)
    return frozenset(out)


def _group(index: PageIndex, radio: Entry) -> list[int]:
    """The radios of ``radio``'s group (its ``name``; none without one)."""
    name = radio.node.attributes.get("name")
    if not name:
        return []
    return [entry.ref for entry in index.entries.values()
            if entry.node.role == "radio" and entry.node.attributes.get("name") == name]


def _row(index: PageIndex, entry: Entry) -> list[int]:
    """The controls of ``entry``'s row (empty when its container is no row of choices)."""
    child = entry.dnode
    for _ in range(_CLIMB):
        parent = index.parents.get(id(child))
        if parent is None:
            return []
        refs = _refs_in(parent, ROW_CONTROLS + 1)
        if len(refs) > 1:
            roles = {index.entries[ref].node.role for ref in refs}
            return refs if len(refs) <= ROW_CONTROLS and roles == {entry.node.role} else []
        child = parent
    return []


def _refs_in(container: DNode, limit: int) -> list[int]:
    """The refs inside ``container`` (itself left out), at most ``limit`` of them."""
    refs: list[int] = []
    for node in container.walk():
        if node.ref is not None and node is not container:
            refs.append(node.ref)
            if len(refs) >= limit:
                break
    return refs
