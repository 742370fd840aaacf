"""Oracle coverage of BrowserGym's 125 MiniWoB++ tasks (issue 15): which tasks have a policy,
which are listed impossible and why, the pure helpers new policies rely on, and (slow) every
policy of the issue's batches (and of the tasks select_text made possible) on five more live
seeds than test_policies.py's one, winning all but one (and those BrowserGym's budget of 10
actions per episode once cut short within it). The target itself, >= 95% of 20 seeds per task,
is a benchmark (``benchmarks/oracle_benchmark.py``: each task's rate and most actions in an
episode, in docs/BENCHMARKS.md); the suite plays a quarter of those episodes so a policy that
breaks still fails here. That every policy acts on a page's refs, as the eval harnesses' oracle
plays them, is checked on test_policies.py's episodes."""

from __future__ import annotations

import pytest
from recorder_helpers import play_seeds

from datagen.miniwob.policies import POLICIES
from datagen.miniwob.policies.figures import fits, parse_description
from datagen.miniwob.policies.forms import split_names
from datagen.miniwob.policies.games import best_move, win_chance
from datagen.miniwob.policies.impossible import IMPOSSIBLE
from eval.browsergym.benchmark import MAX_STEPS, TASKS
from pipeline.live.miniwob import list_tasks, serve_miniwob
from pipeline.query.similar import boxes_for

# The policies issue 15 added (the 41 before it are played by test_policies.py).
ISSUE_15_TASKS = (
    "ascending-numbers", "book-flight", "book-flight-nodelay", "buy-ticket", "choose-date",
    "choose-date-medium", "choose-date-nodelay", "click-checkboxes-soft",
    "click-checkboxes-transfer", "click-collapsible",
    "click-collapsible-2-nodelay", "click-collapsible-nodelay", "click-color", "click-dialog",
    "click-menu", "click-menu-2", "click-pie", "click-pie-nodelay", "click-scroll-list",
    "click-shades", "click-shape", "click-tab-2-easy", "click-tab-2-hard", "click-tab-2-medium",
    "click-test", "click-test-transfer", "copy-paste", "copy-paste-2", "count-shape", "drag-box",
    "daily-calendar", "drag-circle", "drag-items", "drag-items-grid", "drag-shapes", "drag-shapes-2",
    "drag-single-shape", "drag-sort-numbers", "email-inbox-forward-nl",
    "email-inbox-forward-nl-turk", "email-inbox-nl-turk", "email-inbox-star-reply",
    "enter-text-dynamic", "find-greatest", "focus-text", "form-sequence", "form-sequence-3",
    "generate-number", "identify-shape", "multi-layouts", "odd-or-even", "order-food",
    "phone-book", "read-table-2", "resize-textarea", "scroll-text", "scroll-text-2",
    "sign-agreement", "simple-algebra", "social-media-all", "social-media-some", "stock-market",
    "terminal", "text-editor", "tic-tac-toe", "use-autocomplete-nodelay", "use-slider",
    "use-slider-2", "visual-addition",
)
# Policies from before issue 15 that are also played here (they once fell below 95%).
EARLIER_TASKS = ("social-media",)
# Policies the select_text action made possible (listed impossible before it).
SELECT_TEXT_TASKS = ("highlight-text", "highlight-text-2")
# Seeds 2..6 of the benchmark's 1..20 (test_policies.py plays seed 1 of every policy).
SEEDS = range(2, 7)
# Policies below the 95% target, with why (benchmarks/results/oracle.json has their rates); they
# may lose three of the five, so a policy that breaks still shows.
BELOW_TARGET = {
    "tic-tac-toe": "the page's player moves at random only 55% of the time: best play against it "
                   "wins 85% of the games (test_tic_tac_toe_best_play_wins_85_percent)",
    "click-pie-nodelay": "the item selected when the menu opens takes no click in this Chromium: "
                         "each mouseover re-inserts its SVG nodes, so the press and release go to "
                         "the <svg> (datagen/miniwob/policies/wheel.py)",
}

# Policies held to BrowserGym's MAX_STEPS actions on every seed played; the first four once took
# more (one key, month or slider step per action). Not social-media-all: it clicks once per post
# of the user, and a user with 10 or more posts needs more (2 of seeds 1..200, none of 1..20).
WITHIN_BROWSERGYM_STEPS = frozenset({
    "terminal", "text-editor", "use-slider-2", "choose-date", "choose-date-medium",
    "choose-date-nodelay", "use-slider", "form-sequence", "book-flight",
})

# Played one page at a time: the pie menu opens on mouseover and re-inserts its SVG nodes on each
# one; with episodes on three pages at once 3 of 20 lost a press (none of the same 20 alone).
ONE_PAGE_AT_A_TIME = frozenset({"click-pie", "click-pie-nodelay"})


def test_impossible_tasks_are_benchmark_tasks_without_a_policy_and_say_why():
    assert set(IMPOSSIBLE) <= set(TASKS)
    assert not set(IMPOSSIBLE) & set(POLICIES)
    assert all(len(reason) > 30 for reason in IMPOSSIBLE.values())


def test_policies_cover_the_issue_15_tasks_of_browsergyms_list():
    assert set(ISSUE_15_TASKS) <= set(POLICIES) <= set(list_tasks())
    assert set(ISSUE_15_TASKS) <= set(TASKS)
    covered = set(POLICIES) & set(TASKS)
    assert len(covered) >= 108, sorted(set(TASKS) - covered - set(IMPOSSIBLE))
    assert set(SELECT_TEXT_TASKS) <= covered


def test_option_names_holding_commas_split_right():
    names = ["Korea, Republic of", "Korea", "Chad", "Republic of Chad"]
    assert split_names("Korea, Republic of, Chad", names) == ["Korea, Republic of", "Chad"]
    assert split_names("Chad", names) == ["Chad"]
    assert split_names("Peru, Chad", names) is None


def test_shape_descriptions_follow_the_pages_rule():
    big_red_circle = {"text": "circle", "type": "shape", "color": "red", "size": 20}
    small_digit = {"text": "9", "type": "digit", "color": "blue", "size": 10}
    assert parse_description(["large", "red", "circle"]) == ("large", "red", "circle")
    assert parse_description(["9"]) == ("", "", "9")
    assert fits(big_red_circle, "large", "", "shape") and not fits(big_red_circle, "small", "",
                                                                    "item")
    assert fits(small_digit, "small", "blue", "9") and fits(small_digit, "", "", "digit")


def test_tic_tac_toe_takes_a_win_and_plays_a_free_square():
    assert best_move("XX.OO....") == 2  # win on the top row
    assert best_move("O.X.XO...") == 6  # win on the diagonal
    assert "XOXOXO.O."[best_move("XOXOXO.O.")] == "."


def test_soft_checkboxes_match_synonyms_plurals_and_forms_one_box_each():
    assert boxes_for(["big", "odd"], ["water", "peculiar", "large"]) == ["large", "peculiar"]
    assert boxes_for(["cars", "TV", "flames"], ["automobile", "televisions", "fire", "hate"]) == [
        "automobile", "televisions", "fire"]
    assert boxes_for(["pork"], ["cut", "swine", "water"]) == ["swine"]  # through pork's gloss


def test_tic_tac_toe_best_play_wins_85_percent():
    """The page's player starts 49% of the games with a random square; then X plays best."""
    empty = "." * 9
    after_o = [win_chance(empty[:i] + "O" + empty[i + 1:]) for i in range(9)]
    assert 0.84 < 0.51 * win_chance(empty) + 0.49 * sum(after_o) / 9 < 0.86


@pytest.fixture(scope="module")
def miniwob_base():
    with serve_miniwob() as base_url:
        yield base_url


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("task", ISSUE_15_TASKS + EARLIER_TASKS + SELECT_TEXT_TASKS)
def test_policy_wins_its_seeds(capture_session, miniwob_base, task):
    runs = play_seeds(capture_session, miniwob_base, task, SEEDS,
                      pages=1 if task in ONE_PAGE_AT_A_TIME else 3)
    failed = [(seed, run.failure) for seed, run in zip(SEEDS, runs, strict=True) if not run.success]
    allowed = 3 if task in BELOW_TARGET else 1
    assert len(failed) <= allowed, f"{task}: {len(failed)}/{len(SEEDS)} failed: {failed[:3]}"
    if task in WITHIN_BROWSERGYM_STEPS:
        longest = max(zip((len(run.steps) for run in runs), SEEDS, strict=True))
        assert longest[0] <= MAX_STEPS, f"{task}: seed {longest[1]} took {longest[0]} actions"
