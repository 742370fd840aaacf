"""The labelled retrieval set: (page, instruction, target element) cases and their targets' refs.

``data/retrieval_cases.jsonl`` holds one case a line over the fixture pages and seeded MiniWoB++
task pages::

    {"id": "shop-add-compact-kettle-3", "page": "shop.html",
     "instruction": "Put the Compact Kettle 3 in my basket",
     "target": {"css": "[data-sku=\\"SKU-0003\\"] button.add"}, "op": "CLICK"}
    {"id": "mw-login-user-username", "page": "mw:login-user", "seed": 42, ...,
     "target": {"css": "#username"}, "op": "TYPE", "value": "kenda"}

``target.css`` matches exactly one element of the live page, searched in the document and in every
open shadow root inside it (as Playwright's css engine does); ``target.frame`` (optional) is the
CSS of a same-origin iframe whose document holds the target. The recall benchmark walks the set::

    for case, page, ref in iter_loaded_cases(load_cases()):
        ...  # build a query from case.instruction, find where ref ranks among the results

Run ``python benchmarks/retrieval_cases.py`` to load and resolve every case and print the counts.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make `pipeline` importable
    sys.path.insert(0, str(REPO))

from pipeline.capture import CaptureSession
from pipeline.distill import DistilledPage, DistillOptions, distill
from pipeline.errors import FormatError, PagescoutError
from pipeline.live.browser import BrowserConfig
from pipeline.live.miniwob import MiniwobError, check_task, serve_miniwob, task_url
from pipeline.live.static_server import serve_directory
from pipeline.report.page_set import FIXTURE_DIR, PageSpec, fixture_pages, load_page

DEFAULT_PATH = Path(__file__).with_name("data") / "retrieval_cases.jsonl"
MINIWOB_PREFIX = "mw:"
OPS = ("CLICK", "TYPE", "SELECT")
ANCESTOR_LEVELS = 3  # a target without a ref resolves to the nearest ref this many levels up
FIELDS = {"id", "page", "seed", "instruction", "target", "op", "value"}
TARGET_FIELDS = {"css", "frame"}
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")
OBJECT_GROUP = "pagescout-retrieval-target"

# Finds the one element `css` matches in the document (or the document of the iframe `frameCss`),
# looking into open shadow roots too; throws with the number of matches otherwise.
FIND_TARGET_JS = """(frameCss, css) => {
  const deepAll = (root, selector) => {
    const found = [...root.querySelectorAll(selector)];
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) found.push(...deepAll(el.shadowRoot, selector));
    }
    return found;
  };
  const one = (root, selector, what) => {
    const found = deepAll(root, selector);
    if (found.length !== 1) throw new Error(`${what} ${selector} matches ${found.length} elements`);
    return found[0];
  };
  let root = document;
  if (frameCss) {
    root = one(document, frameCss, 'frame').contentDocument;
    if (!root) throw new Error(`frame ${frameCss} has no readable document (cross-origin?)`);
  }
  return one(root, css, 'css');
}"""


class TargetError(PagescoutError):
    """A case's target cannot be found in the live page or has no ref in the distilled page."""


@dataclass(frozen=True, slots=True)
class Target:
    css: str
    frame: str | None = None  # CSS of the same-origin iframe whose document holds the target


@dataclass(frozen=True, slots=True)
class RetrievalCase:
    id: str
    page: str  # a fixture file name ("shop.html") or "mw:<task>"
    instruction: str
    target: Target
    op: str  # CLICK | TYPE | SELECT
    value: str | None = None  # the text to type or the option to select
    seed: int | None = None  # MiniWoB++ episode seed

    @property
    def task(self) -> str | None:
        """The MiniWoB++ task name, None for a fixture page."""
        return self.page.removeprefix(MINIWOB_PREFIX) if self.is_miniwob else None

    @property
    def is_miniwob(self) -> bool:
        return self.page.startswith(MINIWOB_PREFIX)

    @property
    def page_key(self) -> tuple[str, int | None]:
        """Cases with the same key share one loaded page."""
        return (self.page, self.seed)


class ResolvedCase(NamedTuple):
    case: RetrievalCase
    page: DistilledPage
    target_ref: int


