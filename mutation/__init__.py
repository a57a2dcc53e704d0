"""Mutation testing of the engine's rules: ``make mutate`` and friends (docs/testing.md).

A thin layer over mutmut 3 (``[tool.mutmut]`` in ``pyproject.toml``) that adds what a run on a
shared machine needs: one module at a time, going on where a stopped run left off, the
survivors listed, equivalent mutants named with why (``equivalent.toml``), and the score table of
docs/testing.md written from the verdicts. Not part of the package, never run in CI.
"""
