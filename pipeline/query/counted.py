"""How many of a thing the page draws, for a task that asks for the count.

    counted(page, "Type the total number of blocks into the textbox and press Submit.")
        -> (7, "blocks")    seven visible elements with the class "addition-block"

"Type the total number of blocks": the page draws the blocks as empty boxes -- no text, no
role, nothing a listing of elements or a region's text shows -- so a small model types any
number. The things are named by the page's own vocabulary: an element whose class (or id)
has the asked word among its words ("addition-block" for "blocks") is one. Only what the
distilled page keeps counts: what the distiller found hidden is no thing drawn. The
``planned`` step shows the count beside the text field
(``pipeline.agent.observe.step_candidates``).
"""

from __future__ import annotations

import re

from pipeline.distill.model import DistilledPage
from pipeline.query.text import stem, words

_ASKED = re.compile(r"\b(?:number|count)\s+of\s+([a-z]+)\b|\bhow\s+many\s+([a-z]+)\b",
                    re.IGNORECASE)


def counted(page: DistilledPage, task: str) -> tuple[int, str] | None:
    """(how many, the word the task counts) for a task that asks for the number of a thing
    the page marks by class or id; None without such a question or such elements."""
    asked = _ASKED.search(task)
    if asked is None:
        return None
    noun = asked.group(1) or asked.group(2)
    wanted = stem(noun.lower())
    nodes = page.state.nodes
    found = sum(1 for node in page.root.walk()
                if not node.is_text and wanted in _named(nodes[node.node_id].attributes))
    return (found, noun) if found else None


def _named(attributes: dict[str, str]) -> set[str]:
    """The stems of the words of an element's class and id ("addition-block" -> "block")."""
    return {stem(word.lower()) for key in ("class", "id")
            for word in words(attributes.get(key, ""))}
