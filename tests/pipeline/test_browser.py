"""Chromium discovery, browser config validation and launch flags (plus one real failed launch)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.errors import CaptureError, FormatError
from pipeline.live import browser as browser_module
from pipeline.live.browser import (
    ENV_VAR,
    HEADLESS_ARGS,
    BrowserConfig,
    find_chromium,
    launch_args,
    launch_browser,
)


@pytest.fixture
def no_env(monkeypatch):
    monkeypatch.delenv(ENV_VAR, raising=False)


@pytest.fixture
def fake_chromium(tmp_path) -> str:
    path = tmp_path / "chrome"
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


def test_configured_path_wins(no_env, fake_chromium, monkeypatch):
    monkeypatch.setenv(ENV_VAR, "/somewhere/else")
    assert find_chromium(BrowserConfig(executable_path=fake_chromium), bundled="") == fake_chromium


def test_configured_path_must_exist(no_env):
    with pytest.raises(CaptureError, match=r"browser.executable_path is '/no/such/chrome'"):
        find_chromium(BrowserConfig(executable_path="/no/such/chrome"), bundled="")


def test_env_var_overrides_discovery(fake_chromium, monkeypatch):
    monkeypatch.setenv(ENV_VAR, fake_chromium)
    assert find_chromium(BrowserConfig(), bundled="/also/there") == fake_chromium
    monkeypatch.setenv(ENV_VAR, "/no/such/env/chrome")
    with pytest.raises(CaptureError, match=f"{ENV_VAR} is '/no/such/env/chrome'"):
        find_chromium(BrowserConfig(), bundled="")


def test_bundled_before_system(no_env, fake_chromium, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/should-not-be-used")
    assert find_chromium(BrowserConfig(), bundled=fake_chromium) == fake_chromium


def test_system_chromium_when_no_bundled(no_env, fake_chromium, monkeypatch):
    seen = []

    def which(name):
        seen.append(name)
        return fake_chromium if name == "chromium-browser" else None

    monkeypatch.setattr(shutil, "which", which)
    assert find_chromium(BrowserConfig(), bundled="/not/installed") == fake_chromium
    assert seen == ["/usr/bin/chromium", "chromium", "chromium-browser"]


def test_no_browser_gives_install_advice(no_env, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(CaptureError, match="playwright install chromium"):
        find_chromium(BrowserConfig(), bundled="")


def test_discovery_without_arguments(no_env):
    browser_module._playwright_chromium.cache_clear()
    try:
        path = find_chromium()
    except CaptureError:
        pytest.skip("no Chromium on this machine")
    assert Path(path).is_file()


def test_config_validation_names_every_key():
    with pytest.raises(FormatError) as info:
        BrowserConfig(capture_timeout_ms=0, max_nodes=-1, viewport=(0, 720))
    message = str(info.value)
    assert "capture_timeout_ms" in message and "max_nodes" in message and "viewport" in message


def test_launch_args():
    assert launch_args(BrowserConfig()) == list(HEADLESS_ARGS)
    headful = launch_args(BrowserConfig(headless=False, extra_args=["--lang=de", "--no-sandbox"]))
    assert "--headless" not in headful and headful[-1] == "--lang=de"
    assert headful.count("--no-sandbox") == 1


@pytest.mark.browser
def test_launch_failure_is_a_capture_error(tmp_path):
    import asyncio

    broken = tmp_path / "not-chromium"
    broken.write_text("#!/bin/sh\nexit 3\n")
    broken.chmod(0o755)

    async def launch():
        async with launch_browser(
            BrowserConfig(executable_path=str(broken), launch_timeout_ms=5000)
        ):
            pass

    with pytest.raises(CaptureError, match="could not start Chromium at .*not-chromium"):
        asyncio.run(launch())
