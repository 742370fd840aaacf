"""Shared pieces of the recorder tests: one MiniWoB++ server, episodes in the shared browser."""

from __future__ import annotations

from datagen.miniwob.episode import EpisodeRun, EpisodeSettings, run_episode
from pipeline.live.browser import BrowserConfig

SETTINGS = EpisodeSettings(BrowserConfig(), max_time_ms=60_000, max_steps=30,
                           target_wait_ms=2_000, disable_animations=True)


def play(session, base_url: str, task: str, seed: int) -> EpisodeRun:
    """One episode in the shared ``capture_session`` (sync CaptureSession)."""
    return session.run(run_episode(session.page, base_url, task, seed, SETTINGS))
