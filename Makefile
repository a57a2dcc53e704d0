# Maester: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
DEMO   := demo-game

.PHONY: demo test lint dist venv soak bench fuzz mutate mutate-results mutate-recheck clean screenshots

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

# Not in CI: mutation testing (mutmut) of engine/rules, engine/cards and engine/core against the
# rules tests (docs/testing.md). The whole run takes hours on one core: run it in chunks, a module at a
# time, e.g. make mutate MUTANTS='adjudicator.engine.rules.casualties*'; results are kept in mutants/
# and a later run goes on where the last one stopped. make mutate-results lists what survived.
MUTANTS ?=
mutate: $(STAMP)
	$(PY) -m pip install --quiet -e '.[mutate]'
	nice $(VENV)/bin/mutmut run --max-children 1 $(MUTANTS)

mutate-results: $(STAMP)
	$(VENV)/bin/mutmut results

# After adding tests: forget the survivors' verdicts, so that the next make mutate runs them again
# (mutmut keeps a verdict until the mutated function itself changes).
mutate-recheck:
	$(PY) -c 'import json, pathlib; [p.write_text(json.dumps({**d, "exit_code_by_key": {k: (None if v == 0 else v) for k, v in d["exit_code_by_key"].items()}})) for p in pathlib.Path("mutants").rglob("*.meta") for d in [json.loads(p.read_text())]]'

soak: $(STAMP)
	$(VENV)/bin/maester simulate --soak 1000

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache $(DEMO) mutants

# Screenshots of a late 6-player step's public and private reports at 400 and 1280 px (needs chromium).
screenshots: $(STAMP)
	$(PY) samples/screenshots.py
