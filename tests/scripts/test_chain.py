"""The main job's chain in miniature (configs/chain/demo-tiny.yaml), end to end and for real:
every stage's outputs exist, a second run skips every stage, and a changed eval config re-runs
only the eval and the report."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.browser]
ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "configs" / "chain" / "demo-tiny.yaml"


def chain(config: Path) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "scripts/chain.py", "--config", str(config)], cwd=ROOT,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done


@pytest.mark.timeout(1500)  # three runs of the chain, two of them evaluating (the second the
# baselines only)
def test_the_tiny_chain_runs_end_to_end_and_skips_what_is_up_to_date(tmp_path):
    from tests.conftest import require_chromium

    require_chromium()
    out = tmp_path / "demo-tiny"
    config = tmp_path / "chain.yaml"
    config.write_text(TINY.read_text().replace("outputs/demo-tiny", str(out)))
    chain(config)
    for name in ("record/record_manifest.json", "dataset/manifest.json",
                 "train/adapter/adapter_config.json", "train/metrics.json",
                 "eval/results.json", "eval/episodes.jsonl", "report/report.md"):
        assert (out / name).is_file(), name
    folders = {"record": "record", "build": "dataset", "train": "train", "eval": "eval",
               "report": "report"}
    for stage, folder in folders.items():
        manifest = json.loads((out / folder / "chain_stage.json").read_text())
        assert manifest["stage"] == stage and manifest["status"] == "complete" and manifest["key"]
    results = json.loads((out / "eval" / "results.json").read_text())
    assert set(results["runs"]) == {"oracle/planned", "random/planned", "checkpoint/planned"}
    report = (out / "report" / "report.md").read_text()
    assert "## Dataset" in report and "## Training" in report and "checkpoint/planned" in report

    started = time.perf_counter()
    again = chain(config)
    assert time.perf_counter() - started < 30
    assert again.stdout.count("up to date, skipped") == 5

    config.write_text(config.read_text().replace("policy=[oracle,random,checkpoint]",
                                                 "policy=[oracle,random]"))
    changed = chain(config)
    for stage in ("record", "build", "train"):
        assert f"[chain] {stage}: up to date, skipped" in changed.stdout
    assert "[chain] eval: inputs changed, starting over" in changed.stdout
    assert "[chain] report: inputs changed, starting over" in changed.stdout
