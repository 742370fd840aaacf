"""BrowserGym's side of the bridge: runs in BrowserGym's own virtualenv (stdlib + browsergym only).

    <browsergym venv>/bin/python eval/browsergym/server.py '{"chromium": PATH, "args": [...]}'

Started by ``eval.browsergym.bridge`` with ``MINIWOB_URL`` set. Reads one JSON request per stdin
line and writes one JSON reply per line to the stdout it was started with (anything BrowserGym
prints goes to stderr). Requests (``op``):

- ``hello``: versions, BrowserGym's registered MiniWoB tasks and, when browsergym-experiments is
  installed, its ``miniwob`` benchmark as ``[task_name, seed]`` pairs (the bridge checks its own
  episode list against it).
- ``reset`` ``{task, seed}``: ``gym.make("browsergym/miniwob.<task>")`` and ``env.reset(seed)``;
  replies the goal, the task page's URL and the DevTools URL of the Chromium it runs in.
- ``validate``: the task's own ``validate`` (what ``env.step("noop()")`` would reward, without the
  step's one-second wait and observation).
- ``close``: closes the episode's environment (and so its browsers); ``quit``: closes and exits.

Every ``chromium.launch`` BrowserGym makes (the task's and its chat window's) gets the configured
Chromium and flags appended to BrowserGym's own ``args``; the task's browser also gets a free
``--remote-debugging-port`` so the bridge can drive its page over CDP.
"""

import json
import os
import socket
import sys
import traceback


class Launcher:
    """Wraps Playwright's ``BrowserType.launch`` for every launch BrowserGym makes."""

    def __init__(self, chromium, args):
        self.chromium = chromium
        self.args = list(args)
        self.port = None  # the DevTools port of the next launch (env.reset launches the task first)

    def install(self):
        from playwright.sync_api import BrowserType

        original = BrowserType.launch
        launcher = self

        def launch(browser_type, *args, **kwargs):
            if launcher.chromium:
                kwargs.setdefault("executable_path", launcher.chromium)
            extra = list(launcher.args)
            if launcher.port is not None:
                extra.append(f"--remote-debugging-port={launcher.port}")
                launcher.port = None
            kwargs["args"] = list(kwargs.get("args") or []) + extra
            return original(browser_type, *args, **kwargs)

        BrowserType.launch = launch


class Server:
    def __init__(self, config):
        self.launcher = Launcher(config.get("chromium"), config.get("args", []))
        self.launcher.install()
        self.env = None

    def hello(self, request):
        from importlib import metadata

        import browsergym.miniwob

        out = {"versions": {name: metadata.version(name) for name in
                            ("browsergym-core", "browsergym-miniwob", "playwright")},
               "tasks": [t.get_task_id() for t in browsergym.miniwob.ALL_MINIWOB_TASKS],
               "episodes": None, "max_steps": None}
        try:
            from browsergym.experiments.benchmark.configs import DEFAULT_BENCHMARKS
        except ImportError:
            return out
        benchmark = DEFAULT_BENCHMARKS["miniwob"]()
        out["episodes"] = [[a.task_name, a.task_seed] for a in benchmark.env_args_list]
        out["max_steps"] = sorted({a.max_steps for a in benchmark.env_args_list})
        out["versions"]["browsergym-experiments"] = metadata.version("browsergym-experiments")
        return out

    def reset(self, request):
        import browsergym.miniwob  # noqa: F401 -- registers the browsergym/miniwob.* environments
        import gymnasium as gym

        self.close(request)
        port = free_port()
        self.launcher.port = port
        self.env = gym.make(f"browsergym/miniwob.{request['task']}", headless=True)
        try:
            obs, _ = self.env.reset(seed=request["seed"])
        finally:
            self.launcher.port = None
        page = self.env.unwrapped.page
        return {"goal": obs["goal"], "url": page.url, "cdp_url": f"http://127.0.0.1:{port}"}

    def validate(self, request):
        if self.env is None:
            raise RuntimeError("no episode: reset first")
        env = self.env.unwrapped
        reward, done, _, info = env.task.validate(env.page, env.chat.messages)
        return {"reward": float(reward), "terminated": bool(done), "truncated": False,
                "raw_reward": info.get("RAW_REWARD_GLOBAL"), "reason": info.get("REWARD_REASON")}

    def close(self, request):
        env, self.env = self.env, None
        if env is not None:
            env.close()
        return {}

    def quit(self, request):
        return self.close(request)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main():
    config = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    replies = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # whatever else writes to stdout lands in stderr, not in the replies
    sys.stdout = sys.stderr
    server = Server(config)
    for line in sys.stdin:
        request = json.loads(line)
        op = request.get("op")
        try:
            if op not in ("hello", "reset", "validate", "close", "quit"):
                raise ValueError(f"unknown op {op!r}")
            reply = {"ok": True, **getattr(server, op)(request)}
        except Exception as exc:  # noqa: BLE001 -- every failure goes back to the bridge
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:2000],
                     "trace": traceback.format_exc()[-4000:]}
        replies.write(json.dumps(reply) + "\n")
        if op == "quit":
            break


if __name__ == "__main__":
    main()
