"""Realistic Mind2Web task files made from the fixture pages, for the reader's tests.

A fixture page gets a synthetic layout (nested boxes, none for head/script/style) and backend ids
through one raw_html round trip; each action then carries that page's ``raw_html`` (with the
label-leak markers Mind2Web adds: ``data_pw_testid_buckeye="<action_uid>"`` on the target,
earlier targets keeping theirs, ``data_pw_testid_buckeye_candidate`` on candidates), its
``cleaned_html``, the operation, and candidates whose ``attributes`` are JSON strings.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pipeline
from pipeline.html import mind2web_format as m2w
from pipeline.html.mind2web_writer import to_mind2web_cleaned_html, to_mind2web_raw_html
from pipeline.html.source import page_from_file, page_from_html
from pipeline.page_state import Node, PageState

FIXTURES = Path(pipeline.__file__).parent / "fixtures"
HAND_MADE = Path(__file__).parent / "data" / "mind2web"
_NO_BOX = frozenset({"head", "script", "style", "meta", "title", "link"})


@lru_cache(maxsize=8)
def fixture_page(name: str) -> PageState:
    """The fixture as Mind2Web would have captured it: backend ids and a layout."""
    state = page_from_file(FIXTURES / name)
    sizes = [1] * len(state.nodes)
    for node in reversed(state.nodes):
        if node.parent is not None:
            sizes[node.parent] += sizes[node.id]
    hidden: set[int] = set()
    for node in state.nodes:
        if node.tag in _NO_BOX or node.parent in hidden:
            hidden.add(node.id)
            continue
        depth = len(state.ancestors(node.id))
        node.bounds = (float(depth), node.id * 10.0, 1000.0 - 2 * depth, sizes[node.id] * 10.0)
    return page_from_html(to_mind2web_raw_html(state), kind="mind2web_raw")


def find(state: PageState, tag: str, text: str = "", **attrs: str) -> Node:
    for node in state.nodes:
        if node.tag != tag or any(node.attributes.get(k) != v for k, v in attrs.items()):
            continue
        if text in state.text_content(node.id):
            return node
    raise LookupError(f"no <{tag}> with {text!r} {attrs} in {state.url}")


@dataclass
class ActionSpec:
    """One action to write: its target, operation and a few negative candidates."""

    uid: str
    target: Node
    op: str | None  # Mind2Web's op; None writes an operation without 'op'
    value: str = ""
    original_op: str | None = None
    negatives: list[Node] = field(default_factory=list)


def candidate(node: Node, positive: bool) -> dict:
    attrs = {m2w.sanitize_attribute_name(k): v for k, v in node.attributes.items()}
    attrs.update({
        "backend_node_id": str(node.backend_id),
        "bounding_box_rect": m2w.format_rect(node.bounds),
        "is_clickable": "true",
        "data_pw_testid_buckeye_candidate": "1",
    })  # fmt: skip
    out = {
        "tag": node.tag,
        "attributes": json.dumps(attrs),
        "backend_node_id": str(node.backend_id),
    }
    if positive:
        out.update(is_original_target=True, is_top_level_target=True)
    return out


def mark(html: str, backend_id: int, name: str, value: str) -> str:
    """Add an attribute right after the element's backend_node_id, as a leak marker sits."""
    needle = f'backend_node_id="{backend_id}"'
    assert html.count(needle) == 1, needle
    return html.replace(needle, f'{needle} {name}="{value}"')


def action_repr(state: PageState, spec: ActionSpec) -> str:
    node = spec.target
    label = node.name or state.text_content(node.id) or node.attributes.get("placeholder", "")
    shown = spec.original_op or spec.op or "CLICK"  # action_reprs name HOVER and ENTER as such
    tail = f"{shown}: {spec.value}" if shown in ("TYPE", "SELECT") else shown
    return f"[{node.role or node.tag}]  {label} -> {tail}"


def make_action(state: PageState, spec: ActionSpec, earlier: list[ActionSpec]) -> dict:
    raw = to_mind2web_raw_html(state)
    for node in [spec.target, *spec.negatives]:
        raw = mark(raw, node.backend_id, "data_pw_testid_buckeye_candidate", "1")
    for prev in earlier:
        if prev.target.backend_id != spec.target.backend_id:
            raw = mark(raw, prev.target.backend_id, "data_pw_testid_buckeye", prev.uid)
    raw = mark(raw, spec.target.backend_id, "data_pw_testid_buckeye", spec.uid)
    keep = [spec.target.backend_id] + [n.backend_id for n in spec.negatives]
    operation = {"original_op": spec.original_op or spec.op, "value": spec.value}
    if spec.op is not None:
        operation["op"] = spec.op
    return {
        "action_uid": spec.uid,
        "raw_html": raw,
        "cleaned_html": to_mind2web_cleaned_html(state, keep_backend_ids=keep),
        "operation": operation,
        "pos_candidates": [candidate(spec.target, True)],
        "neg_candidates": [candidate(n, False) for n in spec.negatives],
    }


def make_task(annotation_id: str, page: str, specs: list[ActionSpec], task: str,
              website: str = "acme", domain: str = "Shopping", subdomain: str = "General") -> dict:  # fmt: skip
    state = fixture_page(page)
    return {
        "annotation_id": annotation_id,
        "website": website,
        "domain": domain,
        "subdomain": subdomain,
        "confirmed_task": task,
        "action_reprs": [action_repr(state, s) for s in specs],
        "actions": [make_action(state, s, specs[:i]) for i, s in enumerate(specs)],
    }


def shop_task(annotation_id: str = "a1b2c3") -> dict:
    """Search for a kettle, hover the Kitchen link, add the first kettle to the cart."""
    state = fixture_page("shop.html")
    search = find(state, "input", id="q")
    negatives = [find(state, "a", "Account"), find(state, "a", "Cart")]
    specs = [
        ActionSpec(f"{annotation_id}-u0", search, "TYPE", "kettle", negatives=negatives),
        ActionSpec(f"{annotation_id}-u1", find(state, "button", "Search"), None, "",
                   original_op="ENTER", negatives=negatives),
        ActionSpec(f"{annotation_id}-u2", find(state, "a", "Kitchen"), "CLICK", "", "HOVER"),
        ActionSpec(f"{annotation_id}-u3", find(state, "button", "Add to Cart"), "CLICK",
                   negatives=[find(state, "a", "Classic Kettle 1")]),
    ]  # fmt: skip
    return make_task(annotation_id, "shop.html", specs, "Add a kettle to the cart on Acme")


def select_task(annotation_id: str = "d4e5f6") -> dict:
    state = fixture_page("select.html")
    specs = [
        ActionSpec(f"{annotation_id}-u0", find(state, "select", id="country"), "SELECT", "Japan"),
        ActionSpec(f"{annotation_id}-u1", find(state, "button", "Save"), "CLICK"),
    ]
    return make_task(annotation_id, "select.html", specs, "Set my country to Japan and save",
                     website="prefs", domain="Info", subdomain="Settings")  # fmt: skip


def write_tasks(path: Path, tasks: list, gz: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(tasks)
    if gz:
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


LEAK = re.compile(r"buckeye", re.IGNORECASE)
