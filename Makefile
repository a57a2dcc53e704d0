# Maester: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test venv soak bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(PY) -m adjudicator.robots.demo

test: $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m pytest

soak: $(STAMP)
	$(VENV)/bin/maester simulate --soak 1000

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist .pytest_cache