# --- the file -----------------------------------------------------------------------------------
def load_cases(path: Path | str = DEFAULT_PATH) -> list[RetrievalCase]:
    """Read and validate every line; raises FormatError naming the line and the field."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise FormatError(f"cannot read the retrieval cases {path}: {exc.strerror}") from exc
    cases, first_line = [], {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"{where}: not a JSON object ({exc.msg}, column {exc.colno})") from exc
        case = parse_case(data, where)
        if case.id in first_line:
            raise FormatError(f"{where}: id {case.id!r} is already used on line "
                              f"{first_line[case.id]}; give every case its own id")
        first_line[case.id] = number
        cases.append(case)
    if not cases:
        raise FormatError(f"{path} holds no cases")
    return cases


def parse_case(data: Any, where: str) -> RetrievalCase:
    """One validated case from a decoded JSON line; ``where`` prefixes every error."""
    if not isinstance(data, dict):
        raise FormatError(f"{where}: a case is a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise FormatError(f"{where}: unknown field(s) {unknown}; known: {sorted(FIELDS)}")
    text = {name: _text(data, name, where) for name in ("id", "page", "instruction", "op")}
    if not ID_PATTERN.match(text["id"]):
        raise FormatError(f"{where}: field 'id' {text['id']!r} must be lower-case letters, "
                          "digits and '-'")
    if text["op"] not in OPS:
        raise FormatError(f"{where}: field 'op' must be one of {', '.join(OPS)}, "
                          f"got {text['op']!r}")
    return RetrievalCase(
        id=text["id"],
        page=_check_page(text["page"], where),
        instruction=text["instruction"],
        target=_target(data.get("target"), where),
        op=text["op"],
        value=_value(data, text["op"], where),
        seed=_seed(data, text["page"], where),
    )


def _text(data: dict, name: str, where: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise FormatError(f"{where}: field {name!r} must be a non-empty string, got {value!r}")
    return value


def _check_page(page: str, where: str) -> str:
    if page.startswith(MINIWOB_PREFIX):
        try:
            check_task(page.removeprefix(MINIWOB_PREFIX))
        except MiniwobError as exc:
            raise FormatError(f"{where}: field 'page': {exc}") from exc
        return page
    if page not in fixture_pages():
        raise FormatError(f"{where}: field 'page' {page!r} is not a fixture page; choose one of "
                          f"{', '.join(fixture_pages())} or 'mw:<task>'")
    return page


def _target(target: Any, where: str) -> Target:
    if not isinstance(target, dict) or not isinstance(target.get("css"), str):
        raise FormatError(f"{where}: field 'target' must be an object with a 'css' string, "
                          f"got {target!r}")
    unknown = sorted(set(target) - TARGET_FIELDS)
    if unknown:
        raise FormatError(f"{where}: field 'target' has unknown key(s) {unknown}; "
                          f"known: {sorted(TARGET_FIELDS)}")
    frame = target.get("frame")
    if frame is not None and (not isinstance(frame, str) or not frame.strip()):
        raise FormatError(f"{where}: field 'target.frame' must be an iframe's CSS, got {frame!r}")
    if not target["css"].strip():
        raise FormatError(f"{where}: field 'target.css' is empty")
    return Target(css=target["css"], frame=frame)


def _value(data: dict, op: str, where: str) -> str | None:
    value = data.get("value")
    if op == "CLICK":
        if value is not None:
            raise FormatError(f"{where}: field 'value' is only for TYPE and SELECT, not CLICK")
        return None
    if not isinstance(value, str) or value == "":
        raise FormatError(f"{where}: field 'value' must be a non-empty string for {op}, "
                          f"got {value!r}")
    return value


def _seed(data: dict, page: str, where: str) -> int | None:
    seed = data.get("seed")
    if not page.startswith(MINIWOB_PREFIX):
        if seed is not None:
            raise FormatError(f"{where}: field 'seed' is only for MiniWoB++ pages ('mw:<task>')")
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise FormatError(f"{where}: field 'seed' must be an integer for a MiniWoB++ page, "
                          f"got {seed!r}")
    return seed


# --- targets in the live page -------------------------------------------------------------------
async def _with_target(page: Any, case: RetrievalCase, method: str, params: dict) -> dict:
    """Find the case's target in the live Playwright ``page`` and send one CDP call about it
    (``params`` gain its ``objectId``)."""
    cdp = await page.context.new_cdp_session(page)
    try:
        args = json.dumps([case.target.frame, case.target.css])
        found = await cdp.send("Runtime.evaluate", {
            "expression": f"({FIND_TARGET_JS})(...{args})", "objectGroup": OBJECT_GROUP,
        })
        if "exceptionDetails" in found:
            detail = found["exceptionDetails"].get("exception", {}).get("description", "")
            reason = detail.splitlines()[0].removeprefix("Error: ") if detail else found
            raise TargetError(f"case {case.id}: {reason}; "
                              "fix the case's target.css so it matches exactly one element")
        return await cdp.send(method, {**params, "objectId": found["result"]["objectId"]})
    finally:
        await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": OBJECT_GROUP})
        await cdp.detach()


def target_backend_id(session: CaptureSession, case: RetrievalCase) -> int:
    """CDP backend node id of the case's target in the page loaded in ``session``."""
    described = session.run(_with_target(session.page, case, "DOM.describeNode", {}))
    return int(described["node"]["backendNodeId"])


