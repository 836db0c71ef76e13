# Two commands a new user runs: `make demo` and `make test`. Each installs what it needs
# into .venv on first use and starts the local services itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
BENCH_STAMP := $(VENV)/.installed-bench

.PHONY: demo test eval bench install clean services-stop

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip uv
	$(BIN)/uv pip install --python $(BIN)/python --quiet --compile-bytecode -e '.[dev]' || $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# eval and bench also draw charts: the bench extras (matplotlib) on top of the dev install
$(BENCH_STAMP): $(STAMP)
	$(BIN)/uv pip install --python $(BIN)/python --quiet --compile-bytecode -e '.[dev,bench]' || $(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kea demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

# make eval [ENGINE=llm] [MODEL=name] [BASE_URL=http://host:8000/v1]
eval: $(BENCH_STAMP)
	$(BIN)/python -m evals.run $(if $(ENGINE),--engine '$(ENGINE)') $(if $(MODEL),--model '$(MODEL)') $(if $(BASE_URL),--base-url '$(BASE_URL)')

bench: $(BENCH_STAMP)
	$(BIN)/python -m evals.bench

services-stop: $(STAMP)
	$(BIN)/kea services stop

clean:
	-$(BIN)/kea services stop
	rm -rf $(VENV) .kea
