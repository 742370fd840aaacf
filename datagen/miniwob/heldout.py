"""The MiniWoB++ tasks no training run sees: one fixed set, the rule that chose it, and why.

    from datagen.miniwob.heldout import HELDOUT_TASKS, is_training_split
    HELDOUT_TASKS["click-pie"]  # -> why it is held out

Held-out *seeds* of the trained tasks test memory of a page layout; held-out *tasks* test
whether the student learned to use the tools. The set was fixed by this rule before any result
was looked at, over the 125 tasks of BrowserGym's MiniWoB benchmark
(``eval.browsergym.benchmark.TASKS``; ``choose_heldout`` re-derives it, a test checks that it
still gives ``HELDOUT_TASKS``):

1. the four tasks held out since the first dataset stay held out, so earlier results compare;
2. a task and its ``-nodelay`` twin are one unit (the same page; with animations off, the same
   task), held out together;
3. tasks a text-only agent cannot solve (``NOT_CANDIDATES``: pixel geometry on a canvas, a
   free-hand path, a picture to copy) are never chosen: their failure says nothing about
   generalisation;
4. units are stratified by family, the name's first word (click, enter, choose, email, drag,
   social, use, form, ...); families of fewer than three units share one stratum, ``other``;
5. each stratum holds out ``round(HELDOUT_SHARE * units)`` units (at least the kept ones of
   rule 1), the rest chosen in the order of ``sha256(SALT + unit)``.

``datagen record`` and ``datagen dagger`` never play a held-out task into a training split,
``datagen build`` sends their steps to ``test_website``, and eval labels them ``heldout_task``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

SALT = "pagescout-heldout/"
HELDOUT_SHARE = 0.2
TRAINING_SPLITS = ("train",)  # split folders whose episodes a training run reads
KEPT = ("click-tab-2", "login-user-popup", "email-inbox-reply", "choose-date-easy")
# the impossible tasks as datagen/miniwob/policies/impossible.py listed them when the set was
# fixed; written out, so a later change to that list cannot redraw the held-out set
NOT_CANDIDATES = frozenset({
    "bisect-angle", "circle-center", "count-sides", "draw-circle", "draw-line", "drag-cube",
    "find-midpoint", "grid-coordinate", "highlight-text", "highlight-text-2", "hot-cold",
    "number-checkboxes", "right-angle", "use-colorwheel", "use-colorwheel-2",
})

_KEPT = "held out since the first dataset (kept so earlier results compare)"
_DRAWN = "drawn by the rule from stratum {}"
_TWIN = "the -nodelay twin of {}"

# choose_heldout(eval.browsergym.benchmark.TASKS), written out (tests/datagen/test_heldout.py)
HELDOUT_TASKS: dict[str, str] = {
    "choose-date-easy": _KEPT,
    "click-collapsible-2": _DRAWN.format("click"),
    "click-collapsible-2-nodelay": _TWIN.format("click-collapsible-2"),
    "click-dialog": _DRAWN.format("click"),
    "click-link": _DRAWN.format("click"),
    "click-pie": _DRAWN.format("click"),
    "click-pie-nodelay": _TWIN.format("click-pie"),
    "click-shades": _DRAWN.format("click"),
    "click-tab-2": _KEPT,
    "daily-calendar": _DRAWN.format("other"),
    "drag-box": _DRAWN.format("drag"),
    "drag-sort-numbers": _DRAWN.format("drag"),
    "email-inbox-forward": _DRAWN.format("email"),
    "email-inbox-reply": _KEPT,
    "enter-date": _DRAWN.format("enter"),
    "focus-text-2": _DRAWN.format("other"),
    "form-sequence-3": _DRAWN.format("form"),
    "login-user-popup": _KEPT,
    "order-food": _DRAWN.format("other"),
    "phone-book": _DRAWN.format("other"),
    "simple-algebra": _DRAWN.format("other"),
    "simple-arithmetic": _DRAWN.format("other"),
    "social-media-some": _DRAWN.format("social"),
    "tic-tac-toe": _DRAWN.format("other"),
    "use-spinner": _DRAWN.format("use"),
}


def unit_of(task: str) -> str:
    """The task a ``-nodelay`` twin belongs to (rule 2); other tasks are their own unit."""
    return task.removesuffix("-nodelay")


def family_of(task: str) -> str:
    """The task's family: the first word of its name (``email-inbox-reply`` -> ``email``); also
    the ``subdomain`` of the task files the recorder writes."""
    return task.split("-", 1)[0]


def stratum_of(task: str, strata: set[str]) -> str:
    family = family_of(task)
    return family if family in strata else "other"


def choose_heldout(tasks: Iterable[str]) -> dict[str, str]:
    """The held-out set the rule of the module docstring draws from ``tasks``: {task: reason}."""
    tasks = list(tasks)
    units = sorted({unit_of(t) for t in tasks if t not in NOT_CANDIDATES})
    families: dict[str, list[str]] = {}
    for unit in units:
        families.setdefault(family_of(unit), []).append(unit)
    big = {f for f, members in families.items() if len(members) >= 3}
    strata: dict[str, list[str]] = {}
    for unit in units:
        strata.setdefault(stratum_of(unit, big), []).append(unit)
    chosen: dict[str, str] = {}
    for name, members in sorted(strata.items()):
        kept = [u for u in members if u in KEPT]
        want = max(len(kept), int(len(members) * HELDOUT_SHARE + 0.5))
        rest = sorted((u for u in members if u not in KEPT), key=_rank)
        chosen |= {u: _KEPT for u in kept}
        chosen |= {u: _DRAWN.format(name) for u in rest[: want - len(kept)]}
    out = {}
    for task in sorted(tasks):
        unit = unit_of(task)
        if unit in chosen:
            out[task] = chosen[unit] if task == unit else _TWIN.format(unit)
    return out


def _rank(unit: str) -> str:
    return hashlib.sha256((SALT + unit).encode()).hexdigest()


def is_training_split(split: str) -> bool:
    return split in TRAINING_SPLITS


def heldout_in(tasks: Iterable[str]) -> list[str]:
    """The held-out tasks among ``tasks``, in their order."""
    return [t for t in tasks if t in HELDOUT_TASKS]


def refusal(tasks: list[str], key: str, split: str) -> str:
    """The config problem for held-out ``tasks`` asked of training split ``split``."""
    return (f"{key}: {', '.join(tasks)} are held out of training (datagen.miniwob.heldout."
            f"HELDOUT_TASKS) and split {split!r} is a training split; drop them, or record "
            "them into another split (e.g. split=heldout) for evaluation")
