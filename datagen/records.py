"""The records datagen passes between its stages: Step, Verdict and Trajectory.

    Mind2Web task file / recorded dump ─► Step ─► teacher ─► Trajectory ─► verifier ─► dataset

A **Step** is one action of one task: the instruction, the previous actions (Mind2Web's
``action_reprs``), the page (a PageState inline, or a path to a ``.json.gz``), the positive
elements as backend node ids, the operation, and the split keys. A **Trajectory** is a Step's
conversation in the TRL conversational tool format (``messages`` with ``tool_calls`` and
``role: tool`` turns, a ``tools`` list of JSON schemas) plus one **Verdict** per verifier stage.
Both round-trip through JSON (``to_dict``/``from_dict``) with a ``schema_version``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from pipeline.agent.modes import Mode
from pipeline.errors import FormatError
from pipeline.page_state import PageState

SCHEMA_VERSION = 1

Op = Literal["CLICK", "TYPE", "SELECT"]
Stage = Literal["format", "execution", "semantic"]
Status = Literal["pass", "fail", "skipped"]
STAGES: tuple[Stage, ...] = ("format", "execution", "semantic")


@dataclass(slots=True)
class Operation:
    op: Op
    value: str = ""  # typed text / selected option; "" for CLICK
    original_op: str | None = None  # Mind2Web's original_op (HOVER and ENTER count as CLICK)

    @property
    def pressed_key(self) -> str | None:
        """The key the step presses: see ``pressed_key``."""
        return pressed_key(self.original_op, self.value)


def pressed_key(original_op: str | None, value: str) -> str | None:
    """The key an operation presses where the focus is: a PRESS's own key, and Enter for
    Mind2Web's ENTER (recorded as op CLICK on the element the key went to, the focused field: a
    click there presses nothing live); None for an operation on an element."""
    if original_op == "PRESS":
        return value
    return "Enter" if original_op == "ENTER" else None


def names_element(original_op: str | None, value: str) -> bool:
    """Whether an operation's call names its element: not a key press (it goes where the focus
    is) nor a passage to select (its text finds it)."""
    return original_op != "SELECT_TEXT" and pressed_key(original_op, value) is None


@dataclass(slots=True)
class Executed:
    """What a DAgger step actually did where that is not its label: the student's tool call, its
    element arguments (``index``, a drag's ``to_index``) given as the page's backend ids in
    ``elements`` rather than as refs, which only hold for the page as it was distilled live."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)  # the call's other arguments
    elements: dict[str, int] = field(default_factory=dict)  # argument name -> backend id


@dataclass(slots=True)
class Step:
    step_id: str  # "<annotation_id>:<action_uid>", unique in a dump
    task: str  # the instruction (Mind2Web confirmed_task, MiniWoB++ utterance)
    history: list[str]  # previous action_reprs, oldest first
    positives: list[int]  # backend node ids of the correct elements (may be empty)
    operation: Operation
    source: str  # "mind2web" or "miniwob"
    annotation_id: str
    action_uid: str
    step_index: int  # position of the action in its task
    website: str
    domain: str = ""
    subdomain: str = ""
    split: str = ""  # the dump's split name (train, test_task, ...) when known
    page: PageState | None = None  # inline page state ...
    page_path: str | None = None  # ... or a saved one (``PageState.load``)
    executed: Executed | None = None  # a DAgger step: what the student did instead of the label
    schema_version: int = SCHEMA_VERSION

    def load_page(self) -> PageState:
        if self.page is not None:
            return self.page
        if self.page_path is None:
            raise FormatError(f"step {self.step_id}: has neither an inline page nor a page_path")
        return PageState.load(self.page_path)

    def to_dict(self, inline_page: bool = True) -> dict[str, Any]:
        data = {k: v for k, v in asdict_shallow(self).items() if k != "page"}
        data["operation"] = asdict(self.operation)
        data["executed"] = None if self.executed is None else asdict(self.executed)
        if inline_page and self.page is not None:
            data["page"] = self.page.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], origin: str = "<step>") -> Step:
        _check_version(data, origin)
        try:
            fields_ = dict(data)
            fields_["operation"] = Operation(**fields_["operation"])
            if fields_.get("executed") is not None:
                fields_["executed"] = Executed(**fields_["executed"])
            page = fields_.pop("page", None)
            step = cls(**fields_)
        except (KeyError, TypeError) as exc:
            raise FormatError(f"{origin}: not a Step: {exc}") from exc
        if page is not None:
            step.page = PageState.from_dict(page, origin=f"{origin}.page")
        return step


@dataclass(slots=True)
class Verdict:
    stage: Stage
    status: Status
    reason: str = ""  # a short machine-friendly reason code, then details: "no_positive: ..."

    @property
    def code(self) -> str:
        """The reason code (the text before the first colon)."""
        return self.reason.split(":", 1)[0].strip()


@dataclass(slots=True)
class Trajectory:
    step_id: str
    mode: Mode
    teacher: str  # "oracle", "openai:<model>"
    messages: list[dict[str, Any]]  # TRL conversational format, tool_calls arguments as dicts
    tools: list[dict[str, Any]]  # the OpenAI function schemas offered to the model
    website: str = ""
    domain: str = ""
    split: str = ""  # the dataset split this record goes to (train / test_task / ...)
    verdicts: list[Verdict] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # seed, token usage, timings
    schema_version: int = SCHEMA_VERSION

    def verdict(self, stage: Stage) -> Verdict | None:
        return next((v for v in self.verdicts if v.stage == stage), None)

    @property
    def accepted(self) -> bool:
        """Every stage passed or was skipped (a skipped stage is never counted as passed)."""
        return bool(self.verdicts) and all(v.status != "fail" for v in self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        data = asdict_shallow(self)
        data["verdicts"] = [asdict(v) for v in self.verdicts]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], origin: str = "<trajectory>") -> Trajectory:
        _check_version(data, origin)
        try:
            fields_ = dict(data)
            fields_["verdicts"] = [Verdict(**v) for v in fields_.get("verdicts", [])]
            return cls(**fields_)
        except (KeyError, TypeError) as exc:
            raise FormatError(f"{origin}: not a Trajectory: {exc}") from exc


def asdict_shallow(obj: Any) -> dict[str, Any]:
    """Dataclass fields to a dict without recursing into nested records."""
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}


def _check_version(data: dict[str, Any], origin: str) -> None:
    version = data.get("schema_version", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise FormatError(f"{origin}: schema_version {version!r} is not supported "
                          f"(this pagescout reads {SCHEMA_VERSION})")


def step_path(root: str | Path, step_id: str) -> Path:
    """Where a step's page state is stored under ``root`` (ids may hold ':' and '/')."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in step_id)
    return Path(root) / f"{safe}.json.gz"
