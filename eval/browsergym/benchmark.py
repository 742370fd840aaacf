"""BrowserGym's MiniWoB benchmark as its leaderboard plays it, reproduced without BrowserGym.

    episodes = benchmark_episodes()           # 625 BenchmarkEpisode(task, seed), leaderboard order
    reserved = page_seeds()                   # {task: [Math.seedrandom values of those pages]}
    training_conflicts([("click-button", 7)]) # the pairs that would put a benchmark page in training
    leaderboard_rows()                        # the published text-only rows, for the report

browsergym-experiments 0.14.3 defines the benchmark (``benchmark/configs.py``,
``DEFAULT_BENCHMARKS["miniwob"]``) as ``make_env_args_list_from_repeat_tasks`` over the 125 tasks
of ``metadata/miniwob.csv`` in file order, ``n_repeats=5``, ``max_steps=10``, one
``np.random.RandomState(42)`` shared by all tasks, ``seeds_rng.randint(0, SEED_MAX, 5)`` per task
(``benchmark/utils.py``). ``SEED_MAX`` is ``2 ^ 32`` in ``loop.py``: Python's XOR, i.e. 34, so
every seed is in 0..33 and 35 of the 625 episodes repeat a (task, seed) pair of their task (590
distinct pairs). The bridge checks this list against the installed BrowserGym at start.

A BrowserGym seed is not the page's seed: the task draws ``np.random.RandomState(seed)
.randint(0, 1_000_000)`` and passes it to ``Math.seedrandom`` (``browsergym/miniwob/base.py``),
which is the number datagen's recorder also seeds pages with (it starts episodes in data mode
"train", BrowserGym in "default", so a shared number is a conservative match).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

META_SEED = 42  # np.random.RandomState(42) in DEFAULT_BENCHMARKS["miniwob"]
SEED_MAX = 2 ^ 32  # sic: BrowserGym's value; XOR, so 34 (the exclusive bound of its seeds)
SEEDS_PER_TASK = 5  # n_repeats
MAX_STEPS = 10
PAGE_SEED_MAX = 1_000_000  # the task's randint bound for Math.seedrandom
LEADERBOARD_EPISODES = 625

# metadata/miniwob.csv of browsergym-experiments 0.14.3, in file order (its task_name column
# without the "miniwob." prefix).
TASKS: tuple[str, ...] = (
    "ascending-numbers", "bisect-angle", "book-flight", "book-flight-nodelay", "buy-ticket",
    "choose-date", "choose-date-easy", "choose-date-medium", "choose-date-nodelay", "choose-list",
    "circle-center", "click-button", "click-button-sequence", "click-checkboxes",
    "click-checkboxes-large", "click-checkboxes-soft", "click-checkboxes-transfer",
    "click-collapsible", "click-collapsible-2", "click-collapsible-2-nodelay",
    "click-collapsible-nodelay", "click-color", "click-dialog", "click-dialog-2", "click-link",
    "click-menu", "click-menu-2", "click-option", "click-pie", "click-pie-nodelay",
    "click-scroll-list", "click-shades", "click-shape", "click-tab", "click-tab-2",
    "click-tab-2-easy", "click-tab-2-hard", "click-tab-2-medium", "click-test", "click-test-2",
    "click-test-transfer", "click-widget", "copy-paste", "copy-paste-2", "count-shape",
    "count-sides", "daily-calendar", "drag-box", "drag-circle", "drag-cube", "drag-items",
    "drag-items-grid", "drag-shapes", "drag-shapes-2", "drag-single-shape", "drag-sort-numbers",
    "draw-circle", "draw-line", "email-inbox", "email-inbox-delete", "email-inbox-forward",
    "email-inbox-forward-nl", "email-inbox-forward-nl-turk", "email-inbox-important",
    "email-inbox-nl-turk", "email-inbox-noscroll", "email-inbox-reply", "email-inbox-star-reply",
    "enter-date", "enter-password", "enter-text", "enter-text-2", "enter-text-dynamic",
    "enter-time", "find-greatest", "find-midpoint", "find-word", "focus-text", "focus-text-2",
    "form-sequence", "form-sequence-2", "form-sequence-3", "generate-number", "grid-coordinate",
    "guess-number", "highlight-text", "highlight-text-2", "hot-cold", "identify-shape",
    "login-user", "login-user-popup", "multi-layouts", "multi-orderings", "navigate-tree",
    "number-checkboxes", "odd-or-even", "order-food", "phone-book", "read-table", "read-table-2",
    "resize-textarea", "right-angle", "scroll-text", "scroll-text-2", "search-engine",
    "sign-agreement", "simple-algebra", "simple-arithmetic", "social-media", "social-media-all",
    "social-media-some", "stock-market", "terminal", "text-editor", "text-transform",
    "tic-tac-toe", "unicode-test", "use-autocomplete", "use-autocomplete-nodelay",
    "use-colorwheel", "use-colorwheel-2", "use-slider", "use-slider-2", "use-spinner",
    "visual-addition",
)

# The leaderboard's MiniWoB rows of text-only agents (GenericAgent: AXTree, no screenshot,
# BrowserGym's high-level action set), success % ± standard error over the 625 episodes. Source:
# the BrowserGym leaderboard (huggingface.co/spaces/ServiceNow/browsergym-leaderboard, MiniWoB
# tab), as recorded in the project's reference facts; the Claude-3.5-Sonnet, GPT-4o and
# GPT-4o-mini rows are the MiniWoB column of "The BrowserGym Ecosystem for Web Agent Research"
# (arXiv:2412.05467). Screenshot agents (e.g. OrbyAgent) are left out: ours reads text only.
_LEADERBOARD_TEXT_ONLY = (
    ("GenericAgent-GPT-5", 71.5, 1.8),
    ("GenericAgent-Claude-3.5-Sonnet", 69.8, 1.8),
    ("GenericAgent-GPT-4o", 63.8, 1.9),
    ("GenericAgent-GPT-4o-mini", 56.6, 2.0),
)


@dataclass(frozen=True, slots=True)
class BenchmarkEpisode:
    task: str  # without BrowserGym's "miniwob." prefix
    seed: int  # BrowserGym's task seed (env.reset(seed=...))

    @property
    def page_seed(self) -> int:
        """The ``Math.seedrandom`` value BrowserGym's task starts this episode's page with."""
        return page_seed(self.seed)


def benchmark_episodes() -> list[BenchmarkEpisode]:
    """The 625 episodes of ``DEFAULT_BENCHMARKS["miniwob"]``, in its order (tasks, then repeats)."""
    rng = np.random.RandomState(META_SEED)
    return [BenchmarkEpisode(task, int(seed)) for task in TASKS
            for seed in rng.randint(low=0, high=SEED_MAX, size=SEEDS_PER_TASK)]


def page_seed(seed: int) -> int:
    return int(np.random.RandomState(seed).randint(0, PAGE_SEED_MAX))


def benchmark_seeds() -> dict[str, list[int]]:
    """{task: the distinct BrowserGym seeds the benchmark plays it with}."""
    out: dict[str, set[int]] = {}
    for episode in benchmark_episodes():
        out.setdefault(episode.task, set()).add(episode.seed)
    return {task: sorted(seeds) for task, seeds in out.items()}


def page_seeds() -> dict[str, list[int]]:
    """{task: the ``Math.seedrandom`` values of the benchmark's pages}: the seeds a training set
    recorded with ``pipeline.live.miniwob.start_episode`` must not use for that task."""
    return {task: sorted({page_seed(s) for s in seeds})
            for task, seeds in benchmark_seeds().items()}


def training_conflicts(pairs: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The (task, page seed) pairs among ``pairs`` that would record a benchmark page."""
    reserved = {task: set(seeds) for task, seeds in page_seeds().items()}
    return sorted({(t, s) for t, s in pairs if s in reserved.get(t, ())})


def leaderboard_rows() -> list[dict[str, Any]]:
    return [{"agent": agent, "success": f"{score:.1f} ± {err:.1f}", "n": LEADERBOARD_EPISODES}
            for agent, score, err in _LEADERBOARD_TEXT_ONLY]
