"""How many of a thing the page draws, for a task that asks for the count
(pipeline/query/counted.py), shown beside the text field in the planned step."""

from __future__ import annotations

from query_helpers import html_page

from pipeline.agent.observe import step_candidates
from pipeline.query.counted import counted

BLOCKS = """<div id="query">Type the total number of blocks into the textbox and press Submit.</div>
<div id="visual-1"><span class="addition-block"></span><span class="addition-block"></span></div>
<div>+</div><div id="visual-2"><span class="addition-block"></span></div>
<div class="blockquote-like">not a block</div>
<input type="text" id="math-answer"><button id="subbtn">Submit</button>"""


def test_the_things_asked_for_are_counted_by_the_pages_class_words():
    page = html_page(BLOCKS)
    assert counted(page, "Type the total number of blocks into the textbox.") == (3, "blocks")
    assert counted(page, "How many blocks are there?") == (3, "blocks")
    assert counted(page, "Type the number of circles.") is None  # nothing marked so
    assert counted(page, "Type the total into the textbox.") is None  # no count asked


def test_the_planned_step_shows_the_count_beside_the_field():
    block = step_candidates("Type the total number of blocks into the textbox and press "
                            "Submit.", [], html_page(BLOCKS))
    assert "math-answer" in block.splitlines()[1], block
    assert block.splitlines()[1].endswith(" — the page shows 3 blocks"), block
