# Maester: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEMO   := demo-game

.PHONY: demo test lint dist venv soak bench fuzz clean screenshots

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
	$(VENV)/bin/ruff check adjudicator tests benchmarks samples fuzz
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

soak: $(STAMP)
	$(VENV)/bin/maester simulate --soak 1000

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache $(DEMO)

# Screenshots of a late 6-player step's public and private reports at 400 and 1280 px (needs chromium).
screenshots: $(STAMP)
	$(PY) samples/screenshots.py
