"""The labelled retrieval set: the file's rules, and every case resolving in a real Chromium."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from retrieval_cases import (
    RetrievalCase,
    Target,
    TargetError,
    iter_loaded_cases,
    load_cases,
    target_text,
)

from pipeline.errors import FormatError
from pipeline.live.miniwob import BENCHMARK_TASKS
from pipeline.report.page_set import fixture_pages

CASES = load_cases()
COPY_GUARD_WORDS = 3  # longer target texts must not appear verbatim in the instruction


@pytest.fixture(scope="module")
def resolved(capture_session):
    """Every case with its distilled page, target ref and the target's visible text."""
    rows = []
    for case, page, ref in iter_loaded_cases(CASES, capture_session):
        rows.append((case, page, ref, target_text(capture_session, case)))  # page still live
    return rows


# --- the set ------------------------------------------------------------------------------------
def test_the_set_is_large_and_covers_every_fixture_page():
    fixture = [c for c in CASES if not c.is_miniwob]
    miniwob = [c for c in CASES if c.is_miniwob]
    assert len(CASES) >= 70 and len(fixture) >= 40 and len(miniwob) >= 25
    assert {c.page for c in fixture} == set(fixture_pages())
    assert {c.task for c in miniwob} <= set(BENCHMARK_TASKS)
    assert len({c.id for c in CASES}) == len(CASES)


def test_typed_and_selected_cases_carry_a_value():
    for case in CASES:
        assert (case.value is None) == (case.op == "CLICK"), case.id


@pytest.mark.browser
def test_every_case_resolves_to_one_ref(resolved):
    assert [row[0] for row in resolved] == CASES
    for case, page, ref, _ in resolved:
        assert ref in page.refs, case.id


@pytest.mark.browser
def test_instructions_do_not_copy_long_target_texts(resolved):
    copied = [
        (case.id, text)
        for case, _, _, text in resolved
        if len(text.split()) > COPY_GUARD_WORDS and text.lower() in case.instruction.lower()
    ]
    assert copied == []


# --- resolution rules ---------------------------------------------------------------------------
def _case(css: str, page: str = "shop.html", case_id: str = "probe") -> RetrievalCase:
    return RetrievalCase(case_id, page, "probe", Target(css), "CLICK")


@pytest.mark.browser
def test_a_target_without_a_ref_resolves_to_its_nearest_ancestor_with_one(capture_session):
    heading, link = _case('[data-sku="SKU-0003"] h3'), _case('a[href="/p/3"]', case_id="link")
    (_, _, heading_ref), (_, page, link_ref) = iter_loaded_cases([heading, link], capture_session)
    assert heading_ref == link_ref
    assert page.refs[link_ref].tag == "a"


@pytest.mark.browser
@pytest.mark.parametrize(
    ("case", "message"),
    [
        (_case("#summary", "pagination.html", "no-ref"), "case no-ref: the target <p>"),
        (_case("button.add", case_id="many"), "case many: css button.add matches 200 elements"),
        (_case("#nowhere", case_id="none"), "matches 0 elements"),
        (replace(_case("#x", "iframe.html"), target=Target("#contact-name", "#no-frame")),
         "frame #no-frame matches 0 elements"),
    ],
)
def test_unresolvable_targets_raise_naming_the_case(capture_session, case, message):
    with pytest.raises(TargetError, match=message):
        list(iter_loaded_cases([case], capture_session))


# --- file validation ----------------------------------------------------------------------------
GOOD = {"id": "a", "page": "shop.html", "instruction": "Open my cart",
        "target": {"css": "a[href='/cart']"}, "op": "CLICK"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"op": "HOVER"}, "field 'op' must be one of CLICK, TYPE, SELECT"),
        ({"op": "TYPE"}, "field 'value' must be a non-empty string for TYPE"),
        ({"value": "x"}, "field 'value' is only for TYPE and SELECT"),
        ({"seed": 42}, "field 'seed' is only for MiniWoB"),
        ({"page": "mw:click-button"}, "field 'seed' must be an integer"),
        ({"page": "mw:no-such-task", "seed": 1}, "field 'page': unknown MiniWoB"),
        ({"page": "nope.html"}, "field 'page' 'nope.html' is not a fixture page"),
        ({"page": "iframe_child.html"}, "is not a fixture page"),
        ({"instruction": " "}, "field 'instruction' must be a non-empty string"),
        ({"target": {"xpath": "//a"}}, "field 'target' must be an object with a 'css'"),
        ({"target": {"css": "a", "shadow": "x"}}, "unknown key"),
        ({"id": "Bad Id"}, "field 'id'"),
        ({"colour": "red"}, "unknown field"),
    ],
)
def test_a_bad_line_names_its_line_and_field(tmp_path, change, message):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + json.dumps({**GOOD, "id": "b", **change}) + "\n")
    with pytest.raises(FormatError, match=f"cases.jsonl:3: .*{message}"):
        load_cases(path)


def test_duplicate_ids_and_broken_json_are_reported(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n")
    with pytest.raises(FormatError, match="cases.jsonl:2: id 'a' is already used on line 1"):
        load_cases(path)
    path.write_text("{not json\n")
    with pytest.raises(FormatError, match="cases.jsonl:1: not a JSON object"):
        load_cases(path)
