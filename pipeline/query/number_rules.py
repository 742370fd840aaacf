"""What a task says a number must be, judged against the numbers the page shows.

    number_rule("Generate a number less than 5, then press submit.")        -> "lt:5"
    number_rule("Generate an even number, then press submit.")              -> "even"
    number_rule("Mark the numbers below as odd or even and press submit.")  -> "parity"
    rule_target(index, hits, "lt:5")     -> Generate while the page shows 6, Submit once it shows 3
    rule_target(index, hits, "parity")   -> the Even button of the first open row showing -4

A small model reads "-4" beside an Odd and an Even button and still picks by position; it reads
"6" after "less than 5" and still sends the form. The instruction planner reads the rule
(``number_rule``, an argument only it gives ``query_elements``; a stepped goal, so the clause
that sends the form keeps it) and the engine, which sees the page, judges it, as ``extremes``
does for "the cheapest":

- ``parity`` (a question per number: "odd or even"): the first row not answered yet (``_done``)
  whose choices are labelled Odd and Even and whose card shows a whole number -- its
  ``Entry.context`` -- leads with the choice that is true of it.
- a condition (``odd``, ``even``, ``lt:N``, ``gt:N``) on the one number the page shows outside
  its elements (a generator's display): while no number shows, or it fails the rule, the best
  match that does not send the form (the Generate button) leads; once it fits, the best match
  that sends it does. A page that shows several such numbers is left as the words rank it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from pipeline.query.filters import holding_ref
from pipeline.query.index import PageIndex
from pipeline.query.text import sends_form, whole_number, words

_LESS = r"less|smaller|lower|fewer"
_GREATER = r"greater|larger|bigger|higher|more"
_BOUND = re.compile(rf"\bnumber\s+(?:that\s+is\s+|which\s+is\s+)?(?:({_LESS})|({_GREATER}))"
                    r"\s+than\s+(-?\d+)\b", re.IGNORECASE)
_KIND = re.compile(r"\b(?:an?|the)\s+(odd|even)\s+(?:number|integer)\b", re.IGNORECASE)
_PARITY = re.compile(r"\b(?:odd\s+or\s+even|even\s+or\s+odd)\b", re.IGNORECASE)
_CHOICES = frozenset({"odd", "even"})


def number_rule(instruction: str) -> str | None:
    """The rule the instruction sets for a number, or None: ``parity`` for a question of which
    of Odd and Even each number is, ``odd``/``even``/``lt:N``/``gt:N`` for a number to get."""
    if _PARITY.search(instruction):
        return "parity"
    bound = _BOUND.search(instruction)
    if bound:
        return f"{'lt' if bound.group(1) else 'gt'}:{int(bound.group(3))}"
    kind = _KIND.search(instruction)
    return kind.group(1).lower() if kind else None


def fits(rule: str, number: int) -> bool:
    """Whether ``number`` meets a condition rule (``odd``, ``even``, ``lt:N``, ``gt:N``)."""
    if rule in ("odd", "even"):
        return (number % 2 == 1) == (rule == "odd")
    kind, _, bound = rule.partition(":")
    return number < int(bound) if kind == "lt" else number > int(bound)


def rule_target(index: PageIndex, hits: Iterable[int], rule: str,
                done: Callable[[int], bool]) -> int | None:
    """The ref that ``rule`` puts first among ``hits`` (refs, best first) on this page, or
    None; ``done`` says which refs the page shows as done."""
    hits = list(hits)
    if rule == "parity":
        return _true_choice(index, [ref for ref in sorted(hits) if not done(ref)])
    shown = _shown_numbers(index)
    if len(shown) > 1:
        return None
    met = bool(shown) and fits(rule, shown[0])
    return next((ref for ref in hits if sends_form(index.entries[ref].text) == met), None)


def _true_choice(index: PageIndex, refs: list[int]) -> int | None:
    """The choice true of its row's number, in the first row (page order) that shows one."""
    for ref in refs:
        entry = index.entries[ref]
        label = " ".join(words(entry.text))
        number = whole_number(entry.context)
        if label in _CHOICES and number is not None:
            truth = "odd" if number % 2 else "even"
            return ref if label == truth else _twin(index, refs, entry.context, truth)
    return None


def _twin(index: PageIndex, refs: list[int], context: str, label: str) -> int | None:
    """The choice labelled ``label`` of the row whose card shows ``context``, nearest first."""
    return next((ref for ref in refs if index.entries[ref].context == context
                 and " ".join(words(index.entries[ref].text)) == label), None)


def _shown_numbers(index: PageIndex) -> list[int]:
    """The whole numbers the page shows as text of their own, outside its elements, and not as
    a labelled value ("Episodes done: 0", the text before it ending in a colon)."""
    found: list[int] = []
    before = ""
    for node in index.page.root.walk():
        if not node.is_text or not node.text.strip():
            continue
        number = whole_number(node.text)
        if number is not None and not before.endswith(":") \
                and holding_ref(index, node.node_id) is None:
            found.append(number)
        before = node.text.strip()
    return found

