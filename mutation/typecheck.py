"""mypy --strict over the mutants' copy: the mutants that ``make lint`` would reject.

A mutant mypy rejects (``None`` passed for a ``GameState``, an argument dropped, ``st, board =
None``) is no program the project could ever hold, and needs no test run; about two thirds of the
engine's mutants are such. :mod:`mutation.run` hands mutmut these as "caught by type check" in the
place of mutmut's own filter, which maps each error to its mutant by parsing every mutated file
with libcst again (ten minutes on a shared core each run); here the line spans mutmut wrote beside
each file (``*.py.spans``) say it at once.

Errors the copying itself causes in any copy of a function do not count: an ``__init__`` renamed
for its mutants needs a return annotation and redefines its attributes (``no-untyped-def``,
``no-redef``), and an ignore comment is unused in the copies that do not need it
(``unused-ignore``). Nor do errors outside every mutant.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

COPYING = {"no-untyped-def", "no-redef", "unused-ignore"}


def mutant_spans(path: Path) -> dict[str, tuple[int, int]]:
    """A mutated file's mutants (function names, as in mutmut's mutant names) and their lines."""
    spans = path.with_name(path.name + ".spans")
    if not spans.exists():
        return {}
    found = json.loads(spans.read_text(encoding="utf-8"))["spans"]
    return {name: (a, b) for name, (a, b) in found.items() if not name.endswith("__mutmut_orig")}


def rejected(mutants: Path) -> dict[str, str]:
    """Full mutant name -> mypy's first error in it, for the mutated package copy in ``mutants``."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--output", "json", "--cache-dir", ".mypy_cache", "adjudicator"],
        cwd=mutants, capture_output=True, text=True, check=False,
    )
    spans: dict[str, dict[str, tuple[int, int]]] = {}
    found: dict[str, str] = {}
    for line in done.stdout.splitlines():
        if not line.strip().startswith("{"):
            continue
        error = json.loads(line)
        if error.get("severity") != "error" or error.get("code") in COPYING:
            continue
        file = error["file"]
        if file not in spans:
            spans[file] = mutant_spans(mutants / file)
        for name, (a, b) in spans[file].items():
            if a <= error["line"] <= b:
                module = Path(file).with_suffix("").as_posix().replace("/", ".")
                found.setdefault(f"{module}.{name}", error["message"])
                break
    if not found and done.returncode not in (0, 1):
        raise SystemExit(f"mutation: mypy failed in {mutants}: {done.stderr.strip()[:500]}")
    return found
