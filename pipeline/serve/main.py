"""``python -m pipeline serve``: load the model, open the browser pool, run uvicorn.

    python -m pipeline serve --config configs/serve/default.yaml checkpoint=runs/training/x
    python -m pipeline serve --config configs/serve/default.yaml model=smollm2 port=8011

    with running_server(app, "127.0.0.1", 0) as base_url:   # tests and benchmarks
        ...                                                    # base_url = http://127.0.0.1:PORT

``build_app`` is what both use: the policy from ``checkpoint`` (a trained model) or ``model``
(a base model spec, untuned), the session pool and the agent runs, closed on shutdown.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from pipeline.errors import PagescoutError
from pipeline.serve.config import ServeConfig


def load_policy(config: ServeConfig) -> Any:
    from pipeline.agent.model_policy import load_model_policy
    from pipeline.model.trained import trained_folder

    if config.checkpoint and trained_folder(config.checkpoint) is None:
        raise PagescoutError(f"checkpoint: {config.checkpoint} holds no trained model (no "
                             "adapter/, adapter_config.json or merged folder with functional "
                             "tokens); pass a training run folder, or model=smollm2 to serve "
                             "the untuned base model")
    return load_model_policy(config.spec, config.generation, config.dtype)


def build_app(config: ServeConfig, policy: Any = None) -> Any:
    """The app with its policy (loaded unless given), session pool and agent runs."""
    from pipeline.serve.app import create_app
    from pipeline.serve.runs import AgentRuns
    from pipeline.serve.sessions import SessionPool

    policy = policy if policy is not None else load_policy(config)
    sessions = SessionPool(config.sessions)
    runs = AgentRuns(policy, config.sessions, sessions)

    @asynccontextmanager
    async def lifespan(_app: Any):
        reaper = asyncio.create_task(sessions.reap_forever())
        try:
            yield
        finally:
            reaper.cancel()
            await sessions.close_all()

    return create_app(config, policy, sessions, runs, lifespan=lifespan)


def serve(config: ServeConfig) -> int:
    import uvicorn

    app = build_app(config)
    uvicorn.run(app, host=config.host, port=config.port, log_level=config.log_level,
                timeout_graceful_shutdown=5)
    return 0


@contextmanager
def running_server(app: Any, host: str = "127.0.0.1", port: int = 0,
                   log_level: str = "warning") -> Iterator[str]:
    """Serve ``app`` from a background thread; yields its base URL (a free port when 0)."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind((host, port))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level=log_level,
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name="pagescout-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise PagescoutError(f"the server did not start on {host}:{port}")
        time.sleep(0.05)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
