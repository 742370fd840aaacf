"""The passage a task asks to highlight: a paragraph it names by position, or the one text.

    asked_passage(page, "Highlight the text in the 2nd paragraph and click submit.")
        -> ("the 2nd paragraph", "at. Eget dui,. Volutpat commodo est, aliquet")

``select_text`` quotes the passage word for word, and nothing in a listing of elements holds a
paragraph's text: a small model reads it from a region's text and quotes a part of it, or the
wrong paragraph. Where the task asks to highlight (select) "the text in the 2nd paragraph" (or
"the paragraph below"), ``asked_passage`` reads that paragraph: the page's ``<p>`` at the
position ("first", "last", "3rd"), the one ``<p>`` without a position, and on a page without
``<p>`` the first text after the task's own sentence for "the paragraph below" (a short
paragraph is still the one below, not the longer score panel further down), else the longest
text that is not the task's sentence (a control's own text is no passage). The ``planned``
step shows it after the candidates until the history selected a passage
(``pipeline.agent.observe.step_candidates``).
"""

from __future__ import annotations

import re

from pipeline.distill.model import DistilledPage
from pipeline.distill.tree import SubtreeText
from pipeline.query.shown_values import page_texts, positioned

# "Highlight the text in the 2nd paragraph", "select the text of the paragraph below"
_ASKED = re.compile(r"\b(?:highlight|select)\s+the\s+text\s+(?:in|of)\s+the\s+(?:(first|last|"
                    r"\d+(?:st|nd|rd|th))\s+)?paragraph(\s+below)?\b", re.IGNORECASE)


def asked_passage(page: DistilledPage, task: str) -> tuple[str, str] | None:
    """(how the task names the passage, its text) or None: no such request, no paragraph at
    the position, or no text."""
    asked = _ASKED.search(task)
    if asked is None:
        return None
    paragraphs = [text for _, text in page_texts(page, "p") if text.strip()]
    if asked.group(1):
        found = positioned(paragraphs, asked.group(1))
        return (f"the {asked.group(1)} paragraph", found) if found else None
    if len(paragraphs) == 1:
        return "the paragraph", paragraphs[0]
    if paragraphs:
        return None  # several, none named
    text = SubtreeText()
    said = " ".join(task.split())
    blocks = [shown for node in page.root.walk() if node.tag and not node.is_text
              and node.ref is None  # a control's label is no passage
              and all(child.is_text for child in node.children) and (shown := text(node))]
    sentence = next((at for at, shown in enumerate(blocks) if said in shown), None)
    if asked.group(2) and sentence is not None:
        below = [shown for shown in blocks[sentence + 1:] if shown not in said]
        return ("the paragraph", below[0]) if below else None
    others = [shown for shown in blocks if shown not in said and said not in shown]
    return ("the paragraph", max(others, key=len)) if others else None
