"""What is mutated, what mutmut decided for each mutant, and the score of each module.

Reads ``[tool.mutmut]`` of ``pyproject.toml``, mutmut's verdict files (``mutants/**/*.meta``, one
per source file, JSON) and ``equivalent.toml``; needs neither mutmut nor the engine, so that the
configuration test and ``make mutate-results`` read the same facts.
"""

from __future__ import annotations

import fnmatch
import json
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
EQUIVALENT = Path(__file__).resolve().parent / "equivalent.toml"
RUNS = MUTANTS / "mutation-runs.json"  # per module: the commit and date of the run that finished it
PREFIX = "adjudicator.engine."  # mutant names are shown without it

# mutmut's exit codes (mutmut.stats.status_by_exit_code), folded into what the score needs: a mutant
# whose tests fail or time out is killed; one no selected test reaches survives like any other; one
# mypy --strict rejects (37, mutation/typecheck.py) is no program make lint would let in, and counts
# for neither side.
KILLED = {1, 3, 36, 24, -24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}
REJECTED = {37}
DECIDED = KILLED | SURVIVED | NO_TESTS | REJECTED


def config() -> dict[str, list[str]]:
    """The ``[tool.mutmut]`` table."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        table: dict[str, list[str]] = tomllib.load(f)["tool"]["mutmut"]
    return table


def mutated_files() -> list[Path]:
    """The source files mutmut mutates, relative to the checkout, in path order."""
    cfg = config()
    found = []
    for source in cfg["source_paths"]:
        for path in sorted((ROOT / source).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if any(fnmatch.fnmatch(rel, pattern) for pattern in cfg["only_mutate"]):
                found.append(Path(rel))
    return found


def short(path: Path) -> str:
    """``adjudicator/engine/rules/iron_bank.py`` -> ``rules/iron_bank.py``."""
    return path.as_posix().removeprefix("adjudicator/engine/")


def dotted(path: Path) -> str:
    """The module's name as mutant names start: ``adjudicator.engine.rules.iron_bank``."""
    return path.with_suffix("").as_posix().replace("/", ".")


def modules_named(arg: str) -> list[Path]:
    """The mutated modules an argument names: a path (``adjudicator/engine/rules/iron_bank.py``,
    ``rules/iron_bank.py``), a dotted name (``adjudicator.engine.rules.iron_bank``,
    ``rules.iron_bank``, with or without a trailing ``.*``), or a glob of those (``rules/*``)."""
    name = arg.strip().removesuffix(".*").removesuffix(".py")
    if "/" not in name:
        name = name.replace(".", "/")
    name = name.removeprefix("adjudicator/").removeprefix("engine/")
    return [p for p in mutated_files() if fnmatch.fnmatch(short(p).removesuffix(".py"), name)]


@dataclass
class Equivalent:
    """Mutants that no game can tell from the code, and why (``equivalent.toml``)."""

    why: str
    mutants: dict[str, str]  # short mutant name -> a piece of the mutated line, to notice a stale entry


def equivalents() -> list[Equivalent]:
    with EQUIVALENT.open("rb") as f:
        data = tomllib.load(f)
    return [Equivalent(e["why"], dict(e["mutants"])) for e in data.get("equivalent", [])]


@dataclass
class Module:
    """The verdicts of one source file's mutants."""

    path: Path
    verdicts: dict[str, int | None] = field(default_factory=dict)  # full mutant name -> exit code

    @property
    def meta(self) -> Path:
        return MUTANTS / (self.path.as_posix() + ".meta")

    def load(self) -> Module:
        if self.meta.exists():
            self.verdicts = json.loads(self.meta.read_text())["exit_code_by_key"]
        return self

    def counts(self, equivalent: set[str]) -> Counter[str]:
        """rejected (by mypy), killed, survived (no test reaching it included), equivalent, not run, other."""
        c: Counter[str] = Counter()
        for name, code in self.verdicts.items():
            if name.removeprefix(PREFIX) in equivalent and code in SURVIVED | NO_TESTS:
                c["equivalent"] += 1
            elif code is None:
                c["not run"] += 1
            elif code in REJECTED:
                c["rejected"] += 1
            elif code in KILLED:
                c["killed"] += 1
            elif code in SURVIVED | NO_TESTS:
                c["survived"] += 1
            else:
                c["other"] += 1  # interrupted, segfault, suspicious: run it again
        return c

    def survivors(self, equivalent: set[str]) -> list[tuple[str, str]]:
        """(short name, 'survived' or 'no tests') of each mutant not killed and not equivalent."""
        return [
            (name.removeprefix(PREFIX), "no tests" if code in NO_TESTS else "survived")
            for name, code in self.verdicts.items()
            if code in SURVIVED | NO_TESTS and name.removeprefix(PREFIX) not in equivalent
        ]

    def pending(self) -> list[str]:
        return [name for name, code in self.verdicts.items() if code is None or code not in DECIDED]


def score(c: Counter[str]) -> float | None:
    """Killed share of the non-equivalent mutants, once every one has been run."""
    judged = c["killed"] + c["survived"]
    if judged == 0 or c["not run"] or c["other"]:
        return None
    return c["killed"] / judged


def runs() -> dict[str, dict[str, str]]:
    return json.loads(RUNS.read_text()) if RUNS.exists() else {}
