PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# the extras `make install` installs; CI may add ray: make test EXTRAS=dev,web,research,sim,load,ray
EXTRAS ?= dev,web,research,sim,load

.PHONY: .venv install run play test lint typecheck bench clean translations translations-update translations-check rules-tables screenshots

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
	$(BIN)/ruff check civcards tests scripts studies

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) translations
	$(BIN)/ruff check civcards tests scripts studies
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2

# the card tables of docs/rules/*.md, from the games' card data (tests/test_rule_citations.py checks them)
rules-tables: $(STAMP)
	$(BIN)/python scripts/rules_tables.py

# the screenshots of the web table: the baselines of tests/web/test_screenshots.py and the
# pictures of docs/web.md and the README (look at every PNG before committing them)
screenshots: $(STAMP)
	$(BIN)/python scripts/screenshots.py --baselines --docs

# gettext catalogues (docs/translations.md): civcards/locale/<lang>/LC_MESSAGES/<domain>.po
LOCALE := civcards/locale
LOCALE_DOMAINS = $(basename $(notdir $(wildcard $(LOCALE)/en/LC_MESSAGES/*.po)))

# compile every .po into its .mo (the .mo files are committed too)
translations: $(STAMP)
	@for d in $(LOCALE_DOMAINS); do $(BIN)/pybabel compile -d $(LOCALE) -D $$d; done

# after adding or changing a text in an English .po: new templates, merged into every language
translations-update: $(STAMP)
	$(BIN)/python -m civcards.locale template
	@for d in $(LOCALE_DOMAINS); do $(BIN)/pybabel update -i $(LOCALE)/$$d.pot -d $(LOCALE) -D $$d --width 100; done

# missing, empty or fuzzy translations and stale .mo files
translations-check: $(STAMP)
	$(BIN)/python -m civcards.locale check

bench: $(STAMP)
	$(BIN)/civcards bench

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .ruff_cache .pytest_cache .hypothesis test-artifacts
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
