# Card Codex — the two commands a newcomer needs are `make run` and `make test`.
# Everything else (virtual environment, dependencies, database, demo data, static files,
# translations) is set up by `make install`, which both of them run first.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
PYTEST_ARGS ?=
# The suite in parallel processes (pytest-xdist), one per core up to 4, a test file per
# process at a time; `make test PYTEST_WORKERS=` runs it in one process.
PYTEST_WORKERS ?= -n auto --maxprocesses 4 --dist loadfile
export PYTEST_WORKERS

.PHONY: install run test test-postgres lint format messages bench bench-scale load test-tools clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

install: $(VENV)/.installed node_modules/.installed
	@./scripts/ensure-fonts.sh
	$(MANAGE) compile_translations
	$(MANAGE) migrate --noinput
	$(MANAGE) load_demo
	$(MANAGE) recompute --if-stale
	$(MANAGE) collectstatic --noinput --verbosity 0

# The server and one task worker beside it (core/jobs.py); the worker stops with the server.
run: install
	@$(MANAGE) db_worker --no-reload & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(MANAGE) runserver 127.0.0.1:8000

# Browser tests need Chromium and the catalogue guard needs gettext: installed as root, else skipped.
test-tools:
	@./scripts/ensure-test-tools.sh

test: install test-tools
	$(PY) -m pytest $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Throughput and latency side by side (about 3 minutes), and 60 s of mixed load; loopback only.
bench: install
	$(PY) bench/run_bench.py

load: install
	$(PY) bench/load.py

# The site at 1,000 / 100,000 / 1,000,000 cards on a throwaway PostgreSQL 15 cluster.
bench-scale: install
	$(PY) bench/bench_scale.py $(BENCH_SCALE_ARGS)

# The suite against a throwaway PostgreSQL 15 cluster (CI runs it after `make test`).
test-postgres: install
	bash scripts/ci-postgres.sh $(PYTEST_ARGS)

# ruff; vulture for dead code (settings in pyproject.toml, the names it cannot see in
# vulture_whitelist.py); mypy on engine and core ([tool.mypy]).
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/vulture
	$(VENV)/bin/mypy

format: $(VENV)/.installed
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# For developers adding strings: needs GNU gettext's xgettext (apt-get install gettext).
messages: $(VENV)/.installed
	$(MANAGE) makemessages --locale ru --no-obsolete --ignore '.venv/*' --ignore 'node_modules/*' --ignore 'staticfiles/*' --ignore 'tests/*'
	$(MANAGE) compile_translations

clean:
	rm -rf $(VENV) node_modules staticfiles db.sqlite3 db.sqlite3-wal db.sqlite3-shm
