# pagescout: `make demo` runs the main job (record -> build -> train -> eval -> report, stages
# cached in outputs/demo), `make test` runs the test suite. Both set everything up first
# (scripts/setup.sh is idempotent; `make test` also sets up BrowserGym's own venv, so the bridge's
# live tests run). `make demo-tiny` is the same chain in miniature; `make report`
# the page engine's report on the bundled pages; `make serve` the server (SERVE_ARGS="checkpoint=RUN
# port=8011" to serve a trained model; the untuned base model by default).
PY := .venv/bin/python

.PHONY: setup setup-browsergym demo demo-tiny report serve test test-fast bench lint

setup:
	bash scripts/setup.sh

setup-browsergym: setup
	bash scripts/setup_browsergym.sh

demo: setup
	$(PY) scripts/chain.py --config configs/chain/demo.yaml

demo-tiny: setup
	$(PY) scripts/chain.py --config configs/chain/demo-tiny.yaml

report: setup
	$(PY) -m pipeline report --config configs/pipeline/report.yaml

serve: setup
	$(PY) -m pipeline serve --config configs/serve/default.yaml $(SERVE_ARGS)

# The suite in TEST_WORKERS processes (pytest-xdist; one per core, at most 4), a test file to a
# process so module fixtures load once, the files with slow tests handed out first (the order
# tests/conftest.py gives them); TEST_WORKERS=0 runs it in this process.
TEST_WORKERS ?= auto

test: setup setup-browsergym
	$(PY) -m pytest -q -n $(TEST_WORKERS) --maxprocesses=4 --dist loadfile --no-loadscope-reorder

test-fast: setup
	$(PY) -m pytest -q -m "not browser and not slow"

bench: setup
	$(PY) benchmarks/serializer_benchmark.py

lint:
	.venv/bin/ruff check pipeline datagen training eval tests benchmarks scripts
