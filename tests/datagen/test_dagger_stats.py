"""The DAgger manifest's figures from the run log: labelled steps per episode, the share where
the student's act differed from the oracle's, crashes retried and counted once."""

from __future__ import annotations

from datagen.dagger.run import dagger_stats
from datagen.miniwob.manifest import Attempt, append_log, read_log


def test_stats_count_the_last_attempt_of_each_episode(tmp_path):
    log = tmp_path / "record_log.jsonl"
    detail = {"stop": "finished", "success": True, "student_acted": 3, "agreed": 2}
    for attempt in (
        Attempt("a", "login-user", 5000, "crashed", "browser: TimeoutError"),
        Attempt("a", "login-user", 5000, "written", "", 4, 9.0, detail),
        Attempt("b", "enter-date", 5000, "written", "", 2, 3.0,
                {"stop": "max_steps", "success": False, "student_acted": 0, "agreed": 0}),
        Attempt("c", "enter-text", 5000, "failed", "oracle: policy: no field", 0, 1.0,
                {"stop": "oracle: policy: no field", "success": False, "student_acted": 0,
                 "agreed": 0}),
    ):
        append_log(log, attempt)
    attempts = read_log(log)
    assert attempts[1].detail == detail  # the detail survives the log's round trip
    assert dagger_stats(attempts) == {
        "episodes": 3, "labelled_steps": 6, "steps_per_episode": 2.0, "student_acted": 3,
        "differed_share": round(1 - 2 / 6, 4), "success_with_fallback": round(1 / 3, 4)}


def test_a_record_log_without_details_still_reads(tmp_path):
    log = tmp_path / "record_log.jsonl"
    log.write_text('{"annotation_id": "x", "task": "t", "seed": 0, "status": "written", '
                   '"reason": "", "steps": 1, "seconds": 0.5}\n')
    assert read_log(log)[0].detail == {}
    assert dagger_stats(read_log(log))["episodes"] == 0
