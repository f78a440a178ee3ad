# Drifter. `make run` and `make test` work on a fresh machine with Python 3.11.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.installed
# Where `make run` and `make dev` serve: http://127.0.0.1:$(PORT)
PORT ?= 8000
# Bytecode is cached (__pycache__/ is ignored by git), even where the machine's environment
# says not to: without it every process compiles the project's modules again as it starts,
# 0.2-0.25 s of a worker's 0.5-0.6 s of imports, paid again by each worker restarted after a
# kill and by every process the tests start (docs/performance.md). Empty is unset to Python.
export PYTHONDONTWRITEBYTECODE :=


.PHONY: run dev setup install engine test test-slow test-engine test-fast lint schema check bench browser clean help

help:
	@echo "make run    - set up and serve as production does (uvicorn, DEBUG off) on 127.0.0.1:$(PORT), plus a Celery worker"
	@echo "make dev    - the same with Django's development server (DEBUG on, auto-reload)"
	@echo "make test   - set up and run the whole test suite"
	@echo "make lint   - ruff, import contracts, in-function imports and long functions, mypy, migrations and OpenAPI schema checks"
	@echo "make schema - regenerate docs/openapi.yaml"
	@echo "make bench  - run the benchmarks (not tests): ratios against peers"

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The engine's hot modules compiled with mypyc into build/engine (simulator/engine/compiled.py);
# used only while they match the source, and skipped, saying so, where nothing can compile.
# (every module compiled.MODULES names, compiled.py itself and the training games it profiles)
ENGINE_SRC := $(wildcard simulator/engine/drifter/*.py) simulator/engine/core/bots.py \
	simulator/engine/core/draws.py simulator/engine/compiled.py simulator/engine/training.py
ENGINE_STAMP := build/engine/.built
$(ENGINE_STAMP): $(STAMP) $(ENGINE_SRC)
	@$(PY) -m simulator.engine.compiled build \
		|| echo "engine not compiled: it runs as pure Python (slower, the same games)"
	@mkdir -p $(@D) && touch $@

engine: $(ENGINE_STAMP)

install: $(STAMP) $(ENGINE_STAMP)

setup: install
	$(PY) manage.py ensure_database
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_catalogue
	$(PY) manage.py create_demo_user

# Web processes: one on the embedded default, whose table push channel lives in its memory;
# two where Redis carries the push channel between them (docs/operations.md).
WEB_CONCURRENCY ?= $(if $(or $(CHANNEL_LAYER_URL),$(findstring redis,$(CELERY_BROKER_URL))),2,1)
export WEB_CONCURRENCY

# Served as in production: uvicorn (ASGI: the pages, the API and the table's push channel) with
# DEBUG off, static files collected for WhiteNoise.
run: setup
	$(PY) manage.py collectstatic --noinput
	@echo "Starting web (http://127.0.0.1:$(PORT)) and a Celery worker; Ctrl-C stops both."
	$(BIN)/honcho start --port $(PORT)

# For developers: uvicorn with DEBUG on and auto-reload, and the Procfile's other
# processes as they are (its Procfile is made from the Procfile, so the two never drift apart).
dev: setup var/Procfile.dev
	@echo "Starting the development server (http://127.0.0.1:$(PORT)) and a Celery worker."
	DJANGO_DEBUG=true $(BIN)/honcho start --procfile var/Procfile.dev --port $(PORT)

var/Procfile.dev: Procfile
	@mkdir -p $(@D)
	{ echo 'web: $(BIN)/uvicorn config.asgi:application --reload --host 127.0.0.1 --port $${PORT:-8000}'; grep -v '^web:' Procfile; } > $@

# Best effort: Debian's Chromium for the browser tests (they skip, saying why, without it).
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "could not install chromium: browser tests will be skipped"; \
	fi

# The suite runs in TEST_PROCESSES processes (pytest-xdist; CI has two cores), each with a test
# database, broker and Celery workers of its own (docs/operations.md, "The test suite");
# TEST_PROCESSES=0 runs it in this one process.
TEST_PROCESSES ?= 2
test: install browser
	CELERY_FS_BROKER_DIR=$(CURDIR)/var/test-broker $(BIN)/pytest -q -n $(TEST_PROCESSES) --dist loadgroup -m "not slow"

# The long fuzz runs (schemathesis over every deck, pool and draft operation): on demand.
test-slow: install
	CELERY_FS_BROKER_DIR=$(CURDIR)/var/test-broker $(BIN)/pytest -q -m slow

# The engine's own tests (every game, its bots, the records): `DRIFTER_PURE_ENGINE=1 make
# test-engine` runs them on the pure-Python build, as CI does after the two whole-suite runs.
test-engine: install
	CELERY_FS_BROKER_DIR=$(CURDIR)/var/test-broker $(BIN)/pytest -q -n $(TEST_PROCESSES) --dist loadgroup -m "not slow" tests/simulator/engine

test-fast: install
	$(BIN)/pytest -q -m "not e2e and not slow and not worker"

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(PY) .ci/codecheck.py
	$(BIN)/mypy
	$(PY) manage.py makemigrations --check --dry-run
	$(PY) manage.py spectacular --file var/openapi.generated.yaml --validate --fail-on-warn
	diff -u docs/openapi.yaml var/openapi.generated.yaml || { echo "docs/openapi.yaml is stale: run make schema"; exit 1; }

schema: install
	$(PY) manage.py spectacular --file docs/openapi.yaml --validate --fail-on-warn

check: lint test

# benchmarks/run.py's benchmarks, then people at one table (issue #26): the push channel under
# load on the embedded default, and on PostgreSQL + Redis with two web processes (both running
# on 127.0.0.1: benchmarks/tables_live.py says so and fails without them).
bench: install
	@command -v wrk >/dev/null || { [ "$$(id -u)" = "0" ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1; } || true
	$(PY) benchmarks/run.py
	$(PY) benchmarks/tables_live.py
	$(PY) benchmarks/tables_live.py --redis

clean:
	rm -rf var/test-*.sqlite3* var/test-broker var/test-redis.* var/card-images build