def target_text(session: CaptureSession, case: RetrievalCase) -> str:
    """The target's visible text (``innerText``, whitespace collapsed)."""
    result = session.run(_with_target(session.page, case, "Runtime.callFunctionOn", {
        "functionDeclaration": "function () { return this.innerText || ''; }",
        "returnByValue": True,
    }))
    return " ".join(str(result["result"].get("value", "")).split())


def ref_for_backend_id(page: DistilledPage, backend_id: int, case_id: str) -> int:
    """The ref of the element with ``backend_id``, or of its nearest ancestor within
    ``ANCESTOR_LEVELS`` levels that has one (a span inside a button)."""
    refs = {page.backend_id(ref): ref for ref in page.refs}
    node_id = page.state.by_backend_id().get(backend_id)
    if node_id is None:
        raise TargetError(f"case {case_id}: the target (backend id {backend_id}) is not in the "
                          "captured page state; was the page changed after the capture?")
    node = page.state.nodes[node_id]
    for _ in range(ANCESTOR_LEVELS + 1):
        if node.backend_id in refs:
            return refs[node.backend_id]
        if node.parent is None:
            break
        node = page.state.nodes[node.parent]
    target = page.state.nodes[node_id]
    raise TargetError(f"case {case_id}: the target <{target.tag}> (node {node_id}) has no ref, "
                      f"nor does any ancestor within {ANCESTOR_LEVELS} levels; the distilled "
                      "page dropped it or never marked it interactive")


def resolve_target(session: CaptureSession, page: DistilledPage, case: RetrievalCase) -> int:
    """The ref of the case's target in ``page``, the distillation of the page live in ``session``."""
    return ref_for_backend_id(page, target_backend_id(session, case), case.id)


# --- walking the set ----------------------------------------------------------------------------
def _group(cases: Iterable[RetrievalCase]) -> dict[tuple[str, int | None], list[RetrievalCase]]:
    groups: dict[tuple[str, int | None], list[RetrievalCase]] = {}
    for case in cases:
        groups.setdefault(case.page_key, []).append(case)
    return groups


def _spec(case: RetrievalCase, fixture_base: str | None, miniwob_base: str | None) -> PageSpec:
    if case.is_miniwob:
        return PageSpec(case.page, task_url(miniwob_base, case.task), case.task, case.seed)
    return PageSpec(Path(case.page).stem, f"{fixture_base}/{case.page}")


def iter_loaded_cases(
    cases: Iterable[RetrievalCase],
    session: CaptureSession | None = None,
    options: DistillOptions | None = None,
) -> Iterator[ResolvedCase]:
    """Serve the fixtures and MiniWoB++ (one server each, only if needed), load each distinct
    (page, seed) once, distil it, and yield every case with its page and target ref.

    All cases of a page are resolved before the first of them is yielded, so a caller may act on
    the page between yields. Without ``session`` one is opened (and closed) here.
    """
    groups = _group(cases)
    with ExitStack() as stack:
        fixture_base = miniwob_base = None
        if any(not key[0].startswith(MINIWOB_PREFIX) for key in groups):
            fixture_base = stack.enter_context(serve_directory(FIXTURE_DIR))
        if any(key[0].startswith(MINIWOB_PREFIX) for key in groups):
            miniwob_base = stack.enter_context(serve_miniwob())
        if session is None:
            session = stack.enter_context(CaptureSession(BrowserConfig()))
        for group in groups.values():
            loaded = load_page(session, _spec(group[0], fixture_base, miniwob_base))
            page = distill(loaded.state, options)
            resolved = [ResolvedCase(c, page, resolve_target(session, page, c)) for c in group]
            yield from resolved


def main() -> None:
    """Load and resolve every case; print the cases per page and the time taken."""
    cases = load_cases(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PATH)
    start = time.perf_counter()
    resolved = list(iter_loaded_cases(cases))
    seconds = time.perf_counter() - start
    for page, count in sorted(Counter(r.case.page for r in resolved).items()):
        print(f"{page:28} {count:3}")
    fixture = sum(not c.is_miniwob for c in cases)
    print(f"{len(resolved)} cases ({fixture} fixture, {len(cases) - fixture} MiniWoB++) on "
          f"{len(_group(cases))} loaded pages, resolved in {seconds:.1f} s")


if __name__ == "__main__":
    main()
