"""Write Mind2Web task records (the recorder's side of the format in FACTS.md).

Pure functions from page states to the JSON Mind2Web ships::

    action = action_record("miniwob-login-user-s3-a0", state, target=57,
                           operation=operation("TYPE", "kenda"), negatives=[12, 61])
    task = task_record("miniwob-login-user-s3", website="login-user", domain="miniwob",
                       subdomain="login", confirmed_task=utterance,
                       action_reprs=[...], actions=[action, ...])

An action carries ``raw_html`` (``pipeline.html.mind2web_writer.to_mind2web_raw_html``), ``cleaned_html``
(which keeps every candidate), the ``operation`` (``original_op`` ENTER is op CLICK with no
value, as in Mind2Web), ``pos_candidates`` (the target, ``is_original_target`` and
``is_top_level_target``) and ``neg_candidates``. A candidate's ``attributes`` is a JSON *string*
holding the element's attributes exactly as they appear in ``raw_html`` (``backend_node_id``,
``bounding_box_rect``, sanitised names, ``input_value`` ...); ``backend_node_id`` is a string.
``action_repr`` and ``operation`` live in ``pipeline.html.mind2web_format`` (the agent loop
writes its history with them too).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import lxml.html

from pipeline.aria import INTERACTIVE_ROLES
from pipeline.html import mind2web_format as m2w
from pipeline.html.mind2web_writer import to_mind2web_cleaned_html, to_mind2web_raw_html
from pipeline.page_state import Node, PageState

_CANDIDATE_TAGS = frozenset({"a", "button", "input", "select", "textarea", "option", "summary"})
_PAGE_TAGS = frozenset({"html", "body"})


def candidate_ids(state: PageState) -> list[int]:
    """Backend ids of the elements a Mind2Web candidate ranker would consider, in document order:
    laid-out form controls, links and buttons, interactive ARIA roles and clickable elements
    (not ``<html>``/``<body>``)."""
    out = []
    for node in state.nodes:
        if node.kind != "element" or node.backend_id is None or node.bounds is None:
            continue
        if node.tag in _PAGE_TAGS:  # "clickable" whenever the page listens for clicks at all
            continue
        if node.bounds[2] <= 0 or node.bounds[3] <= 0:
            continue
        if (node.tag in _CANDIDATE_TAGS or node.role in INTERACTIVE_ROLES
                or node.states.get("clickable") is True):
            out.append(node.backend_id)
    return out


def sample_negatives(state: PageState, target: int, limit: int, seed: str) -> list[int]:
    """Up to ``limit`` candidates other than the target and its descendants, drawn with a
    ``random.Random(seed)`` (stable across runs) and returned in document order."""
    by_backend = state.by_backend_id()
    inside = {target}
    for node in state.nodes:
        if node.parent is not None and state.nodes[node.parent].backend_id in inside:
            inside.add(node.backend_id)
    pool = [i for i in candidate_ids(state) if i not in inside]
    if len(pool) > limit:
        pool = random.Random(seed).sample(pool, limit)
    return sorted(pool, key=by_backend.__getitem__)


def action_record(action_uid: str, state: PageState, target: int, op: dict[str, str],
                  negatives: Sequence[int]) -> dict[str, Any]:
    """One Mind2Web action: raw/cleaned HTML, operation and candidates."""
    raw_html = to_mind2web_raw_html(state)
    elements = _elements_by_id(raw_html)
    positive = candidate(elements[str(target)])
    positive.update(is_original_target=True, is_top_level_target=True)
    return {
        "action_uid": action_uid,
        "raw_html": raw_html,
        "cleaned_html": to_mind2web_cleaned_html(state, keep_backend_ids=[target, *negatives]),
        "operation": op,
        "pos_candidates": [positive],
        "neg_candidates": [candidate(elements[str(i)]) for i in negatives],
    }


def candidate(element: Any) -> dict[str, Any]:
    """``{tag, attributes (JSON string), backend_node_id (string)}`` of a raw_html element."""
    attributes = dict(element.attrib)
    return {
        "tag": element.tag,
        "attributes": json.dumps(attributes, ensure_ascii=False),
        "backend_node_id": attributes[m2w.ID_ATTR],
    }


def task_record(annotation_id: str, website: str, domain: str, subdomain: str,
                confirmed_task: str, action_reprs: Iterable[str],
                actions: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """A Mind2Web task with its fields in the dataset's order."""
    return {
        "annotation_id": annotation_id,
        "website": website,
        "domain": domain,
        "subdomain": subdomain,
        "confirmed_task": confirmed_task,
        "action_reprs": list(action_reprs),
        "actions": list(actions),
    }


def _elements_by_id(raw_html: str) -> dict[str, Any]:
    root = lxml.html.document_fromstring(raw_html)
    return {el.get(m2w.ID_ATTR): el for el in root.iter() if isinstance(el.tag, str)}


def _node(state: PageState, backend_id: int) -> Node:
    return state.nodes[state.by_backend_id()[backend_id]]
