"""Every source has the node cap live pages have: big local files are refused by name, in
bounded time and memory, before their node table is built."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from pages import listing_html

from pipeline.cli.main import main
from pipeline.errors import FormatError
from pipeline.html.lxml_reader import LIBXML2_MAX_DEPTH
from pipeline.html.source import page_from_html
from pipeline.page_state import MAX_NODES

SMALL = "<html><body>" + "<p>x</p>" * 300 + "</body></html>"
MIND2WEB = ('<html backend_node_id="1"><body backend_node_id="2">'
            + "".join(f'<p backend_node_id="{i}"><text>x</text></p>' for i in range(3, 303))
            + "</body></html>")
DEEP = "<html><body>" + "<div>" * (LIBXML2_MAX_DEPTH + 100) + "</body></html>"


@pytest.mark.parametrize(("html", "kind"), [(SMALL, "html"), (MIND2WEB, "mind2web_cleaned"),
                                            (DEEP, "html")], ids=["lxml", "mind2web", "deep"])
def test_every_reader_refuses_more_than_max_nodes(html, kind):
    with pytest.raises(FormatError, match=r"page\.html: .*more than max_nodes=200 nodes"):
        page_from_html(html, kind=kind, origin="page.html", max_nodes=200)
    assert len(page_from_html(html, kind=kind, max_nodes=10_000).nodes) > 200


def test_the_default_cap_is_the_live_one():
    from pipeline.live.browser import BrowserConfig

    assert BrowserConfig().max_nodes == MAX_NODES == 200_000


def test_the_cli_names_the_flag(capsys, tmp_path):
    page = tmp_path / "big.html"
    page.write_text(SMALL)
    assert main(["snapshot", str(page), "--max-nodes", "100"]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("error: ") and "max_nodes=100" in err and "--max-nodes" in err
    assert main(["snapshot", str(page), "--max-nodes", "1000"]) == 0


def test_the_lxml_refusal_comes_before_the_node_table():
    """Over the cap, the refusal costs libxml2's parse, not the Python node table: on a page
    of 30k products (~600k elements) it takes a fraction of building the table would."""
    html = listing_html(30_000)
    started = time.perf_counter()
    with pytest.raises(FormatError, match="max_nodes=200,000"):
        page_from_html(html)
    assert time.perf_counter() - started < 20


@pytest.mark.slow
def test_a_50_mb_file_is_refused_within_2_gb_and_30_s(tmp_path):
    page = tmp_path / "big.html"
    page.write_text(listing_html(68_500), encoding="utf-8")  # 50 MB, 1.2M elements
    assert page.stat().st_size > 49_000_000
    returncode, stderr, seconds, peak_mb = run_measured(
        [sys.executable, "-m", "pipeline", "snapshot", str(page), "--max-file-bytes", "60000000"])
    assert returncode == 2 and stderr.startswith("error: ") and \
        "max_nodes=200,000" in stderr, stderr
    assert seconds < 30 and peak_mb < 2048, (seconds, peak_mb)


# A small launcher runs the command and prints the peak resident KB that ``wait4`` reports for it.
# Measured from the test process itself the figure would start at this process's own peak (a
# vforked child inherits its parent's high-water mark when it execs), and the test process may
# hold a model loaded by an earlier test.
LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def run_measured(command: list[str]) -> tuple[int, str, float, float]:
    """Run ``command``; its status, stderr, seconds and its own peak resident MB."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *command], capture_output=True,
                          text=True, timeout=120, check=False)
    return done.returncode, done.stderr, time.perf_counter() - started, \
        int(done.stdout.split()[-1]) / 1024
