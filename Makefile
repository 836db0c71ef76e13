# Two commands a new user runs: `make demo` and `make test`. Each installs what it needs
# into .venv on first use and starts the local services itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install clean services-stop

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip uv
	$(BIN)/uv pip install --python $(BIN)/python --quiet -e '.[dev]' || $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kea demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

services-stop: $(STAMP)
	$(BIN)/kea services stop

clean:
	-$(BIN)/kea services stop
	rm -rf $(VENV) .kea
