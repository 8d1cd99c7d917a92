# Two commands: `make run` (set up and start the app), `make test` (set up and run every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup system-deps lint typecheck pytest bench fixtures clean

run: setup
	$(BIN)/backscope serve --open

test: setup lint typecheck pytest

setup: $(STAMP) system-deps

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# Debian packages the sandbox and browser tests use; installed only when missing.
system-deps:
	@bash tools/system-deps.sh

lint:
	$(BIN)/ruff check engine server tests bench tools
	$(BIN)/ruff format --check engine server tests bench tools

typecheck:
	$(BIN)/mypy

pytest:
	$(BIN)/pytest -q -p no:cacheprovider

BENCH_PY ?= $(BIN)/python
bench: setup
	PYTHONPATH=. $(BENCH_PY) bench/bench_engine.py

# Re-record the PyTorch reference fixtures (needs `pip install torch==2.13.0` in TORCH_PY's env).
TORCH_PY ?= $(BIN)/python
fixtures:
	$(TORCH_PY) tests/fixtures/record.py

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist
