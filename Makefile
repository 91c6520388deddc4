# Marker: `make run` serves the demo league; `make test` runs the whole suite.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock | cksum | cut -d' ' -f1)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
HOST   ?= 127.0.0.1
PORT   ?= 8000
# The pad's JavaScript checks (eslint, node's test runner): npm's dev dependencies, installed
# again whenever package-lock.json changes. `make run` needs none of it.
NPM_STAMP := node_modules/.installed-$(shell cat package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)

.PHONY: run test check install lint bench clean lock pyodide

$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]' -c requirements.lock
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP) pyodide
install: $(NPM_STAMP)

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	rm -f node_modules/.installed-*
	touch $(NPM_STAMP)

# Pyodide for the pad's offline engine (npm; skipped with a note when npm is missing).
pyodide:
	@bash scripts/fetch-pyodide

run: $(STAMP) pyodide
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo_league
	DEBUG=1 $(PY) manage.py demo_match_nights
	DEBUG=1 $(PY) manage.py demo_competitions
	DEBUG=1 $(PY) manage.py demo_money
	DEBUG=1 $(PY) manage.py demo_series
	@echo "Marker is at http://$(HOST):$(PORT)/ — demo logins: admin, secretary, treasurer, captain, referee, bagatelle (password marker-demo)"
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

test: $(STAMP) pyodide check
	node --test tests/js/
	@bash scripts/ensure-browser
	$(PY) -m pytest -q -n 2 --dist loadgroup $(PYTEST_ARGS)

# The house checks (also run by pre-commit): lint, formatting, import contracts, types, and
# no model change without its migration.
check: $(STAMP)
	node_modules/.bin/eslint static/frames tests/js eslint.config.js
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	DEBUG=1 DATABASE_URL=sqlite:///:memory: $(PY) manage.py makemigrations --check --dry-run
	DEBUG=1 DATABASE_URL=sqlite:///:memory: $(PY) manage.py spectacular --fail-on-warn --file /dev/null

check: $(NPM_STAMP)

lint: check

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

lock: $(STAMP)
	{ echo '# Every package Marker installs, at the versions CI tests (pip constraints).'; \
	  echo '# Regenerate after changing pyproject.toml: make lock'; \
	  $(PY) -m pip freeze --exclude-editable | grep -v '^-e'; } > requirements.lock

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .hypothesis
	rm -rf node_modules
