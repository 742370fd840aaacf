"""``python -m pipeline snapshot``: output on good input; one clear line and exit 2 on bad input."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from pipeline.cli.main import main
from pipeline.page_state import PageState


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_snapshot_of_an_html_file_prints_rendering_and_metrics(capsys, fixture_dir, tmp_path):
    out_path = tmp_path / "forms.json.gz"
    code, out, err = run(capsys, "snapshot", str(fixture_dir / "forms.html"), "--out", str(out_path))
    assert code == 0
    assert "<button type=submit id=login-submit>Sign in</button>" in out
    assert "flat tok" in err and "tokens counted by" in err
    assert PageState.load(out_path).title == "Account — Sign in or create an account"
    code, out, _ = run(capsys, "snapshot", str(out_path), "--format", "outline")
    assert code == 0 and out.startswith("=== PAGE OUTLINE ===")
    code, out, _ = run(capsys, "snapshot", str(out_path), "--format", "json")
    assert code == 0 and json.loads(out)["schema_version"] == 1


def test_snapshot_marks_new_elements_against_the_previous_step(capsys, tmp_path, fixture_dir):
    before = tmp_path / "before.html"
    before.write_text("<main><button id=a>A</button></main>")
    after = tmp_path / "after.html"
    after.write_text("<main><button id=a>A</button><button id=b>B</button></main>")
    code, out, _ = run(capsys, "snapshot", str(after), "--previous", str(before))
    assert code == 0
    assert "*[2]<button id=b>B</button>" in out and "\n[1]" in "\n" + out


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\x00\xff\xfe binary \x00", "garbage.html"),
        (b"   \n  ", "garbage.html"),
    ],
)
def test_unparseable_html_is_a_clear_error(capsys, tmp_path, content, expected):
    path = tmp_path / "garbage.html"
    path.write_bytes(content)
    code, out, err = run(capsys, "snapshot", str(path))
    assert code == 2 and out == ""
    assert err.startswith("error: ") and expected in err and len(err.splitlines()) == 1


def test_missing_file_oversized_file_and_broken_state(capsys, tmp_path, fixture_dir):
    code, _, err = run(capsys, "snapshot", str(tmp_path / "nope.html"))
    assert code == 2 and "neither a URL" in err
    code, _, err = run(capsys, "snapshot", str(fixture_dir / "shop.html"), "--max-file-bytes", "1000")
    assert code == 2 and "over the limit of 1,000" in err
    broken = tmp_path / "page.json.gz"
    broken.write_bytes(gzip.compress(b'{"schema_version": 1, "nodes": "x"}'))
    code, _, err = run(capsys, "snapshot", str(broken))
    assert code == 2 and "page.json.gz" in err


def test_file_url_refused_before_a_browser_starts(capsys, fixture_dir):
    code, _, err = run(capsys, "snapshot", (fixture_dir / "forms.html").as_uri())
    assert code == 2 and "allow_file_urls" in err


@pytest.mark.browser
def test_page_that_never_loads_times_out(capsys, silent_server):
    code, _, err = run(capsys, "snapshot", silent_server, "--timeout-ms", "1500")
    assert code == 2 and "did not load within navigation_timeout_ms=1500" in err


@pytest.mark.browser
def test_page_over_the_node_limit(capsys, fixture_server):
    code, _, err = run(capsys, "snapshot", f"{fixture_server}/shop.html", "--max-nodes", "100")
    assert code == 2 and "max_nodes" in err


@pytest.mark.browser
def test_broken_browser_executable(capsys, fixture_server, tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    code, _, err = run(capsys, "snapshot", f"{fixture_server}/forms.html",
                       "--executable-path", str(fake))
    assert code == 2 and str(fake) in err


@pytest.mark.browser
def test_live_url_through_the_module_entry_point(fixture_server):
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "snapshot", f"{fixture_server}/pagination.html",
         "--format", "outline"], check=False, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert '[11]<a href="?page=1">1</a>' in done.stdout


def test_report_config_errors_are_listed_together(capsys, tmp_path):
    config = tmp_path / "report.yaml"
    config.write_text("fixtures: [nope.html]\nmini_tasks: []\nlimit: 0\n")
    code, _, err = run(capsys, "report", "--config", str(config))
    assert code == 2
    assert "unknown key 'mini_tasks'; did you mean 'miniwob_tasks'?" in err


def test_query_command_runs_each_tool_like_a_model_call(capsys, fixture_dir):
    shop = str(fixture_dir / "shop.html")
    code, out, _ = run(capsys, "query", shop, "--text", "kettle", "--role", "button",
                       "--max-results", "2")
    assert code == 0 and out.splitlines()[0] == '10 elements match text="kettle", role=button; top 2:'
    assert "— Classic Kettle 1, $87.19" in out
    code, out, _ = run(capsys, "query", shop, "--call", '<bu_query>{"text": "gift cards"}')
    assert code == 0 and "[11]<a href=/c/gift-cards>Gift Cards</a>" in out
    code, out, _ = run(capsys, "query", shop, "--region", "FOOTER")
    assert code == 0 and out.startswith("FOOTER: 6 elements")
    code, out, _ = run(capsys, "query", shop, "--details", "2")
    assert code == 0 and "Role: searchbox" in out
    code, out, err = run(capsys, "query", shop, "--observe", "query_only")
    assert code == 0 and "Tools:" in out and "tokens" in err
    code, _, err = run(capsys, "query", shop, "--call", '<bu_clik>{"index": 3}<bu_end>')
    assert code == 2 and "did you mean '<bu_click>'" in err
    code, _, err = run(capsys, "query", shop, "--keyword", "cart")
    assert code == 2 and "--keyword 'cart': write it as KEY=VALUE" in err
