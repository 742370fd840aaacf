#!/usr/bin/env bash
# BrowserGym in its own virtual environment, for `python -m eval --config configs/eval/browsergym.yaml`.
# BrowserGym pins playwright==1.44, which the project's Playwright cannot share a venv with, so the
# eval bridge (eval/browsergym/) runs BrowserGym's server in this venv and talks to it over a pipe.
# Idempotent: a second run only checks. Needs the project venv first (`make setup`); BrowserGym's
# Playwright uses that setup's Chromium (no `playwright install`).
#   bash scripts/setup_browsergym.sh        # venv in $PAGESCOUT_BROWSERGYM_VENV or .cache/browsergym-venv
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${PAGESCOUT_BROWSERGYM_VENV:-.cache/browsergym-venv}
PY=${PYTHON:-python3}
BROWSERGYM_VERSION=${PAGESCOUT_BROWSERGYM_VERSION:-0.14.3}
# browsergym-experiments holds the leaderboard's benchmark definition (the bridge checks its own
# episode list against it); it imports pandas and tqdm without declaring them.
PACKAGES=("browsergym-core==$BROWSERGYM_VERSION" "browsergym-miniwob==$BROWSERGYM_VERSION"
          "browsergym-experiments==$BROWSERGYM_VERSION" "pandas" "tqdm")

log() { printf '[setup-browsergym] %s\n' "$*"; }

installed() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - "$BROWSERGYM_VERSION" <<'PY' 2>/dev/null
import sys
from importlib import metadata
import browsergym.miniwob, browsergym.experiments.benchmark  # noqa: F401
sys.exit(0 if metadata.version("browsergym-miniwob") == sys.argv[1] else 1)
PY
}

if installed; then
  log "BrowserGym $BROWSERGYM_VERSION already in $VENV"
else
  if [ ! -x "$VENV/bin/python" ]; then
    log "creating virtual environment $VENV"
    mkdir -p "$(dirname "$VENV")"
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
  fi
  log "installing ${PACKAGES[*]}"
  "$VENV/bin/pip" install --quiet "${PACKAGES[@]}"
  installed || { log "BrowserGym did not import in $VENV after installing"; exit 1; }
fi

# BrowserGym's Playwright 1.44 ships no browser here: the bridge hands it the project's Chromium
# (pipeline.live.browser.find_chromium: $PAGESCOUT_CHROMIUM, Playwright's own, /usr/bin/chromium).
if ! command -v chromium >/dev/null 2>&1 && [ -z "${PAGESCOUT_CHROMIUM:-}" ]; then
  log "warning: no system chromium and no \$PAGESCOUT_CHROMIUM; run scripts/setup.sh first"
fi
log "ready: $VENV"
