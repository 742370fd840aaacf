"""Values the page shows under a label, and the one a text field asks for.

    shown_values(page)            -> {"first name": ("First name", "Wendy"), "country": ...}
    asked_value(index, ref, task) -> ("First name", "Wendy"), or None

A record the page prints -- a table's two-cell rows ("Language | Punjabi"), a definition list's
term and description -- is often what a form asks to enter: "Enter the value that corresponds
with each label into the form", "Type the value of Language into the text field". A small model
reads the table and still types another row's value. ``asked_value`` pairs a text field with the
row its own label names ("First name:" -- the colon aside, case aside), else, for a field whose
label names no row, with the one row the task names ("the value of *Language*"); and where the
task asks for a word by its position in the page's paragraph or text area ("the 12th word in
the paragraph", "the last word in the text area"), with that word. The ``planned`` step shows
the pair beside the field (``pipeline.agent.observe.step_candidates``).
A row whose value cell holds a control (a form laid out in a table) or nothing is no record.
"""

from __future__ import annotations

import re
from itertools import pairwise

from pipeline.distill.model import DistilledPage, DNode
from pipeline.distill.tree import SubtreeText
from pipeline.query.filters import role_test
from pipeline.query.index import PageIndex
from pipeline.query.text import words

MAX_LABEL = 40  # characters of a label: a longer first cell is a sentence, not a label
MAX_VALUE = 80  # characters of a value shown
_KEY = "shown_values"
_CELLS = frozenset({"td", "th"})
_TEXTBOX = role_test("textbox")
_NOT_WORD = re.compile(r"[^A-Za-z0-9]")  # a word's punctuation, left out as the task checks
# "the 12th word in the paragraph", "the last word of the text area"
_POSITIONED = re.compile(r"\bthe\s+(first|last|\d+(?:st|nd|rd|th))\s+word\s+(?:of|in|from)\s+"
                         r"the\s+(paragraph|text\s*area|textarea|text|passage)\b", re.IGNORECASE)


def shown_values(page: DistilledPage) -> dict[str, tuple[str, str]]:
    """The page's labelled values: the label in lower case without its colon -> (the label as
    the page writes it, the value); kept on the page (``derived``). The first row of a label
    wins."""
    found = page.derived.get(_KEY)
    if found is None:
        found = page.derived[_KEY] = _read(page.root)
    return found


def asked_value(index: PageIndex, ref: int, task: str) -> tuple[str, str] | None:
    """(label, value) the page shows for the text field ``ref``: the word ``task`` asks for by
    its position, else the row the field's label names, else the one row ``task`` names; None
    for another element or when none of them is asked for."""
    entry = index.entries.get(ref)
    if entry is None or not _TEXTBOX(entry):
        return None
    positioned = _positioned_word(index.page, task, entry.node.id)
    if positioned is not None:
        return positioned
    values = shown_values(index.page)
    own = _key(entry.node.name or entry.context or "")
    if own in values:
        return values[own]
    said = _spaced(task)
    named = [key for key in values if _spaced(key) in said]
    return values[named[0]] if len(named) == 1 else None


def _positioned_word(page: DistilledPage, task: str, field: int) -> tuple[str, str] | None:
    """("12th word in the paragraph", its word) when ``task`` asks for a word by its position
    in the page's paragraph or text area (the longest, where there are several; never the
    ``field`` it goes into), punctuation aside; None otherwise."""
    asked = _POSITIONED.search(task)
    if asked is None:
        return None
    kind = "textarea" if "area" in asked.group(2).lower() else "p"
    texts = [text for node_id, text in page_texts(page, kind) if node_id != field]
    source = max(texts, key=len, default="")
    found = [word for word in (_NOT_WORD.sub("", token) for token in source.split()) if word]
    word = positioned(found, asked.group(1))
    return (asked.group(0)[4:], word) if word is not None else None


def positioned(items: list[str], position: str) -> str | None:
    """The item at ``position`` ("first", "last", "12th"), or None past the end."""
    position = position.lower()
    at = {"first": 0, "last": len(items) - 1}.get(position)
    at = int(position[:-2]) - 1 if at is None else at  # "12th"
    return items[at] if 0 <= at < len(items) else None


def page_texts(page: DistilledPage, tag: str) -> list[tuple[int, str]]:
    """(node id, text) of the page's ``<p>`` paragraphs or ``<textarea>`` values, read once and
    kept on the page (``derived``): each listed candidate of a step asks again."""
    key = f"{_KEY}:{tag}"
    found = page.derived.get(key)
    if found is None:
        nodes, text = page.state.nodes, SubtreeText()
        found = page.derived[key] = [
            (node.node_id, (nodes[node.node_id].value or page.state.text_content(node.node_id))
             if tag == "textarea" else text(node))
            for node in page.root.walk() if node.tag == tag]
    return found


def _spaced(text: str) -> str:
    """The words of ``text`` in lower case, each between spaces (a phrase's test of words)."""
    return f" {' '.join(words(text))} "


def _key(label: str) -> str:
    return " ".join(label.strip().rstrip(":").split()).lower()


def _read(root: DNode) -> dict[str, tuple[str, str]]:
    text = SubtreeText()
    out: dict[str, tuple[str, str]] = {}
    for node in root.walk():
        if node.tag == "tr":
            cells = [child for child in node.children if child.tag in _CELLS]
            if len(cells) == 2 and len(cells) == len(node.children):
                _add(out, cells[0], cells[1], text)
        elif node.tag == "dl":
            items = [child for child in node.children if child.tag in ("dt", "dd")]
            for term, description in pairwise(items):
                if term.tag == "dt" and description.tag == "dd":
                    _add(out, term, description, text)
    return out


def _add(out: dict[str, tuple[str, str]], label: DNode, value: DNode, text: SubtreeText) -> None:
    said, shown = text(label).rstrip(":").strip(), text(value)
    if not said or not shown or len(said) > MAX_LABEL or any(
            node.ref is not None for node in value.walk()):
        return
    out.setdefault(_key(said), (said, shown[:MAX_VALUE]))
