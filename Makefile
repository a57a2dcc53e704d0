# Maester: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEMO   := demo-game

.PHONY: demo test lint dist venv soak bench fuzz mutate mutate-results mutate-recheck mutate-table clean screenshots

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

# Replays the sample game into $(DEMO)/ (replaced on each run) and prints what to open.
demo: $(STAMP)
	$(PY) -m adjudicator.robots.demo $(DEMO)

test: $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev]'
	$(VENV)/bin/ruff check adjudicator tests benchmarks samples fuzz mutation
	$(VENV)/bin/mypy --strict adjudicator

# A player's install: dist/maester-*.whl (pipx install dist/maester-*.whl) and the sdist.
dist: $(STAMP)
	$(PY) -m pip install --quiet 'hatchling>=1.18'
	rm -rf dist
	$(PY) -m hatchling build -d dist
	@ls dist/

# Not in CI: a million inputs through every input path, about 25 minutes on one core (docs/testing.md).
# FUZZ_INPUTS=20000 for a short run; FUZZ_ARGS="--start 200000" and the like to run it in chunks.
FUZZ_INPUTS ?= 1000000
fuzz: $(STAMP)
	nice $(PY) -m fuzz --inputs $(FUZZ_INPUTS) $(FUZZ_ARGS)

# Not in CI: mutation testing (mutmut, through mutation/run.py) of engine/rules, engine/cards and
# engine/core against every test that reaches them (docs/testing.md). The whole run takes many hours
# on a shared core: run it a module at a time, e.g. make mutate MUTANTS=rules/iron_bank.py (or
# MUTANTS='rules/*'); verdicts are kept in mutants/ and a stopped run goes on where it left off.
# make mutate-results lists the survivors (MUTANTS= for one module); make mutate-table the scores.
MUTANTS ?=
mutate: $(STAMP)
	$(PY) -m pip install --quiet -e '.[mutate]'
	nice -n 19 $(PY) -m mutation run $(MUTANTS)

mutate-results: $(STAMP)
	$(PY) -m mutation results $(MUTANTS)

# After adding tests: forget the survivors' verdicts, so that the next make mutate runs them again
# (mutmut keeps a verdict until the mutated function itself changes).
mutate-recheck: $(STAMP)
	$(PY) -m mutation recheck $(MUTANTS)

# The score table of docs/testing.md, written into it.
mutate-table: $(STAMP)
	$(PY) -m mutation table --write

soak: $(STAMP)
	$(VENV)/bin/maester simulate --soak 1000

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache $(DEMO) mutants

# Screenshots of a late 6-player step's public and private reports at 400 and 1280 px (needs chromium).
screenshots: $(STAMP)
	$(PY) samples/screenshots.py
