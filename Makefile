# kumite — developer commands. `make play` and `make test` work on a fresh machine.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The compiled build (mypyc, docs/speed.md): a separate, non-editable install, so that no
# compiled module ever shadows the sources being edited.
FAST_VENV ?= .venv-fast
FAST_PY := $(FAST_VENV)/bin/python
FAST_STAMP := $(FAST_VENV)/.installed
# everything the install copies: the code and its data (packs, card texts, the web faces)
SOURCES := $(shell find src -type f -not -path '*/__pycache__/*' -not -path '*.egg-info/*')

.PHONY: serve play test test-quick lint lint-js typecheck pytest fast test-compiled bench clean
# `make serve PORT=8080 HOST=0.0.0.0`
PORT ?= 8000
HOST ?= 127.0.0.1
SERVE_STAMP := $(VENV)/.serve-installed

# The tests need every extra: the test tools, the solver's and the lab's libraries.
$(STAMP): pyproject.toml
	@test -x $(PY) || { echo "== making $(VENV)"; $(PYTHON) -m venv $(VENV); }
	@echo "== installing kumite[test] (the test tools, the solver and the lab) into $(VENV)"
	$(PY) -m pip install --progress-bar on --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --progress-bar on --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Serving and playing in the terminal with the default bots need kumite and its `serve` extra
# only: not the solver's and the lab's libraries (numba, SciPy, matplotlib: the `solver` and
# `lab` extras) nor the test tools (ray, playwright, mypy).
$(SERVE_STAMP): pyproject.toml
	@test -x $(PY) || { echo "== making $(VENV)"; $(PYTHON) -m venv $(VENV); }
	@echo "== installing kumite[serve] into $(VENV) (the solver's bots: pip install -e '.[solver]')"
	$(PY) -m pip install --progress-bar on --disable-pip-version-check -e '.[serve]'
	touch $(SERVE_STAMP)

## Install what serving needs into .venv and serve the web table on http://$(HOST):$(PORT)/.
serve: $(SERVE_STAMP)
	$(VENV)/bin/kumite serve --host $(HOST) --port $(PORT)

## Install what playing needs into .venv and play Street Fighter Rivals against the AI in the terminal.
play: $(SERVE_STAMP)
	$(VENV)/bin/kumite play

## Install the test tools and run the whole suite: lint, types, tests (pure and compiled).
test: lint typecheck pytest test-compiled

## The suite without its slow and browser tests (markers in pyproject.toml), on the sources only:
## a check in a few minutes before `make test`.
test-quick: lint
	$(PY) -m pytest -n auto -q -m "not slow and not browser"

lint: $(STAMP) lint-js
	$(VENV)/bin/ruff check src tests benchmarks setup.py

# The web faces' JavaScript (ESLint's recommended rules, eslint.config.js), pinned by
# package-lock.json; needs Node.js and npm (Debian's nodejs and npm: .ci/run installs them).
JS := $(shell find src -name '*.js')
node_modules/.installed: package.json package-lock.json
	@echo "== installing the JavaScript linter (npm ci)"
	npm ci --no-audit --no-fund
	touch $@

lint-js: node_modules/.installed
	npx --no-install eslint --max-warnings 0 $(JS)

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	$(PY) -m pytest -n auto -q

$(FAST_STAMP): pyproject.toml setup.py $(SOURCES)
	$(PYTHON) -m venv $(FAST_VENV)
	$(FAST_PY) -m pip install --quiet --upgrade pip setuptools wheel
	$(FAST_PY) -m pip install --quiet '.[test]'
	rm -rf build  # setuptools would reuse stale objects of modules no longer compiled
	KUMITE_COMPILE=1 $(FAST_PY) -m pip install --quiet --no-build-isolation --no-deps \
		--force-reinstall .
	touch $(FAST_STAMP)

## Build the SF DBG and Rivales engines compiled with mypyc into .venv-fast (faster simulation; docs/speed.md).
fast: $(FAST_STAMP)

# What the compiled build runs again: the tests of what it compiles (setup.py's COMPILED: the
# contract's decision, memo and rng helpers, the runner, the SF DBG and Rivales engines and
# Rivales' greedy), and the suites that play every game through them (conformance,
# determinisation, the lab). The server, browser, solver and research interfaces sit above
# the engines and compile nothing: the pure run covers them once.
COMPILED_TESTS := tests/core tests/agents tests/games/sfdbg tests/games/rivales tests/sim \
	tests/test_conformance.py tests/test_determinize.py
COMPILED_SKIP := --ignore=tests/games/sfdbg/test_table.py --ignore=tests/games/rivales/test_table.py

## The tests of what is compiled, again on the compiled build: compiled and pure behave the same.
test-compiled: $(FAST_STAMP)
	$(FAST_PY) -m pytest -n auto -q -p no:cacheprovider -m "not browser" \
		$(COMPILED_SKIP) $(COMPILED_TESTS)

## Run every benchmark (rates are printed; nothing here asserts a time).
bench: $(FAST_STAMP)
	for script in benchmarks/*.py; do echo "== $$script"; $(FAST_PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) $(FAST_VENV) build node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
