"""The value a task gives a text field by the field's own label.

    given_value(index, ref, "Book the cheapest one-way flight from: SWF to: PAK on 12/11/2016.")
        -> ("To:", "PAK")        for the field labelled "To:"
    given_value(index, ref, "Forward the email from Linnet to Jourdan.")
        -> ("to:", "Jourdan")    for the forward form's "to:" field

A task often names the value of a field right after the field's label: a flight's "from: SWF
to: PAK", a forward's "to Jourdan", a login's "the username "kanesha"". A small model that
reads several names in the task types the first one it saw into every field (the sender into
the "to:" field, the origin into "To:"). ``given_value`` reads the field's label (its name, or
the text the page labels it with) and the task's value right after it: a quoted phrase or
capitalised words ("SWF", "Jourdan", "Kim Lee", "Decatur, IL", "St Petersburg/Clearwater,
FL"), never a lower-case word ("to the ...") or a number. The ``planned`` step shows the pair
beside the field (``pipeline.agent.observe.step_candidates``).
"""

from __future__ import annotations

import re

from pipeline.query.filters import role_test
from pipeline.query.index import PageIndex

MAX_LABEL_WORDS = 3  # a longer label is a sentence ("Enter your name here"), not a label
_TEXTBOX = role_test("textbox")
# quoted, or capitalised words (a slash joins two names of one place: "St Petersburg/Clearwater")
# with a state after a comma ("Decatur, IL")
_VALUE = r"[\"“]([^\"“”]+)[\"”]|([A-Z][\w'-]*(?:(?:\s+|/)[A-Z][\w'-]*)*(?:,\s[A-Z]{2}\b)?)"


def given_value(index: PageIndex, ref: int, task: str) -> tuple[str, str] | None:
    """(the field's label, the value ``task`` writes right after it) for the text field
    ``ref``; None for another element, a field without a short label, or a task that writes no
    value after it."""
    entry = index.entries.get(ref)
    if entry is None or not _TEXTBOX(entry):
        return None
    label = (entry.node.name or entry.context).strip()
    bare = label.rstrip(":").strip()
    if not re.search(r"[A-Za-z]", bare) or len(bare.split()) > MAX_LABEL_WORDS:
        return None
    found = re.search(rf"(?<![\w-])(?i:{re.escape(bare)}):?\s+(?:{_VALUE})", task)
    return (label, found.group(1) or found.group(2)) if found else None
