"""One Mind2Web task -> its Steps: the schema of FACTS.md, checked field by field.

    check_task(task)                      # raises Problem for a task that cannot give steps
    step = make_step(task, index, notes)  # the index-th action as a Step; raises Problem

A task (``annotation_id, website, domain, subdomain, confirmed_task, action_reprs, actions``)
gives one Step per action: ``step_id = "<annotation_id>:<action_uid>"``, the previous
``action_reprs`` as history, the operation (``op`` or, without it, ``original_op``; HOVER and ENTER
count as CLICK, which carries no value; pagescout's recorded SCROLL/DRAG/CLEAR/SELECT_TEXT are op
CLICK with their value kept), the positives as backend ids (``backend_node_id`` is a string in the
files; a candidate's ``attributes`` is a JSON string), and the page built from
``raw_html`` -- or from ``cleaned_html`` when the raw form is missing, empty or unparseable -- with
the label-leak markers stripped by ``pipeline.html.source``.

A record that cannot become a Step raises ``Problem(reason, message)``; a defect the step survives
(a candidate with broken ``attributes``, raw_html that needed the fallback) is appended to
``notes`` as a Problem with ``dropped=False``. ``REASONS`` lists every reason code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from datagen.records import Executed, Operation, Step
from pipeline.errors import FormatError
from pipeline.html.mind2web_format import EXTENSION_OPS
from pipeline.html.source import page_from_html
from pipeline.page_state import PageState

REASONS = {
    "unreadable_file": "the task file cannot be opened or read (I/O error, corrupt gzip)",
    "malformed_json": "the file is not a well-formed JSON array; the rest of the file is lost",
    "not_a_task": "an element of the array is not a JSON object",
    "task_missing_field": "a task lacks a required field or has one of the wrong type",
    "task_inconsistent": "action_reprs and actions differ in length",
    "action_missing_field": "an action lacks a required field or has one of the wrong type",
    "bad_operation": "the operation is not CLICK/TYPE/SELECT (or HOVER/ENTER)",
    "bad_candidate": "a positive candidate has no integer backend_node_id (candidate skipped)",
    "bad_candidate_attributes": "a positive's attributes are not a JSON object (step kept)",
    "bad_html": "neither raw_html nor cleaned_html gives a page",
    "raw_html_fallback": "raw_html did not parse; the page comes from cleaned_html (step kept)",
    "no_positive": "the action has no usable positive candidate",
    "positive_not_in_page": "a positive's backend id is not in the page",
    "duplicate_step": "the step id was already read (same annotation_id and action_uid)",
}
_OPS = {"CLICK": "CLICK", "TYPE": "TYPE", "SELECT": "SELECT", "HOVER": "CLICK", "ENTER": "CLICK"}
_OPS |= {name: "CLICK" for name in EXTENSION_OPS}  # pagescout's own, e.g. SCROLL, SELECT_TEXT
_TASK_TEXT = ("annotation_id", "website", "confirmed_task")
_TASK_OPTIONAL = ("domain", "subdomain")


class Problem(Exception):
    """Why a record gives no Step (``dropped``), or a defect it survived (``dropped=False``)."""

    def __init__(self, reason: str, message: str, dropped: bool = True) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown reason code {reason!r}; add it to REASONS")
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.dropped = dropped


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """One element of a task file, with where it came from."""

    origin: str  # the task file
    offset: int  # byte offset of the task in the (uncompressed) file
    index: int  # position of the task in the file
    split: str  # train / test_task / test_website / test_domain, or "" when unknown
    data: Any  # the decoded JSON element (a dict for a well-formed task)

    @property
    def annotation_id(self) -> str:
        value = self.data.get("annotation_id") if isinstance(self.data, dict) else None
        return value if isinstance(value, str) else ""

    @property
    def where(self) -> str:
        return f"{self.origin} (task {self.index} at byte {self.offset})"


def check_task(task: TaskRecord) -> None:
    """Raise Problem unless the task has every field a Step needs, with the right types."""
    data = task.data
    if not isinstance(data, dict):
        raise Problem("not_a_task", f"element {task.index} is a {_kind(data)}, not a task object")
    for key in _TASK_TEXT:
        if not _nonempty_str(data.get(key)):
            raise Problem(
                "task_missing_field", f"{key!r} is {_shown(data, key)}; expected a string"
            )
    for key in _TASK_OPTIONAL:
        if not isinstance(data.get(key, ""), str):
            raise Problem(
                "task_missing_field", f"{key!r} is {_shown(data, key)}; expected a string"
            )
    actions, reprs = data.get("actions"), data.get("action_reprs")
    if not isinstance(actions, list):
        raise Problem(
            "task_missing_field", f"'actions' is {_shown(data, 'actions')}; expected a list"
        )
    if not isinstance(reprs, list) or not all(isinstance(r, str) for r in reprs):
        raise Problem("task_missing_field", "'action_reprs' is not a list of strings")
    if len(reprs) != len(actions):
        raise Problem("task_inconsistent",
                      f"{len(reprs)} action_reprs for {len(actions)} actions")  # fmt: skip


def make_step(task: TaskRecord, index: int, notes: list[Problem], source: str = "mind2web") -> Step:
    """The ``index``-th action of a checked task as a Step with an inline page."""
    data = task.data
    action = data["actions"][index]
    if not isinstance(action, dict):
        raise Problem("action_missing_field", f"action {index} is a {_kind(action)}, not an object")
    uid = action.get("action_uid")
    if not _nonempty_str(uid):
        raise Problem("action_missing_field", f"'action_uid' is {_shown(action, 'action_uid')}")
    operation = parse_operation(action.get("operation"))
    candidates = action.get("pos_candidates")
    if not isinstance(candidates, list):
        raise Problem("action_missing_field", "'pos_candidates' is missing or not a list")
    positives = positive_ids(candidates, notes)
    if not positives:
        raise Problem("no_positive", f"{len(candidates)} pos_candidates, none usable")
    page = parse_page(action, f"{task.origin}: {data['annotation_id']}:{uid}", notes)
    positives = _in_page(positives, page, notes)
    return Step(
        step_id=f"{data['annotation_id']}:{uid}",
        task=data["confirmed_task"],
        history=list(data["action_reprs"][:index]),
        positives=positives,
        operation=operation,
        source=source,
        annotation_id=data["annotation_id"],
        action_uid=uid,
        step_index=index,
        website=data["website"],
        domain=data.get("domain", ""),
        subdomain=data.get("subdomain", ""),
        split=task.split,
        page=page,
        executed=parse_executed(action.get("dagger")),
    )


def parse_executed(raw: Any) -> Executed | None:
    """A DAgger action's ``dagger.executed`` (the student's call where it was not the label), or
    None for an action without one (every Mind2Web and recorded oracle action)."""
    if raw is None or not isinstance(raw, dict) or raw.get("executed") is None:
        return None
    executed = raw["executed"]
    elements = executed.get("elements", {}) if isinstance(executed, dict) else None
    if not isinstance(executed, dict) or not _nonempty_str(executed.get("name")) \
            or not isinstance(executed.get("arguments", {}), dict) \
            or not isinstance(elements, dict):
        raise Problem("action_missing_field",
                      f"'dagger.executed' is {_shown(raw, 'executed')}; expected "
                      "{name, arguments, elements}")
    for key, backend_id in elements.items():
        if not isinstance(backend_id, int) or isinstance(backend_id, bool):
            raise Problem("action_missing_field", f"'dagger.executed.elements.{key}' is "
                          f"{backend_id!r}; expected a backend node id (an integer)")
    return Executed(executed["name"], dict(executed.get("arguments", {})), dict(elements))


def parse_operation(raw: Any) -> Operation:
    """``{op, original_op, value}`` -> Operation; HOVER/ENTER become CLICK, CLICK has no value
    (but pagescout's extension ops, op CLICK, keep theirs: a scroll direction, a drag target)."""
    if not isinstance(raw, dict):
        raise Problem("action_missing_field", "'operation' is missing or not an object")
    op, original = raw.get("op"), raw.get("original_op")
    name = op if op is not None else original
    if name is None:
        raise Problem("action_missing_field", "the operation has neither 'op' nor 'original_op'")
    if not isinstance(name, str) or name.upper() not in _OPS:
        raise Problem("bad_operation", f"operation {name!r} is not one of {', '.join(_OPS)}")
    value = raw.get("value")
    if value is not None and not isinstance(value, (str, int, float)):
        raise Problem("bad_operation", f"operation value {value!r} is not a string")
    kind = _OPS[name.upper()]
    original = original if isinstance(original, str) else name
    keep = kind != "CLICK" or original in EXTENSION_OPS
    return Operation(
        op=kind,  # type: ignore[arg-type]
        value="" if not keep or value is None else str(value),
        original_op=original,
    )


def positive_ids(candidates: list[Any], notes: list[Problem]) -> list[int]:
    """Backend ids of the positive candidates, in order, without repeats."""
    ids: list[int] = []
    for n, candidate in enumerate(candidates):
        if not isinstance(candidate, dict):
            notes.append(Problem("bad_candidate", f"pos_candidates[{n}] is not an object", False))
            continue
        attributes = candidate_attributes(candidate, f"pos_candidates[{n}]", notes)
        backend_id = _backend_id(candidate.get("backend_node_id"))
        if backend_id is None:
            backend_id = _backend_id(attributes.get("backend_node_id"))
        if backend_id is None:
            shown = candidate.get("backend_node_id")
            notes.append(Problem("bad_candidate",
                                 f"pos_candidates[{n}] backend_node_id {shown!r} is not an integer",
                                 False))  # fmt: skip
        elif backend_id not in ids:
            ids.append(backend_id)
    return ids


def candidate_attributes(candidate: dict, name: str, notes: list[Problem]) -> dict[str, Any]:
    """A candidate's ``attributes`` (a JSON string in the files) as a dict; {} when broken."""
    raw = candidate.get("attributes")
    if raw is None or isinstance(raw, dict):
        return raw or {}
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else None
    except json.JSONDecodeError as exc:
        notes.append(Problem("bad_candidate_attributes", f"{name}: attributes: {exc}", False))
        return {}
    if not isinstance(parsed, dict):
        shown = _kind(parsed if isinstance(raw, str) else raw)
        notes.append(Problem("bad_candidate_attributes",
                             f"{name}: attributes is a {shown}, not a JSON object", False))  # fmt: skip
        return {}
    return parsed


def parse_page(action: dict, origin: str, notes: list[Problem]) -> PageState:
    """The page from ``raw_html``, else from ``cleaned_html`` (noted as ``raw_html_fallback``
    when the action has a ``raw_html`` that is empty, null or unreadable); Problem ``bad_html``
    if neither."""
    raw, cleaned = action.get("raw_html"), action.get("cleaned_html")
    if raw is None and cleaned is None:
        raise Problem("action_missing_field", "the action has neither raw_html nor cleaned_html")
    failures: list[str] = []
    for key, html, kind in (("raw_html", raw, "mind2web_raw"),
                            ("cleaned_html", cleaned, "mind2web_cleaned")):  # fmt: skip
        if not isinstance(html, str) or not html.strip():
            failures.append(f"{key} is {'empty' if isinstance(html, str) else _kind(html)}")
            continue
        try:
            page = page_from_html(html, kind=kind, origin=f"{origin} {key}")  # type: ignore[arg-type]
        except (FormatError, ValueError, RecursionError) as exc:
            failures.append(str(exc))
            continue
        if key == "cleaned_html" and "raw_html" in action:  # empty, null or unreadable
            notes.append(Problem("raw_html_fallback", f"{failures[0]}; the page comes from "
                                 "cleaned_html (no layout)", False))
        return page
    raise Problem("bad_html", "; ".join(failures))


def _in_page(positives: list[int], page: PageState, notes: list[Problem]) -> list[int]:
    in_page = page.by_backend_id()
    found = [b for b in positives if b in in_page]
    missing = [b for b in positives if b not in in_page]
    if not found:
        raise Problem("positive_not_in_page", f"backend ids {missing} are not in the page")
    if missing:
        notes.append(Problem("positive_not_in_page",
                             f"backend ids {missing} are not in the page; kept {found}", False))  # fmt: skip
    return found


def _backend_id(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _nonempty_str(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _shown(data: dict, key: str) -> str:
    return "missing" if key not in data else f"{data[key]!r:.60}"


def _kind(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", type(None): "null"}.get(
        type(value), type(value).__name__
    )
