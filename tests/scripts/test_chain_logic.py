"""The chain driver's bookkeeping with stages that are plain Python one-liners: skip when up to
date, re-run a changed stage and what depends on it, stop at a failing stage, resume a killed
one without wiping its output, take a stage's key=value from the command line."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("chain", ROOT / "scripts" / "chain.py")
chain = importlib.util.module_from_spec(spec)
sys.modules["chain"] = chain  # dataclasses look their module up
spec.loader.exec_module(chain)


def write(config: Path, out: Path, first: str = "a", fail: bool = False) -> Path:
    def stage(name: str, text: str, needs: list[str]) -> dict:
        target = out / name / "made.txt"
        code = ("import sys; sys.exit(3)" if fail and name == "second" else
                f"open({str(target)!r}, 'a').write({text!r})")
        return {"command": f'-c "{code}"', "output": str(out / name), "needs": needs}

    config.write_text(yaml.safe_dump({"stages": {
        "first": stage("first", first, []), "second": stage("second", "b", ["first"]),
        "third": stage("third", "c", [])}}))
    return config


def test_up_to_date_stages_are_skipped_and_changes_flow_downstream(tmp_path, capsys):
    out, config = tmp_path / "out", tmp_path / "chain.yaml"
    assert chain.main(["--config", str(write(config, out))]) == 0
    assert (out / "second" / "made.txt").read_text() == "b"
    capsys.readouterr()
    chain.main(["--config", str(config)])
    assert capsys.readouterr().out.count("up to date, skipped") == 3
    chain.main(["--config", str(write(config, out, first="z"))])
    printed = capsys.readouterr().out
    assert "[chain] first: inputs changed, starting over" in printed
    assert "[chain] second: inputs changed, starting over" in printed  # it reads first
    assert "[chain] third: up to date, skipped" in printed  # it does not
    assert (out / "first" / "made.txt").read_text() == "z"  # the stale output was removed


def test_a_failing_stage_stops_the_chain(tmp_path):
    out, config = tmp_path / "out", tmp_path / "chain.yaml"
    with pytest.raises(SystemExit, match="second failed \\(exit 3\\)"):
        chain.main(["--config", str(write(config, out, fail=True))])
    assert not (out / "third").exists()
    manifest = json.loads((out / "second" / "chain_stage.json").read_text())
    assert manifest["status"] == "running"


def test_a_killed_stage_resumes_on_its_output(tmp_path, capsys):
    out, config = tmp_path / "out", tmp_path / "chain.yaml"
    chain.main(["--config", str(write(config, out))])
    manifest_path = out / "second" / "chain_stage.json"
    manifest = json.loads(manifest_path.read_text())
    manifest_path.write_text(json.dumps({**manifest, "status": "running"}))  # as if killed
    capsys.readouterr()
    chain.main(["--config", str(config)])
    printed = capsys.readouterr().out
    assert "[chain] second: resuming an unfinished run" in printed
    assert (out / "second" / "made.txt").read_text() == "bb"  # kept, then continued
    assert "[chain] first: up to date, skipped" in printed


def test_a_stage_override_reruns_that_stage_and_what_reads_it(tmp_path, capsys):
    """``STAGE.key=value`` is appended to that stage's command, so it changes that stage's key
    and the keys downstream; an unknown stage or an argument without a key and value is an
    error naming it, before any stage runs."""
    out, config = tmp_path / "out", tmp_path / "chain.yaml"
    chain.main(["--config", str(write(config, out))])
    capsys.readouterr()
    chain.main(["--config", str(config), "first.seeds=2", "first.limit=null"])
    printed = capsys.readouterr().out
    assert "[chain] first: inputs changed, starting over" in printed
    assert "[chain] second: inputs changed, starting over" in printed  # it reads first
    assert "[chain] third: up to date, skipped" in printed
    manifest = json.loads((out / "first" / "chain_stage.json").read_text())
    assert manifest["command"].endswith("seeds=2 limit=null")
    for bad, message in (("frist.seeds=2", "no stage 'frist'"),
                         ("first=2", "write it as STAGE.key=value"),
                         ("first.seeds", "write it as STAGE.key=value")):
        with pytest.raises(SystemExit, match=message):
            chain.main(["--config", str(config), bad])
    assert "[chain]" not in capsys.readouterr().out
