"""The oracle's short, grounded rationales (the assistant ``content`` before each call).

Each says what the model is after in words from the task or from what a tool showed, never
more: "The task asks for the 'ok' button; searching for it." / "Clicking the "Submit" button:
[3]." Phrasings vary by the step's seeded rng.
"""

from __future__ import annotations

import random
from typing import Any

from pipeline.distill.model import DistilledPage
from pipeline.query import index_for
from pipeline.query.filters import role_test
from pipeline.render.elements import trim_text

_LABEL_CHARS = 50
_PASSAGE_WORDS = 4  # a passage's first words named in the rationale
_ROLES = ("button", "link", "textbox", "checkbox", "radio", "combobox", "tab", "option",
          "menuitem", "slider")
_NAMING_ATTRIBUTES = ("id", "name", "class")  # what tells a label-less element apart


def query_intent(args: dict[str, Any], op: str, value: str, rng: random.Random) -> str:
    what = _sought(args)
    lines = [f"Looking for {what}, which the task names.", f"Searching the page for {what}."]
    if op == "CLICK":
        lines.append(f"The task asks me to click {what}; searching for it.")
    else:
        goal = _goal(op, value)
        lines += [f"To {goal} I first have to find {what}.", f"I need {what} to {goal}."]
    return rng.choice(lines)


def canonical_query_intent(kind: str, args: dict[str, Any], op: str, value: str) -> str:
    """The first query's rationale under the canonical policy. Its first word names the kind of
    query, the choice a student has to make at the start of its answer: "Listing" every
    element of a role (``kind`` "role": the target's label is unknown), "Searching" for a label
    the task or the page shows ("label"), "Trying" the task's other words ("words"). ``op`` is
    the step's operation."""
    if kind == "words":
        words = args.get("text") or ", ".join(args.get("keyword_weights") or ())
        return f'Trying the task\'s words "{words}".'
    if kind == "role":
        goal = {"TYPE": f"type {value!r} into", "SELECT": f"select {value!r} in"}.get(op, "click")
        return f"Listing {_sought(args)} to find the one to {goal}."
    return f"Searching the page for {_sought(args)}."


def after_miss(why: str, rng: random.Random) -> str:
    return rng.choice([
        f"None of these is what the task needs; {why}.",
        f"That search did not find it; {why}.",
        f"No match yet; {why}.",
    ])


def seen_in_region(label: str, landmark: str, rng: random.Random) -> str:
    return rng.choice([
        f'{landmark} lists "{label}"; searching for it to get its index.',
        f'"{label}" is what the task needs; finding its index in {landmark}.',
    ])


def summary_intent(rng: random.Random) -> str:
    return rng.choice([
        "First, an overview of the page's regions.",
        "Let me see how the page is organised before searching.",
        "I start with the page summary to see where things are.",
    ])


def region_intent(landmark: str, content_type: str, rng: random.Random, fallback: bool) -> str:
    reading = "its text" if content_type == "text" else "its elements"
    if fallback:
        return rng.choice([
            f"Searching by words failed; reading {reading} of {landmark} instead.",
            f"Let me look through {landmark} directly ({reading}).",
        ])
    return rng.choice([
        f"The task points to {landmark}; listing {reading}.",
        f"{landmark} should hold it; let me read {reading}.",
    ])


def read_value(landmark: str, original_op: str) -> str:
    """Before typing a value the task does not give, or selecting a passage: one wording, its
    first word the student's choice to read rather than act."""
    sought = "passage to select" if original_op == "SELECT_TEXT" else "value to type"
    return f"Reading the text of {landmark} for the {sought}."


def select_text(passage: str) -> str:
    """The rationale of selecting a passage read on the page: its first words (the call
    quotes it whole)."""
    words = passage.split()
    start = " ".join(words[:_PASSAGE_WORDS]) + (" …" if len(words) > _PASSAGE_WORDS else "")
    return f'Selecting the passage "{start}" word for word as the page shows it.'


def act(page: DistilledPage, ref: int, op: str, value: str, source: str,
        rng: random.Random) -> str:
    """The rationale of the final action; ``source`` is "result", "page" or "guess". It names
    the action and the element before the index: a student writes the value and the label it
    reads in the task and the result, then copies the index that goes with that label, instead
    of committing to an index first."""
    element = describe(page, ref)
    doing = {"CLICK": "Clicking", "TYPE": f"Typing {value!r} into",
             "SELECT": f"Selecting {value!r} in", "HOVER": "Hovering over",
             "SCROLL": f"Scrolling {value.replace(':end', ' to the end')} in",
             "DRAG": "Dragging",
             "CLEAR": "Clearing"}.get(op, "Acting on")
    if source == "page":
        return rng.choice([f"{doing} {element}: the page shows it as [{ref}].",
                           f"{doing} {element}, [{ref}] on the page."])
    if source == "guess":
        return f"{doing} the closest result, {element}: [{ref}]."
    return rng.choice([f"{doing} {element}, result [{ref}].", f"{doing} {element}: [{ref}]."])


def press(key: str) -> str:
    """The rationale of a key press in the focused element."""
    return f"Pressing {key} where the focus is."


def describe(page: DistilledPage, ref: int) -> str:
    """``the "Add to Cart" button of Compact Kettle 3, $17.09``; an element without a label by
    the first attribute it shows that tells it apart: ``the textbox with id "input-3"``, ``the
    button with class "ui-button ui-spinner-up ui-corner-tr"``."""
    entry = index_for(page).entries[ref]
    label = trim_text(" ".join((entry.text or entry.node.name or "").split()), _LABEL_CHARS)
    role = next((r for r in _ROLES if role_test(r)(entry)), entry.dnode.tag)
    shown = f'the "{label}" {role}' if label else f"the {role}"
    key = None if label else next((k for k in _NAMING_ATTRIBUTES if k in entry.dnode.attrs), None)
    if key:
        shown += f' with {key} "{entry.dnode.attrs[key]}"'
    return shown + (f" of {trim_text(entry.context, _LABEL_CHARS)}" if entry.context else "")


def _sought(args: dict[str, Any]) -> str:
    role = args.get("role")
    noun = f" {role}" if role else ""
    if args.get("text"):
        where = args.get("within_landmark") or args.get("near_heading")
        place = f" in {where}" if where else ""
        return f'the "{args["text"]}"{noun}{place}'
    weights = args.get("keyword_weights") or {}
    if weights:
        return f"the element that {', '.join(list(weights)[:4])} describe"
    return f"every{noun or ' element'}"


def _goal(op: str, value: str) -> str:
    return f"select {value!r}" if op == "SELECT" else f"type {value!r}"
