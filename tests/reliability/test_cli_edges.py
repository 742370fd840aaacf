"""Every stage's command line at its edges: one ``error:`` line on stderr and status 2, never a
traceback -- bad page states, bad --out, binary configs, overrides that are not YAML, queries the
page cannot answer."""

from __future__ import annotations

import pytest
from adversarial import (
    BAD_OVERRIDES,
    config_corpus,
    html_corpus,
    page_state_corpus,
    task_file_corpus,
)

from pipeline.cli.main import main as pipeline_main
from pipeline.page_state import PageState


def stage_main(stage: str):
    if stage == "pipeline":
        return lambda argv: pipeline_main(["report", *argv])
    if stage.startswith("datagen"):
        from datagen.cli import main

        return lambda argv: main([stage.split()[1], *argv])
    if stage == "training":
        from training.__main__ import main

        return main
    from eval.__main__ import main

    return main


STAGES = ["pipeline", "datagen record", "datagen build", "training", "eval"]


def assert_one_error(capsys, code: int, *expected: str) -> str:
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert err.startswith("error: ") and "Traceback" not in err, err
    assert all(e in err for e in expected), err
    return err


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("override", BAD_OVERRIDES)
def test_an_override_that_is_not_yaml(capsys, stage, override):
    code = stage_main(stage)([override])
    assert_one_error(capsys, code, repr(override.partition("=")[2]), "not a YAML value")


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("name", sorted(config_corpus()))
def test_a_config_that_is_not_yaml_text(capsys, tmp_path, stage, name):
    config = tmp_path / "config.yaml"
    config.write_bytes(config_corpus()[name])
    code = stage_main(stage)(["--config", str(config)])
    err = assert_one_error(capsys, code, "config.yaml")
    assert len(err.splitlines()) == 1


CORPUS = page_state_corpus()


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_bad_page_state_is_one_error_line(capsys, tmp_path, name):
    path = tmp_path / f"{name}.json.gz"
    path.write_bytes(CORPUS[name])
    code = pipeline_main(["snapshot", str(path)])
    err = assert_one_error(capsys, code, f"{name}.json.gz")
    assert len(err.splitlines()) == 1


@pytest.fixture
def page(tmp_path, fixture_dir):
    return str(fixture_dir / "forms.html")


def test_out_into_a_missing_folder_or_onto_a_directory(capsys, tmp_path, page):
    code = pipeline_main(["snapshot", page, "--out", str(tmp_path / "no" / "such" / "p.json.gz")])
    assert_one_error(capsys, code, "does not exist", "mkdir -p")
    code = pipeline_main(["snapshot", page, "--out", str(tmp_path)])
    assert_one_error(capsys, code, "is a directory")
    code = pipeline_main(["snapshot", page, "--out", str(tmp_path / "p.json.gz")])
    assert code == 0 and PageState.load(tmp_path / "p.json.gz").nodes


@pytest.mark.parametrize(("flags", "expected"), [
    (["--details", "999999"], "no element [999999]"),
    (["--details", "0"], "greater than or equal to 1"),
    (["--region", "NOPE"], 'no landmark "NOPE"'),
    (["--call", "<bu_click>{" * 80_000], "over the limit"),
    (["--call", "<bu_nope>{}<bu_end>"], "bu_nope"),
])
def test_a_query_the_page_cannot_answer(capsys, page, flags, expected):
    code = pipeline_main(["query", page, *flags])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.startswith("error: ") and expected in err, (out, err)
    assert len(err.splitlines()) == 1


def test_overrides_before_and_after_flags_and_a_single_value_list(tmp_path):
    from pipeline.cli.support import parse_args
    from tests.training.training_helpers import write_dataset
    from training.__main__ import build_parser
    from training.config import load_training_config

    args = parse_args(build_parser(), ["limit=5", "--seed", "3", "lora.rank=4", "--limit", "2"])
    assert args.overrides == ["limit=5", "lora.rank=4"] and args.seed == 3
    with pytest.raises(SystemExit):
        parse_args(build_parser(), ["limit=5", "--seed", "3", "stray"])
    root = write_dataset(tmp_path / "ds", train=2, test=1)
    cfg = load_training_config(None, [f"dataset_dir={root}", "lora.target_modules=q_proj"])
    assert cfg.lora.target_modules == ["q_proj"]


def test_build_reads_the_record_stage_output_folder(tmp_path):
    """The record stage's folder holds its manifest next to the split folders: the manifest is
    bookkeeping, not a malformed task."""
    from datagen.mind2web.reader import BOOKKEEPING, resolve_inputs
    from datagen.miniwob.manifest import MANIFEST_NAME

    assert MANIFEST_NAME in BOOKKEEPING
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "miniwob_0.json").write_text("[]")
    (tmp_path / MANIFEST_NAME).write_text("{}")
    (tmp_path / "record_log.jsonl").write_text("{}\n")
    assert [p.name for p in resolve_inputs([tmp_path])] == ["miniwob_0.json"]


def test_the_file_url_refusal_names_the_flag(capsys, fixture_dir):
    code = pipeline_main(["snapshot", (fixture_dir / "forms.html").as_uri()])
    assert_one_error(capsys, code, "--allow-file-urls")


@pytest.mark.parametrize("name", sorted(task_file_corpus()))
def test_a_task_file_that_is_not_one_is_a_reject_with_its_reason(capsys, tmp_path, name):
    from datagen.cli import main as datagen_main

    path = tmp_path / "dump" / "train" / "t.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(task_file_corpus()[name])
    code = datagen_main(["build", f"input={path}", "--output-dir", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if code == 2:
        assert err.startswith("error: ") and len(err.splitlines()) == 1
    else:
        assert code == 0 and "| input reject | count |" in out, out


@pytest.mark.parametrize("name", sorted(html_corpus()))
def test_hostile_html_files_show_everything_or_are_refused(capsys, tmp_path, name):
    data, shows = html_corpus()[name]
    path = tmp_path / f"{name}.html"
    path.write_bytes(data)
    code = pipeline_main(["snapshot", str(path)])
    out, err = capsys.readouterr()
    if shows is None:
        assert code == 2 and err.startswith("error: ") and len(err.splitlines()) == 1, err
    else:
        assert code == 0 and all(f">{text}<" in out for text in shows), (out[-300:], err)
