# kumite — developer commands. `make play` and `make test` work on a fresh machine.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve play test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

## Install into .venv and serve the web table on http://127.0.0.1:8000 (SQLite storage).
serve: $(STAMP)
	$(VENV)/bin/kumite serve

## Install into .venv and play Street Fighter Rivals against the AI in the terminal.
play: $(STAMP)
	$(VENV)/bin/kumite play

## Install the test tools and run the whole suite: lint, types, tests.
test: lint typecheck pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	$(PY) -m pytest -n auto -q

## Run every benchmark (rates are printed; nothing here asserts a time).
bench: $(STAMP)
	for script in benchmarks/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
