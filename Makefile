# Two commands a new user runs: `make demo` and `make test`. Each installs what it needs
# into .venv on first use and starts the local services itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench
BROWSER_STAMP := $(VENV)/.installed-browser
# Open WebUI lives in its own environment: it is the pipe's host, not a dependency of Kea
OWUI_VENV := .venv-openwebui
OPEN_WEBUI_VERSION := 0.12.4

.PHONY: demo test test-fast test-browser test-replicas eval eval-oracle bench install clean services-stop

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip uv
	$(BIN)/uv pip install --python $(BIN)/python --quiet --compile-bytecode -e '.[dev]' || $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# eval and bench also draw charts: the bench extras (matplotlib) on top of the dev install
$(BENCH_STAMP): $(STAMP)
	$(BIN)/uv pip install --python $(BIN)/python --quiet --compile-bytecode -e '.[dev,bench]' || $(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

# Open WebUI with the CPU build of torch from this machine's wheel folder when there is one (else
# uv would resolve a CUDA build of several GB), and Playwright for Debian's Chromium.
$(BROWSER_STAMP): $(STAMP)
	$(BIN)/uv pip install --python $(BIN)/python --quiet -e '.[dev,browser]'
	test -x $(OWUI_VENV)/bin/open-webui || { \
	  $(BIN)/uv venv --quiet --python $(PYTHON) $(OWUI_VENV) && \
	  $(BIN)/uv pip install --python $(OWUI_VENV)/bin/python --quiet open-webui==$(OPEN_WEBUI_VERSION) \
	    $$(ls /opt/wheels/torch-2.13.0+cpu-*.whl 2>/dev/null | head -1); }
	command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
	  || { echo "Install Debian's chromium (apt-get install chromium) for the browser tests." >&2; exit 1; }
	touch $(BROWSER_STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kea demo

# The test files spread over TEST_WORKERS processes (pytest-xdist), each with its own throwaway
# PostgreSQL cluster, Milvus Lite and corpus; a file's tests stay in one process.
TEST_WORKERS ?= 2
test: $(STAMP)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# The fast layer alone: pure functions, parsers, readings, pieces of nodes; no PostgreSQL, no services
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q tests/unit

# The real Open WebUI with the Kea pipe, in headless Chromium (a few minutes; not part of make test)
test-browser: $(BROWSER_STAMP)
	$(BIN)/python -m pytest -q -o addopts="" tests/browser

# Two kea serve replicas, 50 conversations across both, one replica killed mid-run (about 4
# minutes; make test runs the same test with 10 conversations)
test-replicas: $(STAMP)
	KEA_TEST_REPLICA_CONVERSATIONS=50 $(BIN)/python -m pytest -q -o addopts="" tests/integration/test_replicas.py

# make eval [ENGINE=llm] [MODEL=name] [BASE_URL=http://host:8000/v1]
eval: $(BENCH_STAMP)
	$(BIN)/python -m evals.run $(if $(ENGINE),--engine '$(ENGINE)') $(if $(MODEL),--model '$(MODEL)') $(if $(BASE_URL),--base-url '$(BASE_URL)')

# Kea's llm engine against a perfect scripted model over the unseen requests: where Kea's own
# code (parsing, the text windows, the checks, assembly) loses rows such a model gives
eval-oracle: $(BENCH_STAMP)
	$(BIN)/python -m evals.oracle --markdown evals/results/oracle.md

bench: $(BENCH_STAMP)
	$(BIN)/python -m evals.bench

services-stop: $(STAMP)
	$(BIN)/kea services stop

# the environments only: the knowledge base stays in Kea's home (kea services status names it)
clean:
	-$(BIN)/kea services stop
	rm -rf $(VENV) $(OWUI_VENV)
