PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the extras `make install` installs; CI may add ray: make test EXTRAS=dev,web,research,sim,load,ray
EXTRAS ?= dev,web,research,sim,load

.PHONY: .venv install run play test lint typecheck bench clean

.venv install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/civcards serve

play: $(STAMP)
	$(BIN)/civcards play

lint: $(STAMP)
	$(BIN)/ruff check civcards tests

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP)
	$(BIN)/ruff check civcards tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

bench: $(STAMP)
	$(BIN)/civcards bench

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
