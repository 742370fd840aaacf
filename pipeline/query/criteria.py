"""Turn ``query_elements`` arguments into hard constraints and scorers, forgiving what a small
model sends: a ``"type=submit"`` string for ``attributes``, string weights, a list of keywords,
``max_results`` as text. Problems that leave no sensible query come back as an error text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipeline.distill.model import DistilledPage
from pipeline.query.dates import calendar_weights, page_months
from pipeline.query.filters import (
    attributes_match,
    best_headings,
    heading_scope,
    landmark_spec,
    nested_landmarks,
    resolve_landmarks,
    role_test,
)
from pipeline.query.index import Entry, PageIndex
from pipeline.query.scoring import Query, make_query
from pipeline.query.spinners import spinner_value, spinner_weights

MAX_RESULTS = 100
_LIST_LANDMARKS = 12
_LIST_HEADINGS = 8


@dataclass(slots=True)
class Constraint:
    key: str  # the argument it came from: role, attributes, within_landmark, near_heading
    shown: str  # how it reads in messages: role=button
    allows: Callable[[Entry], bool]


@dataclass(slots=True)
class Criteria:
    constraints: list[Constraint] = field(default_factory=list)
    text: Query | None = None
    name: Query | None = None
    keywords: list[tuple[Query, float]] = field(default_factory=list)
    max_results: int = 20
    shown: list[str] = field(default_factory=list)  # every criterion as it reads in messages
    prefer: Constraint | None = None  # a role that adds PREFER_BONUS instead of filtering
    pending: bool = False  # elements the page shows as done (filled, checked) rank lower
    pending_fills: bool = True  # a filled text field counts as done (not with "ticked")
    ordinal: int = 0  # the planner's "3rd": the third of the matched elements alike leads
    extreme: str = ""  # the planner's "cheapest" (money:min): that one of them leads
    affix: tuple[str, str] | None = None  # the planner's "starts with "An"": the one showing it
    pair_fields: str = ""  # the planner's clause that says its values in words (``pairing``)
    similar: tuple[str, ...] = ()  # the planner's "words similar to a, b": their choices lead
    qualifier: Query | None = None  # the planner's "all posts *by @vel*": which of them count
    reveal: bool = False  # the planner's: a "more"/"menu" toggle leads when the name is unseen
    figure: str = ""  # the planner's question about a drawing (``figures``): its answer leads
    number_rule: str = ""  # the planner's "less than 5", "odd or even" (``number_rules``)
    shown_icon: bool = False  # the planner's "the item with the [icon] icon" (``icons``)
    listed_values: tuple[str, ...] = ()  # the planner's "[2,3,11]", one per slider
    turned: tuple[str, list[float]] | None = None  # the planner's superlative of cards turned

    @property
    def scored(self) -> bool:
        return (self.text is not None or self.name is not None or bool(self.keywords)
                or self.prefer is not None)


def parse_criteria(index: PageIndex, args: dict[str, Any]) -> Criteria | str:
    """Criteria from the tool arguments, or an error text naming the bad argument and the fix."""
    out = Criteria(max_results=_count(args.get("max_results")))
    vocab = index.vocab
    for key in ("text", "name"):
        value = _string(args.get(key))
        if value:
            setattr(out, key, make_query(value, vocab))
            out.shown.append(f'{key}="{value}"')
    weights = _stepped(index, args, _weights(args.get("keyword_weights")))
    for keyword, weight in weights.items():
        out.keywords.append((make_query(keyword, vocab), weight))
    if out.keywords:
        out.shown.append("keyword_weights=" + ",".join(q.text for q, _ in out.keywords))
    prefer = _string(args.get("prefer_role"))
    if prefer:
        out.prefer = Constraint("prefer_role", f"preferring role={prefer}", role_test(prefer))
        out.shown.append(out.prefer.shown)
    out.pending = bool(args.get("prefer_pending"))
    out.pending_fills = args.get("prefer_pending") != "ticked"
    out.reveal = bool(args.get("reveal_hidden"))
    ordinal = args.get("ordinal")
    out.ordinal = ordinal if isinstance(ordinal, int) and ordinal > 0 else 0
    out.extreme = _string(args.get("extreme"))
    out.pair_fields = _string(args.get("pair_fields"))
    out.figure = _string(args.get("figure"))
    out.number_rule = _string(args.get("number_rule"))
    out.shown_icon = bool(args.get("shown_icon"))
    turned = args.get("turned")
    if isinstance(turned, dict) and isinstance(turned.get("extreme"), str) and isinstance(
            turned.get("seen"), list):
        out.turned = (turned["extreme"], [float(v) for v in turned["seen"]])
    listed = args.get("listed_values")
    if isinstance(listed, list | tuple) and all(isinstance(v, str) for v in listed):
        out.listed_values = tuple(listed)
    ends = args.get("affix")
    if isinstance(ends, list | tuple) and len(ends) == 2 and all(isinstance(e, str) for e in ends):
        out.affix = (ends[0].lower(), ends[1].lower())
    similar = args.get("similar")
    if isinstance(similar, list | tuple) and all(isinstance(w, str) for w in similar):
        out.similar = tuple(w.lower() for w in similar if w.strip())
    qualifier = _string(args.get("qualifier"))
    out.qualifier = make_query(qualifier) if qualifier else None
    role = _string(args.get("role"))
    if role:
        out.constraints.append(Constraint("role", f"role={role}", role_test(role)))
    attributes = _attributes(args.get("attributes"))
    if attributes:
        shown = " ".join(f"{k}={v}" for k, v in attributes.items())
        out.constraints.append(
            Constraint("attributes", f"[{shown}]", lambda e: attributes_match(e, attributes))
        )
    problem = _scope(
        index, out, _string(args.get("within_landmark")), _string(args.get("near_heading"))
    )
    if problem:
        return problem
    out.shown.extend(c.shown for c in out.constraints)
    return out


def _stepped(index: PageIndex, args: dict[str, Any],
             weights: dict[str, float]) -> dict[str, float]:
    """The planner's keyword weights for a widget stepped toward a goal the task names: the
    month of its ``calendar_date``, the number of its ``spin_value`` (see ``dates``,
    ``spinners``); unchanged without such a goal, or without the widget on the page."""
    date, number = _string(args.get("calendar_date")), _string(args.get("spin_value"))
    if date and weights:
        weights = calendar_weights(weights, date, page_months(index.page))
    if number and weights:
        values = [spinner_value(entry.node.value, entry.node.attributes)
                  for entry in index.entries.values() if entry.node.role == "spinbutton"]
        weights = spinner_weights(weights, number, [v for v in values if v is not None])
    return weights


def _scope(index: PageIndex, out: Criteria, landmark: str, heading: str) -> str | None:
    within = None
    if landmark:
        found = resolve_landmarks(index, landmark)
        if found == []:
            return unknown_landmark(index.page, landmark)
        if found is not None:
            refs = frozenset().union(*(index.landmark_refs[lm.index] for lm in found))
            out.constraints.append(
                Constraint("within_landmark", f"within {landmark}", lambda e: e.ref in refs)
            )
            within = nested_landmarks(index, found)
    if heading:
        headings = best_headings(index, heading, within)
        if not headings:
            return unknown_heading(index.page, heading, landmark)
        refs = heading_scope(index, headings)
        out.constraints.append(
            Constraint("near_heading", f'under "{headings[0].text}"', lambda e: e.ref in refs)
        )
    return None


def unknown_landmark(page: DistilledPage, spec: str) -> str:
    names = [landmark_spec(lm) for lm in page.landmarks[:_LIST_LANDMARKS]]
    more = len(page.landmarks) - len(names)
    listed = ", ".join(names) + (f", … {more} more" if more > 0 else "")
    if not names:
        return f'Error: no landmark "{spec}": this page has no landmarks; use PAGE or leave it out.'
    return f'Error: no landmark "{spec}". Landmarks on this page: {listed}; or PAGE for all.'


def unknown_heading(page: DistilledPage, text: str, landmark: str = "") -> str:
    where = f" in {landmark}" if landmark else ""
    if not page.headings:
        return f'Error: no heading matches "{text}": this page has no headings.'
    listed = "; ".join(f'"{h.text}"' for h in page.headings[:_LIST_HEADINGS])
    more = len(page.headings) - _LIST_HEADINGS
    return f'Error: no heading matches "{text}"{where}. Headings: {listed}' + (
        f"; … {more} more (get_page_summary lists them)" if more > 0 else ""
    )


def _string(value: Any) -> str:
    return " ".join(str(value).split()) if value not in (None, "") else ""


def _count(value: Any) -> int:
    try:
        return min(MAX_RESULTS, max(1, int(value)))
    except (TypeError, ValueError):
        return 20


def _attributes(value: Any) -> dict[str, str]:
    """A dict, or ``"type=submit, name=q"`` text, as {name: value}."""
    if isinstance(value, dict):
        return {str(k): "" if v is None else str(v) for k, v in value.items() if str(k).strip()}
    if isinstance(value, str):
        pairs = (part.partition("=") for part in value.replace(";", ",").split(","))
        return {k.strip(): v.strip().strip("\"'") for k, _, v in pairs if k.strip()}
    return {}


def _weights(value: Any) -> dict[str, float]:
    """{keyword: weight} from a dict (numeric strings allowed) or a list of keywords (weight 1)."""
    if isinstance(value, (list, tuple)):
        value = {str(k): 1.0 for k in value}
    if not isinstance(value, dict):
        return {}
    out: dict[str, float] = {}
    for keyword, weight in value.items():
        try:
            number = float(weight)
        except (TypeError, ValueError):
            continue
        if str(keyword).strip() and number > 0:
            out[str(keyword).strip()] = number
    return out
