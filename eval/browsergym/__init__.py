"""BrowserGym's MiniWoB benchmark behind a bridge: ``benchmark`` (the leaderboard's episodes,
reproduced without BrowserGym; the seeds training must avoid), ``bridge`` (our side: a server in
BrowserGym's own venv, its page driven over CDP), ``server`` (BrowserGym's side, run in that
venv). Used by ``eval.browsergym_harness``."""
