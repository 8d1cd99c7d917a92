# Two commands: `make run` (set up and start the app), `make test` (set up and run every check).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE=1, as on
# the CI machines): without it every process compiles what it imports, again and again. The
# suite starts hundreds of processes (sandbox workers, servers, pytest's workers, real-PyTorch
# runs); uncached, importing the engine cost 1.2-1.4 CPU-s instead of 0.5, collecting the suite
# 11 CPU-s instead of 5.6 in each of pytest's workers, and importing torch 5.4 instead of 3.3.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test checks setup system-deps lint typecheck pytest bench fixtures clean frontend \
	frontend-test torch-test torch-suite

run: setup frontend
	$(BIN)/backscope serve --open

# Set-up first, its three parts side by side (they wait on the package index and the disk as
# much as on the CPU): this venv, the frontend build, the real-PyTorch venv. Then the Python
# suite, the long pole, with the other checks beside it in make's second job slot, one at a
# time: lint, types, vitest, the real-PyTorch tests. `-O` keeps each one's output together.
test:
	$(MAKE) --no-print-directory -j3 -Otarget setup frontend $(TORCH_STAMP)
	$(MAKE) --no-print-directory -j2 -Otarget pytest checks

checks: lint typecheck frontend-test torch-suite

# The app's own packages compiled ahead: sandbox workers see them read-only and cannot cache.
setup: $(STAMP) system-deps
	$(BIN)/python -m compileall -q engine server protocol backscope

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# The browser app: `npm ci` when node_modules is missing or the lock file changed, then a build
# into frontend/dist (served by the server at `/`); `frontend-test` runs the vitest suite.
FRONTEND_STAMP := frontend/node_modules/.installed

$(FRONTEND_STAMP): frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	touch $(FRONTEND_STAMP)

frontend: $(FRONTEND_STAMP)
	cd frontend && npm run build

frontend-test: $(FRONTEND_STAMP)
	cd frontend && npm test

# Debian packages the sandbox and browser tests use; installed only when missing.
system-deps:
	@bash tools/system-deps.sh

lint:
	$(BIN)/ruff check engine server protocol backscope tests bench tools deploy
	$(BIN)/ruff format --check engine server protocol backscope tests bench tools deploy
	$(BIN)/hadolint Dockerfile

typecheck:
	$(BIN)/mypy

# Six workers. On 2 cores the suite is CPU-bound: sampled from /proc/stat, the machine was
# 95-100 % busy through a quiet run on six workers (24:05; four took 23:38 with 82 fewer tests),
# so more workers do not shorten it here; what does is less CPU (tools/suite_timeline.py ranks
# files by their processes' CPU). Six overlap the tests that wait on clocks and processes on a
# machine with more cores. A file's tests that share a module
# fixture (a live server) go to one worker together (tests/conftest.py: xdist groups); no test
# depends on speed, so tests beside each other on a busy machine still hold. The real-PyTorch
# suite runs beside it on two workers of its own.
PYTEST_WORKERS ?= 6
TORCH_WORKERS ?= 2
pytest:
	$(BIN)/pytest -q -p no:cacheprovider -n $(PYTEST_WORKERS) --dist loadgroup --durations=25 --ignore=tests/torch

# The real-PyTorch backend (backscope/) against real torch, in a venv of its own: the pinned CPU
# wheel first (a bare `torch` requirement could pull a multi-GB CUDA build), then this project
# with the extras a user installs (`backscope[torch]`) and the tests' own tools. `--no-compile`:
# torch is thousands of modules of which a run imports a fraction; those compile on first import.
TORCH_VENV := .venv-torch
TORCH_STAMP := $(TORCH_VENV)/.installed

$(TORCH_STAMP): pyproject.toml Makefile
	$(PY) -m venv $(TORCH_VENV)
	$(TORCH_VENV)/bin/pip install -q --no-compile torch==2.13.0 torchvision==0.28.0
	$(TORCH_VENV)/bin/pip install -q --no-compile -e '.[torch,notebook,torch-test]'
	touch $(TORCH_STAMP)

torch-test: setup frontend torch-suite

# (no rebuild of the frontend here: `test` runs this beside the browser tests reading its build)
torch-suite: $(TORCH_STAMP)
	$(TORCH_VENV)/bin/pytest -q -p no:cacheprovider -n $(TORCH_WORKERS) --dist loadfile tests/torch

# Speed against targets: the engine (BENCH_PY may be a Python with torch for its PyTorch
# column), the tracer's cost, and the browser app in headless Chromium (needs the build).
BENCH_PY ?= $(BIN)/python
bench: setup frontend
	PYTHONPATH=. $(BENCH_PY) bench/bench_engine.py
	PYTHONPATH=. $(BIN)/python bench/bench_trace.py
	$(BIN)/python bench/bench_frontend.py

# Re-record every PyTorch reference fixture (TORCH_PY: a Python with torch==2.13.0 installed;
# the recorders are the only code that imports torch).
TORCH_PY ?= $(BIN)/python
RECORDERS := tests/fixtures/record.py tests/fixtures/record_snippets.py \
	tests/fixtures/record_views.py tests/fixtures/record_nn.py tests/fixtures/record_toolkit.py \
	tests/fixtures/record_seeds.py tests/trace/record_hook_order.py \
	tests/fixtures/record_names.py
fixtures:
	for r in $(RECORDERS); do PYTHONPATH=. $(TORCH_PY) $$r || exit 1; done

clean:
	rm -rf $(VENV) $(TORCH_VENV) frontend/node_modules frontend/dist
