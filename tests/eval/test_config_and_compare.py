"""The eval config's runs and checks, its held-out tasks matching datagen's, and compare."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from datagen.miniwob.heldout import HELDOUT_TASKS
from eval.compare import compare, mcnemar_p
from eval.config import load_eval_config
from pipeline.config import load_config
from pipeline.errors import FormatError

ROOT = Path(__file__).resolve().parents[2]


def test_runs_put_baselines_first_in_the_first_mode():
    cfg = load_eval_config(None, ["policy=[checkpoint,oracle,random]", "mode=[query_only,full]"])
    assert cfg.runs() == [("oracle", "query_only"), ("random", "query_only"),
                          ("checkpoint", "query_only"), ("checkpoint", "full")]
    single = load_eval_config(None, ["policy=base", "mode=hybrid"])
    assert single.runs() == [("base", "hybrid")]


def test_some_runs_play_their_own_number_of_seeds():
    from eval.miniwob_harness import plan_episodes

    cfg = load_eval_config(None, ["policy=[random,base,checkpoint]", "mode=[query_only,full]",
                                  "miniwob.seeds_per_task=3",
                                  "miniwob.seeds_per_run={base/query_only: 1, checkpoint/full: 2}"])
    plans = plan_episodes(cfg, ["click-button", "enter-text"])
    per_run = {run: sum(p.run == run for p in plans) for run in
               ("random/query_only", "base/query_only", "checkpoint/query_only", "checkpoint/full")}
    assert per_run == {"random/query_only": 6, "base/query_only": 2,
                       "checkpoint/query_only": 6, "checkpoint/full": 4}
    base = [p.seed for p in plans if p.run == "base/query_only"]
    assert base == [cfg.miniwob.first_seed] * 2  # the first seed of each task: a subset
    with pytest.raises(FormatError, match="seeds_per_run: base/full"):
        load_eval_config(None, ["policy=[base]", "miniwob.seeds_per_run={base/full: 1}"])


def test_bad_values_are_all_reported_at_once():
    with pytest.raises(FormatError) as err:
        load_eval_config(None, ["policy=[best]", "mode=quick", "workers=0",
                                "benchmark=mind2web", "generation.lookup_tokens=-1"])
    text = str(err.value)
    for fragment in ("policy:", "mode:", "workers:", "mind2web.input",
                     "generation.lookup_tokens:"):
        assert fragment in text


def test_input_is_the_mind2web_input_and_a_single_path_is_a_list():
    cfg = load_eval_config(None, ["benchmark=mind2web", "input=/data/test_task"])
    assert cfg.mind2web.inputs == ["/data/test_task"]


def test_the_live_heldout_tasks_are_the_tasks_datagen_holds_out(tmp_path):
    from datagen.build_config import BuildConfig

    # the config's input is the recorder's output, absent on a fresh clone: point it at a task file
    (tmp_path / "task.json").write_text("[]")
    build = load_config(BuildConfig, ROOT / "configs/datagen/miniwob.yaml", [f"input=[{tmp_path}]"],
                        section="build")
    live = load_eval_config(str(ROOT / "configs/eval/miniwob.yaml"), [])
    offline = load_eval_config(str(ROOT / "configs/eval/mind2web-miniwob.yaml"), [])
    held = set(HELDOUT_TASKS)
    for cfg in ("browsergym", "select"):
        other = load_eval_config(str(ROOT / f"configs/eval/{cfg}.yaml"), ["checkpoints=[a]"])
        assert set(other.miniwob.heldout_tasks) == held
    assert set(live.miniwob.heldout_tasks) == held == build.splits.heldout_websites()
    assert offline.mind2web.splits.heldout_websites() == held
    assert offline.mind2web.splits.test_task_percent == build.splits.test_task_percent
    assert live.miniwob.first_seed >= 1000  # far from the recorder's seeds


def _results(path: Path, success: float, n: int) -> Path:
    low, high = max(0.0, success - 0.1), min(1.0, success + 0.1)
    figure = {"value": success, "n": n, "low": low, "high": high}
    data = {"runs": {"checkpoint/query_only": {"aggregate": {"success_rate": figure,
                                                             "episodes": n},
                                               "groups": {"trained": {"success_rate": figure}}}}}
    path.write_text(json.dumps(data))
    return path


def test_compare_prints_only_differences_beyond_the_intervals(tmp_path):
    a = _results(tmp_path / "a.json", 0.5, 100)
    b = _results(tmp_path / "b.json", 0.9, 100)
    c = _results(tmp_path / "c.json", 0.55, 100)
    far = compare(str(a), str(b))
    assert far.startswith("2 differences") and "success_rate: 0.5" in far and "(+0.4)" in far
    assert compare(str(a), str(c)).startswith("0 differences")
    with pytest.raises(FormatError, match="not a results.json"):
        compare(str(a), str(_bad(tmp_path)))


def _played(folder: Path, outcomes: list[tuple[str, str, bool]], torn: bool = False) -> Path:
    """A results.json and an episodes.jsonl of (task, group, solved) episodes, seed 0 each."""
    folder.mkdir()
    lines = [json.dumps({"key": f"checkpoint/query_only|{task}|0", "run": "checkpoint/query_only",
                         "task": task, "seed": 0, "group": group, "success": solved})
             for task, group, solved in outcomes]
    text = "\n".join(lines) + "\n" + ('{"key": "checkpoint/query_only|cut' if torn else "")
    (folder / "episodes.jsonl").write_text(text)
    return _results(folder / "results.json", 0.5, len(outcomes))


def test_compare_pairs_the_episodes_both_played_with_mcnemars_exact_test(tmp_path):
    # a repeated key (a pair BrowserGym plays twice) pairs in the order played; B's extra
    # episode and A's torn last line pair with nothing
    a = _played(tmp_path / "a", [("t1", "trained", True), ("t2", "trained", False),
                                 ("t2", "trained", False), ("t3", "unseen", False),
                                 ("t4", "unseen", True)], torn=True)
    b = _played(tmp_path / "b", [("t1", "trained", True), ("t2", "trained", True),
                                 ("t2", "trained", True), ("t3", "unseen", True),
                                 ("t4", "unseen", True), ("t5", "unseen", True)])
    lines = compare(str(a), str(b)).splitlines()
    assert "checkpoint/query_only: paired on the 5 episodes both played" in lines
    assert ("  [all] n=5: A 2, B 5 solved; both 2, A only 0, B only 3, neither 0; "
            "McNemar p=0.25") in lines
    assert "  [trained] n=3: A 1, B 3 solved; both 1, A only 0, B only 2, neither 0; " \
           "McNemar p=0.5" in lines
    assert mcnemar_p(0, 6) == 2 / 64 and mcnemar_p(6, 0) == 2 / 64
    assert mcnemar_p(3, 3) == mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(4, 9) == 2 * (1 + 13 + 78 + 286 + 715) / 2 ** 13  # P(k <= 4 of 13), twice


def _bad(tmp_path: Path) -> Path:
    path = tmp_path / "bad.json"
    path.write_text("[1, 2]")
    return path
