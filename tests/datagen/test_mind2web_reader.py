"""The Mind2Web reader on realistic task files: every Step field, label leaks, HOVER/ENTER,
the cleaned_html fallback, saved pages, splits from the folder layout, globs, lists and gzip."""

from __future__ import annotations

import json
import shutil
import time

import pytest
from mind2web_reader_helpers import (
    LEAK,
    ActionSpec,
    find,
    fixture_page,
    make_task,
    select_task,
    shop_task,
    write_tasks,
)

from datagen.mind2web import Rejects, iter_steps, read_tasks, resolve_inputs, split_of
from datagen.records import Step, step_path
from pipeline.distill import distill
from pipeline.errors import FormatError
from pipeline.page_state import PageState
from pipeline.render import render_flat, render_outline


def _facts(page: PageState) -> dict:
    return {k: v for k, v in page.to_dict().items() if k != "meta"}  # meta holds timings


@pytest.fixture(scope="module")
def shop() -> dict:
    return shop_task()


@pytest.fixture(scope="module")
def dump(tmp_path_factory, shop) -> dict:
    """``data/<split>/...`` as Mind2Web ships it (train file names that sort naturally)."""
    root = tmp_path_factory.mktemp("mind2web") / "data"
    write_tasks(root / "train" / "train_10.json", [select_task("t10")])
    write_tasks(root / "train" / "train_2.json", [shop])
    write_tasks(root / "test_task" / "test_task_0.json.gz", [select_task("tt0")], gz=True)
    write_tasks(root / "test_website" / "test_website_0.json", [select_task("tw0")])
    return {"root": root}


@pytest.fixture(scope="module")
def shop_steps(dump) -> list[Step]:
    rejects = Rejects()
    steps = list(iter_steps(dump["root"] / "train" / "train_2.json", rejects=rejects))
    assert len(rejects) == 0, rejects.summary()
    return steps


def test_one_step_per_action_with_every_field(shop_steps, shop):
    page = fixture_page("shop.html")
    targets = [find(page, "input", id="q"), find(page, "button", "Search"),
               find(page, "a", "Kitchen"), find(page, "button", "Add to Cart")]  # fmt: skip
    ops = [("TYPE", "kettle", "TYPE"), ("CLICK", "", "ENTER"), ("CLICK", "", "HOVER"),
           ("CLICK", "", "CLICK")]  # fmt: skip
    assert len(shop_steps) == 4
    for i, step in enumerate(shop_steps):
        uid = shop["actions"][i]["action_uid"]
        assert step.step_id == f"a1b2c3:{uid}"
        assert (step.annotation_id, step.action_uid, step.step_index) == ("a1b2c3", uid, i)
        assert step.task == "Add a kettle to the cart on Acme"
        assert step.history == shop["action_reprs"][:i]
        assert step.positives == [targets[i].backend_id]
        assert (step.operation.op, step.operation.value, step.operation.original_op) == ops[i]
        assert (step.source, step.split) == ("mind2web", "train")
        assert (step.website, step.domain, step.subdomain) == ("acme", "Shopping", "General")
        assert step.page is not None and step.page_path is None
        assert step.page.source == "mind2web_raw" and step.page.has_layout
        node = step.page.nodes[step.page.by_backend_id()[step.positives[0]]]
        assert (node.tag, node.bounds) == (targets[i].tag, targets[i].bounds)
        assert isinstance(step.positives[0], int)
    assert shop_steps[2].history[-1] == "[button]  Search -> ENTER"


def test_step_round_trips_through_json(shop_steps):
    step = shop_steps[0]
    again = Step.from_dict(json.loads(json.dumps(step.to_dict())))
    assert again.to_dict() == step.to_dict()


def test_label_leak_markers_never_reach_the_page_or_its_renderings(shop_steps, shop):
    raw = shop["actions"][3]["raw_html"]
    assert f'data_pw_testid_buckeye="{shop["actions"][3]["action_uid"]}"' in raw
    assert all(f'data_pw_testid_buckeye="{a["action_uid"]}"' in raw for a in shop["actions"][:3])
    uids = [a["action_uid"] for a in shop["actions"]]
    for step in shop_steps:
        distilled = distill(step.page)
        texts = [json.dumps(step.page.to_dict()), render_flat(distilled), render_outline(distilled)]
        for text in texts:
            assert not LEAK.search(text)
            assert not any(uid in text for uid in uids)


def test_select_step_and_op_derived_from_original_op(tmp_path):
    state = fixture_page("select.html")
    specs = [ActionSpec("s-u0", find(state, "select", id="country"), None, "Japan", "SELECT"),
             ActionSpec("s-u1", find(state, "button", "Save"), None, "ignored", "ENTER")]  # fmt: skip
    path = write_tasks(tmp_path / "t.json", [make_task("s", "select.html", specs, "Pick Japan")])
    first, second = iter_steps(path, rejects=Rejects())
    assert (first.operation.op, first.operation.value, first.operation.original_op) == (
        "SELECT", "Japan", "SELECT")  # fmt: skip
    assert (second.operation.op, second.operation.value) == ("CLICK", "")  # CLICK has no value
    assert first.page.nodes[first.page.by_backend_id()[first.positives[0]]].tag == "select"


