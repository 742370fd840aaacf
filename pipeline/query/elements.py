"""``query_elements``: search a page's elements by text, role, name, attributes, landmark and heading.

    result = query_elements(page, text="add to cart", role="button", within_landmark="MAIN")
    result.text     # what the model reads: a header line and one result line per hit
    result.hits     # [Hit(ref, score, field, match), ...] best first
    result.error    # None, or the error text (also in ``result.text``) for a bad argument

Role, attributes, landmark and heading are hard constraints; ``prefer_role`` (not a tool argument:
the instruction planner's) is a soft one, adding ``PREFER_BONUS`` to the elements of that role and
listing them even when no word matches; ``prefer_pending`` (the planner's too, unless the task
undoes things; "ticked" for a first step that clicks: a text field's value is then the page's
own) lists an element the page shows as already acted on -- a filled text field, a checked
box, a selected item, the other choices of a question answered (``answered``: the Even of a
quiz row whose Odd is selected) -- below every element still to do, so the next
field outranks the one just filled however many of the task's words that one holds, and
matches no word with a box shapes are dragged into ("all yellow shapes" in its id
``shape-container``): nothing is done on it but drops, which list it as a place (``places``);
``calendar_date`` (the planner's, YYYY-MM-DD) reweighs the keywords for the month a calendar
on the page shows (``dates.calendar_weights``), ``spin_value`` (the planner's too) for
the number a spinner holds (``spinners``), ``reveal_hidden`` (the planner's) a "more" or
"menu" toggle when the heaviest words match nothing (the item is behind it), and ``ordinal``
(the planner's "3rd") leads with that one of the largest set of matched elements alike (same
tag, input type and class; of the preferred role, when some are), or on a paged list with the
link to its page (``ordinals``), and ``extreme`` (the planner's "cheapest") with the one of them
whose price, duration or number is the extreme one (``extremes``), ``affix`` (the planner's
"an item that starts with "An"") with the element still to do that shows such a word
(``affixes``: a suggestion), ``pair_fields`` (the planner's clause that says its values in
words) with the empty text field whose value it says first (``pairing``), ``similar`` (the
planner's "words similar to a, b") with the choice still to do that means what one of them does
(``alike``), ``figure`` (the planner's question about a drawing: "How many red circles") with
the element that shows its answer (``figures``), ``number_rule`` (the planner's "a number less
than 5", "odd or even") with the choice true of a row's number, or the generator while the
number the page shows fails the rule (``number_rules``), ``shown_icon`` (the planner's "the
item with the [icon] icon") with the element holding the icon the task shows in its sentence,
or what opens it (``icons``), ``listed_values`` (the planner's "the combination [2,3,11]")
with the first slider that does not show its value yet (``listed_values``), ``turned`` (the
planner's "the card with the greatest number" with the numbers its clicks turned up) with the
card to turn or pick, or the send button (``turned``), and ``qualifier``
(the planner's "all posts *by @vel*") lists what only the heaviest words or only the
qualifier name -- another's Like, vel's Share -- with the done ones; ``text``, ``name`` (matched
against the visible text and accessible name only) and ``keyword_weights`` score the
elements that pass (see ``scoring``), and an element none of them matches is left out -- unless
everything that passes the hard constraints fits in ``max_results`` (a small page, or a narrow
filter): then the unmatched rest follows the matches under its own line, so the model sees the
whole (short) list instead of a dead end; on a larger page a query that matched nothing lists the
few elements whose label is spelt most like it, with a hint. Hits come best first, ties in
document order; without scoring criteria all matching elements come in document order. Nothing
here raises on a model's arguments: a bad one comes back as an error text, and an empty result
says which criterion to relax.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz, process

from pipeline.distill.model import DistilledPage
from pipeline.distill.svg_markup import outline_box
from pipeline.query.affixes import affix_target
from pipeline.query.alike import similar_target
from pipeline.query.answered import answered_choices
from pipeline.query.criteria import Constraint, Criteria, parse_criteria
from pipeline.query.extremes import extreme_target
from pipeline.query.figures import figure_target
from pipeline.query.filters import acted_on, landmark_spec
from pipeline.query.format import result_line
from pipeline.query.hidden import hidden_openers
from pipeline.query.icons import icon_target
from pipeline.query.index import Entry, PageIndex, index_for
from pipeline.query.listed_values import listed_target
from pipeline.query.number_rules import rule_target
from pipeline.query.ordinals import nth_target
from pipeline.query.pairing import next_field
from pipeline.query.scoring import Query, entry_score
from pipeline.query.text import terms
from pipeline.query.turned import turned_target

_NAME_TIERS = (1, 2)
NEAREST = 5  # elements listed by spelling when a query on a large page matched nothing
NEAREST_CUTOFF = 50.0
PREFER_BONUS = 0.6  # what ``prefer_role`` adds: less than an exact match of an accessible name
ORDINAL_LEAD = 0.5  # how far the planner's ``ordinal`` puts its element above every other hit
REVEAL_BONUS = 0.5  # what ``reveal_hidden`` adds to a "more"/"menu" toggle (below PREFER_BONUS)
_REVEAL_TERMS = frozenset(terms("more menu options overflow kebab dropdown toggle expand"))
_REVEAL_SYMBOLS = frozenset({"…", "...", "⋮", "⋯", "︙"})


@dataclass(slots=True)
class Hit:
    ref: int
    score: float  # 0 when no scoring criterion was given
    field: str  # the field that matched best: "text", "name", "placeholder", "id", ... or ""
    match: str  # exact, phrase, words, some, fuzzy, or ""
    later: bool = False  # done already, or not the clause's qualifier: listed after the rest


@dataclass(slots=True)
class QueryResult:
    hits: list[Hit]
    total: int  # elements that matched, before max_results
    text: str
    error: str | None = None

    @property
    def refs(self) -> list[int]:
        return [hit.ref for hit in self.hits]

    @property
    def ok(self) -> bool:
        return self.error is None


def query_elements(
    page: DistilledPage,
    text: str | None = None,
    role: str | None = None,
    name: str | None = None,
    attributes: dict[str, str] | None = None,
    within_landmark: str | None = None,
    near_heading: str | None = None,
    keyword_weights: dict[str, float] | None = None,
    max_results: int = 20,
    prefer_role: str | None = None,
    prefer_pending: bool | str = False,
    calendar_date: str | None = None,
    spin_value: str | None = None,
    ordinal: int | None = None,
    extreme: str | None = None,
    qualifier: str | None = None,
    reveal_hidden: bool = False,
    affix: tuple[str, str] | None = None,
    pair_fields: str | None = None,
    similar: list[str] | None = None,
    figure: str | None = None,
    number_rule: str | None = None,
    shown_icon: bool = False,
    listed_values: tuple[str, ...] | list[str] = (),
    turned: dict[str, Any] | None = None,
) -> QueryResult:
    index = index_for(page)
    args = {
        "text": text, "role": role, "name": name, "attributes": attributes,
        "within_landmark": within_landmark, "near_heading": near_heading,
        "keyword_weights": keyword_weights, "max_results": max_results,
        "prefer_role": prefer_role, "prefer_pending": prefer_pending,
        "calendar_date": calendar_date, "spin_value": spin_value, "ordinal": ordinal,
        "extreme": extreme, "qualifier": qualifier, "reveal_hidden": reveal_hidden,
        "affix": affix, "pair_fields": pair_fields, "similar": similar, "figure": figure,
        "number_rule": number_rule, "shown_icon": shown_icon, "listed_values": listed_values,
        "turned": turned,
    }  # fmt: skip
    criteria = parse_criteria(index, args)
    if isinstance(criteria, str):
        return QueryResult([], 0, criteria, criteria)
    hits = run(index, criteria)
    rest = _unmatched_rest(index, criteria, hits)
    nearest = _nearest(index, criteria) if not hits and not rest else []
    shown = hits[: criteria.max_results]
    later = [hit for hit in shown if hit.later] if rest else []  # after what is still to do
    shown = [hit for hit in shown if not (rest and hit.later)]
    if hits:
        what = ", ".join(criteria.shown) or "all elements"
        head = f"{len(hits)} {'element matches' if len(hits) == 1 else 'elements match'} {what}"
        head += f"; top {len(shown) + len(later)}:" if len(shown) + len(later) < len(hits) else ":"
        lines = [head] + [result_line(index, hit.ref) for hit in shown]
    else:
        lines = [empty_message(index, criteria)]
    if rest:
        scope = ", ".join(c.shown for c in criteria.constraints)
        lines.append(f"Other elements {'with ' + scope if scope else 'on the page'} "
                     f"(no word matched; all {len(hits) + len(rest)} are listed):")
        lines += [result_line(index, hit.ref) for hit in rest]
    if later:
        lines.append("Matched but done already:")
        lines += [result_line(index, hit.ref) for hit in later]
    if nearest:
        lines.append(f"Nearest by spelling (no word matched; {len(nearest)} shown, try their "
                     "words or get_page_summary):")
        lines += [result_line(index, hit.ref) for hit in nearest]
    return QueryResult(shown + rest + later + nearest, len(hits), "\n".join(lines))


def _nearest(index: PageIndex, criteria: Criteria) -> list[Hit]:
    """When nothing matched on a page too large to list: the allowed elements whose label is
    spelt most like the query (rapidfuzz ratio of the whole label), best first."""
    wanted = " ".join(q.text for q in (criteria.text, criteria.name) if q is not None)
    wanted = " ".join([wanted, *(q.text for q, _ in criteria.keywords)]).strip()
    if not wanted:
        return []
    labels = {ref: entry.label or " ".join(f.text for f in entry.fields[:3])
              for ref, entry in index.entries.items()
              if all(c.allows(entry) for c in criteria.constraints)}
    found = process.extract(wanted.lower(), labels, scorer=fuzz.ratio, limit=NEAREST,
                            score_cutoff=NEAREST_CUTOFF)
    return [Hit(ref, 0.0, "", "") for _, _, ref in found]


def _unmatched_rest(index: PageIndex, criteria: Criteria, hits: list[Hit]) -> list[Hit]:
    """The elements that pass the hard constraints but matched no word, in document order (with
    ``prefer_pending`` those still to do first: after five shapes dragged into their boxes, the
    Submit that no word of the task names) -- only when a scored query's whole candidate set
    fits in ``max_results``."""
    if not criteria.scored:
        return []
    allowed = [ref for ref, entry in index.entries.items()
               if all(c.allows(entry) for c in criteria.constraints)]
    if len(allowed) > criteria.max_results or len(allowed) == len(hits):
        return []
    matched = {hit.ref for hit in hits}
    rest = [ref for ref in allowed if ref not in matched]
    if criteria.pending:
        rest.sort(key=lambda ref: _done(index, ref, criteria.pending_fills))
    return [Hit(ref, 0.0, "", "") for ref in rest]


def _done(index: PageIndex, ref: int, filled: bool = True) -> bool:
    """The page shows ``ref`` acted on, or another choice of its question chosen (``filled``:
    whether a text field's value counts, ``filters.acted_on``)."""
    return acted_on(index.entries[ref], filled) or ref in answered_choices(index)


def run(index: PageIndex, criteria: Criteria, skip: str = "") -> list[Hit]:
    """All hits for ``criteria`` (the argument named ``skip`` left out), best first."""
    constraints = [c for c in criteria.constraints if c.key != skip]
    text = criteria.text if skip != "text" else None
    name = criteria.name if skip != "name" else None
    keywords = criteria.keywords if skip != "keyword_weights" else []
    queries = [q for q in (text, name) if q is not None] + [q for q, _ in keywords]
    prefer = criteria.prefer
    if queries and all(q.terms for q in queries):
        found: set[int] = set()
        for query in queries:
            for term in query.terms:
                found.update(index.postings.get(term, ()))
        if prefer is not None:
            found.update(ref for ref, entry in index.entries.items() if prefer.allows(entry))
        candidates = sorted(found)
    else:
        candidates = list(index.entries)
    hits: list[Hit] = []
    last: set[int] = set()  # done already (``prefer_pending``), or not the clause's ``qualifier``
    for ref in candidates:
        entry = index.entries[ref]
        if criteria.pending and outline_box(entry.node):
            continue  # nothing to do on a box but drop: after what is (``_unmatched_rest``)
        if all(c.allows(entry) for c in constraints):
            hit = _score(entry, text, name, keywords)
            if prefer is not None and prefer.allows(entry):
                hit = hit or Hit(ref, 0.0, "role", "role")
                hit.score = round(hit.score + PREFER_BONUS, 4)
            if hit is not None:
                hits.append(hit)
                if criteria.pending and _done(index, ref, criteria.pending_fills):
                    last.add(ref)
    hidden = None  # a heaviest word names nothing shown: what opens the hidden one
    heaviest = _heaviest(keywords) if criteria.reveal else []
    unnamed = [query for query in heaviest if not _named(index, query)]
    if unnamed:
        every = len(unnamed) == len(heaviest)
        if every:  # nothing the task names is shown: a "more" or "menu" toggle may hide it
            _lead_revealers(index, hits)
        scores = {hit.ref: hit.score for hit in hits}
        openers = hidden_openers(index, unnamed, [query for query, _ in keywords],
                                 labels_only=not every)
        hidden = max(openers, key=lambda ref: (openers[ref], scores.get(ref, 0.0)), default=None)
    counted = _counted(index, hits, prefer) if criteria.ordinal or criteria.extreme else []
    ranked = [hit.ref for hit in sorted(hits, key=lambda h: -h.score)] if (
        criteria.number_rule or criteria.turned) else []  # best first, for the rules that send
    leads = [  # what the planner's arguments single out on the page; the last found leads
        hidden,
        next_field(index, criteria.pair_fields) if criteria.pair_fields else None,
        nth_target(index, counted, criteria.ordinal) if criteria.ordinal else None,
        extreme_target(index, counted, criteria.extreme) if criteria.extreme else None,
        affix_target(index, criteria.affix) if criteria.affix else None,
        similar_target(index, criteria.similar) if criteria.similar else None,
        figure_target(index, criteria.figure) if criteria.figure else None,
        rule_target(index, ranked, criteria.number_rule, lambda ref: _done(index, ref))
        if criteria.number_rule else None,
        icon_target(index) if criteria.shown_icon else None,
        listed_target(index, criteria.listed_values) if criteria.listed_values else None,
        turned_target(index, ranked, *criteria.turned) if criteria.turned else None,
    ]
    for target in leads:
        if target is not None and all(c.allows(index.entries[target]) for c in constraints):
            _lead(hits, target)
    if criteria.qualifier is not None:  # "all posts by @vel": another's Like is none of them
        last |= _half_named(index, keywords, criteria.qualifier)
    for hit in hits:
        hit.later = hit.ref in last
    if queries or prefer is not None:
        hits.sort(key=lambda h: (h.later, -h.score, h.ref))
    return hits


def _half_named(index: PageIndex, keywords: list[tuple[Query, float]],
                qualifier: Query) -> set[int]:
    """The elements only one of the heaviest words ("Like") and the qualifier ("@vel") name:
    another's Like, or vel's Share -- none of "all" the clause means."""
    qualified = {ref for term in qualifier.terms for ref in index.postings.get(term, ())}
    return _heaviest_named(index, keywords) ^ qualified


def _heaviest(keywords: list[tuple[Query, float]]) -> list[Query]:
    """The heaviest of the keywords: the name a task quotes."""
    top = max((weight for _, weight in keywords), default=0.0)
    return [query for query, weight in keywords if weight == top]


def _named(index: PageIndex, query: Query) -> bool:
    """Whether a word of ``query`` matches an element on the page."""
    return any(index.postings.get(term) for term in query.terms)


def _heaviest_named(index: PageIndex, keywords: list[tuple[Query, float]]) -> set[int]:
    """The elements the heaviest of the keywords (the name a task quotes) match."""
    return {ref for query in _heaviest(keywords) for term in query.terms
            for ref in index.postings.get(term, ())}


def _lead_revealers(index: PageIndex, hits: list[Hit]) -> None:
    """When the heaviest words (the name the task quotes) match no element on the page, what
    it names is likely behind a menu: a hit that says "more", "menu", "options" (or shows "…")
    gains ``REVEAL_BONUS`` -- the "more" toggle of the right post above its Reply and Like."""
    for hit in hits:
        entry = index.entries[hit.ref]
        if entry.text.strip() in _REVEAL_SYMBOLS or any(
                item.bag & _REVEAL_TERMS for item in entry.fields):
            hit.score = round(hit.score + REVEAL_BONUS, 4)


def _counted(index: PageIndex, hits: list[Hit], prefer: Constraint | None) -> list[int]:
    """What an ordinal or a superlative counts among: the matched elements of the role the step
    needs ("the 2nd textbox" beside three radios), all matched elements when none has it."""
    matched = [hit.ref for hit in hits if hit.score > 0]
    if prefer is None:
        return matched
    return [ref for ref in matched if prefer.allows(index.entries[ref])] or matched


def _lead(hits: list[Hit], ref: int) -> None:
    """Put ``ref`` above every hit (listed even when no word matched it): the planner's
    ordinal names a position, not a word (see ``ordinals``)."""
    hit = next((h for h in hits if h.ref == ref), None)
    if hit is None:
        hit = Hit(ref, 0.0, "position", "ordinal")
        hits.append(hit)
    hit.score = round(max(h.score for h in hits) + ORDINAL_LEAD, 4)


def _score(entry: Entry, text, name, keywords) -> Hit | None:
    score, field, match = 0.0, "", ""
    if name is not None:
        score, field, match = entry_score(name, entry, _NAME_TIERS)
        if not score:
            return None
    if text is not None:
        value, source, kind = entry_score(text, entry)
        if not value:
            return None
        if value > score:
            field, match = source, kind
        score += value
    if keywords:
        total = 0.0
        for query, weight in keywords:
            value, source, kind = entry_score(query, entry)
            if value * weight > total and not field:
                field, match = source, kind
            total += value * weight
        if not total:
            return None
        score += total
    return Hit(entry.ref, round(score, 4), field, match)


def empty_message(index: PageIndex, criteria: Criteria) -> str:
    """Say that nothing matched and what dropping each criterion would give."""
    lines = [f"No elements match {', '.join(criteria.shown) or 'this query'}."]
    keys = [c.key for c in criteria.constraints]
    keys += [k for k, on in (("text", criteria.text), ("name", criteria.name),
                             ("keyword_weights", criteria.keywords)) if on]  # fmt: skip
    for key in keys if len(keys) > 1 else []:
        hits = run(index, criteria, skip=key)
        if hits:
            lines.append(
                f"- without {key}: {len(hits)} match ({_where(index, hits)}), e.g. "
                + result_line(index, hits[0].ref)
            )
    if len(lines) == 1:
        lines.append(_hint(index, criteria))
    return "\n".join(lines)


def _where(index: PageIndex, hits: list[Hit]) -> str:
    counts: Counter[str] = Counter()
    for hit in hits:
        landmark = index.entries[hit.ref].landmark
        top = landmark
        while top is not None and index.page.landmarks[top].parent is not None:
            top = index.page.landmarks[top].parent
        counts[
            landmark_spec(index.page.landmarks[top]) if top is not None else "outside landmarks"
        ] += 1
    return ", ".join(f"{name} {n}" for name, n in counts.most_common(4))


def _hint(index: PageIndex, criteria: Criteria) -> str:
    """What to try when no single criterion is to blame."""
    if not index.entries:
        return "- this page has no interactive elements."
    if criteria.scored:
        return ("- no element's text, name or attributes contain these words: try other words "
                "(what the page says, not the task), or get_page_summary to see the page.")  # fmt: skip
    roles = Counter(e.node.role or e.dnode.tag for e in index.entries.values())
    listed = ", ".join(f"{role} {n}" for role, n in roles.most_common(6))
    return f"- roles on this page: {listed}."