@pytest.mark.parametrize("raw", ["", None, "missing"])
def test_cleaned_html_when_raw_html_is_missing_or_empty(tmp_path, shop, raw):
    task = json.loads(json.dumps(shop))
    for action in task["actions"]:
        if raw == "missing":
            del action["raw_html"]
        else:
            action["raw_html"] = raw
    rejects = Rejects()
    steps = list(iter_steps(write_tasks(tmp_path / "t.json", [task]), rejects=rejects))
    assert len(steps) == 4
    if raw == "missing":  # a dump without raw_html at all: nothing to note
        assert len(rejects) == 0
    else:  # an empty or null raw_html is noted, as an unreadable one is
        assert [(r.reason, r.dropped) for r in rejects.records] == [("raw_html_fallback",
                                                                     False)] * 4
        assert all("raw_html is" in r.message for r in rejects.records)
    for step in steps:
        assert step.page.source == "mind2web_cleaned" and not step.page.has_layout
        assert step.positives[0] in step.page.by_backend_id()
        assert not LEAK.search(json.dumps(step.page.to_dict()))


def test_cleaned_html_when_raw_html_does_not_parse(tmp_path, shop):
    task = json.loads(json.dumps(shop))
    task["actions"][0]["raw_html"] = "\x00\x01 binary junk"
    rejects = Rejects()
    steps = list(iter_steps(write_tasks(tmp_path / "t.json", [task]), rejects=rejects))
    assert len(steps) == 4 and steps[0].page.source == "mind2web_cleaned"
    assert steps[1].page.source == "mind2web_raw"
    (note,) = rejects.records
    assert (note.reason, note.dropped, note.action_uid) == ("raw_html_fallback", False,
                                                            "a1b2c3-u0")  # fmt: skip
    assert "raw_html" in note.message


def test_pages_saved_under_page_dir(dump, tmp_path, shop_steps):
    pages = tmp_path / "pages"
    steps = list(iter_steps(dump["root"] / "train" / "train_2.json", page_dir=pages))
    assert [s.step_id for s in steps] == [s.step_id for s in shop_steps]
    for step, inline in zip(steps, shop_steps, strict=True):
        assert step.page is None and step.page_path == str(step_path(pages, step.step_id))
        assert _facts(step.load_page()) == _facts(inline.page)
        assert "page" not in step.to_dict()
    assert not list(pages.glob("*.partial"))


def test_splits_from_the_folder_layout_in_natural_order(dump):
    tasks = list(read_tasks(dump["root"]))
    assert [(t.annotation_id, t.split) for t in tasks] == [
        ("tt0", "test_task"), ("tw0", "test_website"), ("a1b2c3", "train"), ("t10", "train")]  # fmt: skip
    assert [t.split for t in read_tasks(dump["root"], split="test_domain")] == ["test_domain"] * 4
    assert split_of("x/data/test_domain/sub/f.json") == "test_domain"
    assert split_of("elsewhere/f.json") == ""


def test_a_glob_a_list_and_gzip(dump):
    root = dump["root"]
    by_glob = [t.annotation_id for t in read_tasks(str(root / "*" / "*.json*"))]
    assert by_glob == ["tt0", "tw0", "a1b2c3", "t10"]
    listed = [root / "test_website", str(root / "test_task" / "test_task_0.json.gz"),
              root / "test_website" / "test_website_0.json"]  # fmt: skip
    assert [(t.annotation_id, t.split) for t in read_tasks(listed)] == [
        ("tw0", "test_website"), ("tt0", "test_task")]  # fmt: skip
    steps = list(iter_steps(root / "test_task", rejects=Rejects()))
    assert [s.step_index for s in steps] == [0, 1] and steps[0].split == "test_task"


def test_bad_inputs_name_the_input(tmp_path):
    with pytest.raises(FormatError, match="no such file or folder"):
        resolve_inputs(tmp_path / "nope")
    with pytest.raises(FormatError, match="matches no task files"):
        resolve_inputs(str(tmp_path / "*.json"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(FormatError, match="holds no .json"):
        resolve_inputs(tmp_path / "empty")
    with pytest.raises(FormatError, match="no Mind2Web input"):
        resolve_inputs([])


def test_the_same_task_in_two_files_is_read_once(dump, tmp_path):
    copy = tmp_path / "copy.json"
    shutil.copy(dump["root"] / "train" / "train_2.json", copy)
    rejects = Rejects()
    steps = list(iter_steps([dump["root"] / "train" / "train_2.json", copy], rejects=rejects))
    assert len(steps) == 4 and rejects.counts == {"duplicate_step": 4}
    assert all(r.origin == str(copy) for r in rejects.records)


def test_steps_per_second_on_the_shop_page(tmp_path, shop):
    tasks = [dict(shop, annotation_id=f"perf{i}") for i in range(3)]
    path = write_tasks(tmp_path / "perf.json", tasks)
    rates = {}
    for label, page_dir in (("inline", None), ("page_dir", tmp_path / "pages")):
        started = time.perf_counter()
        count = sum(1 for _ in iter_steps(path, rejects=Rejects(), page_dir=page_dir))
        rates[label] = count / (time.perf_counter() - started)
        assert count == 12
    nodes = len(fixture_page("shop.html").nodes)
    print(f"\nreader on shop.html ({nodes} nodes, {len(shop['actions'][0]['raw_html']) // 1000} KB "
          f"raw_html): {rates['inline']:.1f} steps/s inline, {rates['page_dir']:.1f} steps/s "
          "saving pages")  # fmt: skip
    assert min(rates.values()) > 2
