"""``python -m mutation``: run mutmut module by module, list the survivors, write the score table.

    python -m mutation run [MODULE ...] [--again]   # make mutate MUTANTS=...
    python -m mutation results [MODULE ...]         # make mutate-results
    python -m mutation recheck [MODULE ...]         # make mutate-recheck
    python -m mutation table [--write]              # the table of docs/testing.md

MODULE is a mutated module, as ``rules/iron_bank.py``, ``adjudicator/engine/rules/iron_bank.py``
or ``adjudicator.engine.rules.iron_bank*``; a glob (``rules/*``) names several. Without one, every
module. A run goes on where the last one stopped: mutants with a verdict are not run again
(``--again`` runs them all), and a module with nothing left to run is not started.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from .typecheck import rejected
from .verdicts import (
    DECIDED,
    MUTANTS,
    NO_TESTS,
    PREFIX,
    ROOT,
    RUNS,
    SURVIVED,
    Module,
    dotted,
    equivalents,
    modules_named,
    mutated_files,
    runs,
    score,
    short,
)

DOCS = ROOT / "docs" / "testing.md"
TABLE_START, TABLE_END = "<!-- mutation-table -->", "<!-- /mutation-table -->"
EQUIV_START, EQUIV_END = "<!-- equivalent-mutants -->", "<!-- /equivalent-mutants -->"


def _modules(args: list[str]) -> list[Path]:
    if not args:
        return mutated_files()
    found: list[Path] = []
    for arg in args:
        named = modules_named(arg)
        if not named:
            raise SystemExit(
                f"mutation: {arg!r} names no mutated module; give one as rules/iron_bank.py, "
                f"adjudicator/engine/rules/iron_bank.py or adjudicator.engine.rules.iron_bank* "
                f"(the modules: engine/rules, engine/cards and engine/core, pyproject.toml [tool.mutmut])"
            )
        found += [p for p in named if p not in found]
    return found


def _up_to_date(path: Path) -> bool:
    """mutmut's own test: the mutated copy is newer than the source, so its verdicts stand."""
    copy = MUTANTS / path
    return copy.exists() and (ROOT / path).stat().st_mtime < copy.stat().st_mtime


def _commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "adjudicator", "tests")
    return head + ("+changes" if dirty else "")


def run(args: list[str], *, again: bool) -> int:
    """Run the modules' mutants that have no verdict yet (all of them with ``again``)."""
    modules = _modules(args)
    todo = [p for p in modules if again or not _up_to_date(p) or Module(p).load().pending()]
    for p in modules:
        if p not in todo:
            print(f"mutation: {short(p)}: every mutant has its verdict (--again to run them anew)")
    if not todo:
        return 0
    os.chdir(ROOT)  # mutmut keeps mutants/ in the working directory
    import mutmut.__main__ as mutmut_main  # the optional dependency: pip install -e '.[mutate]'

    # mutmut runs every mutant a name or a glob matches again, verdict or not; only a run of all
    # the modules goes on where it stopped. Keep the verdicts of a module's mutants too.
    collect = mutmut_main.collect_source_file_mutation_data

    def without_verdicts(*, mutant_names: tuple[str, ...] | list[str]):  # type: ignore[no-untyped-def]
        mutants, by_path = collect(mutant_names=mutant_names)
        if not again:
            mutants = [(m, name, code) for m, name, code in mutants if code is None or code not in DECIDED]
        return mutants, by_path

    mutmut_main.collect_source_file_mutation_data = without_verdicts
    # mypy --strict first: a mutant make lint rejects is no program of the project, and needs no test
    # run (mutation/typecheck.py, in the place of mutmut's own filter, which is slow).
    from mutmut.configuration import config as mutmut_config
    from mutmut.mutation.file_mutation import FailedTypeCheckMutant
    from mutmut.type_checking import TypeCheckingError

    def rejected_by_mypy() -> dict[str, FailedTypeCheckMutant]:
        return {name: FailedTypeCheckMutant(None, name, TypeCheckingError(Path(), 0, why))  # where: not needed
                for name, why in rejected(MUTANTS).items()}

    mutmut_config().type_check_command = ["mypy", "--strict"]  # what runs: mutation/typecheck.py
    mutmut_main.filter_mutants_with_type_checker = rejected_by_mypy
    names = [dotted(p) + ".*" for p in todo]
    try:
        mutmut_main.cli(["run", "--max-children", "1", *names], standalone_mode=False)
    finally:
        _note_finished(todo)
    return 0


def _note_finished(modules: list[Path]) -> None:
    """Keep the commit and date of the run that gave a module its last verdict."""
    done = runs()
    for p in modules:
        m = Module(p).load()
        if m.verdicts and not m.pending():
            done[short(p)] = {"commit": _commit(), "date": datetime.date.today().isoformat()}
    RUNS.parent.mkdir(exist_ok=True)
    RUNS.write_text(json.dumps(done, indent=1, sort_keys=True))


def _equivalent_names() -> set[str]:
    return {name for e in equivalents() for name in e.mutants}


def _diff(name: str) -> list[str]:
    """The lines a mutant changes, from mutmut's own diff."""
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    os.chdir(ROOT)
    module = (PREFIX + name).partition(".x")[0]  # its source file: no search of every verdict file
    path = Path(module.replace(".", "/") + ".py")
    diff = get_diff_for_mutant(PREFIX + name, path=path)
    return [line for line in diff.splitlines()[2:] if line[:1] in "+-"]


def results(args: list[str]) -> int:
    """Every mutant not killed and not named equivalent, with the lines it changes."""
    equivalent = _equivalent_names()
    total = 0
    for p in _modules(args):
        m = Module(p).load()
        if not m.verdicts:
            print(f"{short(p)}: not run yet")
            continue
        c = m.counts(equivalent)
        s = score(c)
        print(f"{short(p)}: {c['rejected']} rejected by mypy, {c['killed']} killed, {c['survived']} survived, "
              f"{c['equivalent']} equivalent, {c['not run'] + c['other']} not run"
              + (f", score {s:.1%}" if s is not None else ""))
        for name, status in m.survivors(equivalent):
            total += 1
            print(f"  {name}: {status}")
            for line in _diff(name):
                print(f"      {line.strip()[:150]}")
    print(f"{total} survivors")
    return 0


def recheck(args: list[str]) -> int:
    """Forget the survivors' verdicts (after adding tests), so that the next run tries them again."""
    forgotten = 0
    equivalent = _equivalent_names()
    for p in _modules(args):
        m = Module(p)
        if not m.meta.exists():
            continue
        data = json.loads(m.meta.read_text())
        codes = data["exit_code_by_key"]
        for name, code in codes.items():
            if code is not None and code in SURVIVED | NO_TESTS and name.removeprefix(PREFIX) not in equivalent:
                codes[name] = None
                forgotten += 1
        m.meta.write_text(json.dumps(data, indent=4))
    print(f"mutation: {forgotten} survivors will run again")
    return 0


def check_equivalents() -> list[str]:
    """Entries of equivalent.toml that no longer match a surviving mutant (the code moved on)."""
    problems = []
    for e in equivalents():
        for name, piece in e.mutants.items():
            try:
                changed = " ".join(line for line in _diff(name) if line.startswith("+"))
            except Exception as error:  # mutmut cannot find it: renamed or gone
                problems.append(f"{name}: not a mutant any more ({error})")
                continue
            if piece not in changed:
                problems.append(f"{name}: its change no longer has {piece!r}: {changed.strip()[:120]}")
    return problems


def _rows_measured(text: str) -> dict[str, list[str]]:
    """The cells of each dated row of the table in ``text`` (docs/testing.md), by module."""
    _, _, rest = text.partition(TABLE_START)
    body, _, _ = rest.partition(TABLE_END)
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and cells[0].startswith("`") and cells[8] != "-":
            rows[cells[0].strip("`")] = cells
    return rows


def table(kept: dict[str, list[str]] | None = None) -> str:
    """The per-module table of docs/testing.md.

    A module none of whose mutants has a verdict here (``mutants/`` is per checkout, and a run of
    every module takes days on two cores) keeps its row of ``kept``, as measured at the commit it
    names, when there is one.
    """
    equivalent = _equivalent_names()
    done = runs()
    rows = ["| module | mutants | rejected by mypy | killed | survived | equivalent | not run | score | date | commit |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    total: Counter[str] = Counter()
    columns = ("mutants", "rejected", "killed", "survived", "equivalent", "not run")
    for p in mutated_files():
        m = Module(p).load()
        if not m.verdicts and not p.read_text().count("def "):
            continue
        old = (kept or {}).get(short(p))
        if old is not None and all(code is None for code in m.verdicts.values()):
            total += Counter(dict(zip(columns, map(int, old[1:7]))))
            rows.append("| " + " | ".join(old) + " |")
            continue
        c = m.counts(equivalent)
        total += c
        total["mutants"] += len(m.verdicts)
        s = score(c)
        when = done.get(short(p), {})
        rows.append(f"| `{short(p)}` | {len(m.verdicts)} | {c['rejected']} | {c['killed']} | {c['survived']} | {c['equivalent']} | "
                    f"{c['not run'] + c['other']} | {f'{s:.1%}' if s is not None else '-'} | "
                    f"{when.get('date', '-')} | {when.get('commit', '-')} |")
    total["not run"] += total.pop("other", 0)
    s = score(total)
    rows.append(f"| all | {total['mutants']} | {total['rejected']} | {total['killed']} | {total['survived']} | {total['equivalent']} | "
                f"{total['not run']} | {f'{s:.1%}' if s is not None else '-'} | | |")
    return "\n".join(rows)


def equivalent_list() -> str:
    rows = ["| mutants | why |", "| --- | --- |"]
    for e in equivalents():
        rows.append(f"| {', '.join(f'`{n}`' for n in e.mutants)} | {e.why} |")
    return "\n".join(rows)


def _replace(text: str, start: str, end: str, body: str) -> str:
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    return f"{head}{start}\n{body}\n{end}{tail}"


def write_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    text = _replace(text, TABLE_START, TABLE_END, table(_rows_measured(text)))
    text = _replace(text, EQUIV_START, EQUIV_END, equivalent_list())
    DOCS.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="run the mutants without a verdict")
    p_run.add_argument("modules", nargs="*")
    p_run.add_argument("--again", action="store_true", help="run every mutant of the modules again")
    for name, what in (("results", "list the survivors"), ("recheck", "run the survivors again next time")):
        sub.add_parser(name, help=what).add_argument("modules", nargs="*")
    p_table = sub.add_parser("table", help="print the score table (and check equivalent.toml)")
    p_table.add_argument("--write", action="store_true", help="write it into docs/testing.md")
    ns = parser.parse_args(argv)
    if ns.command == "run":
        return run(ns.modules, again=ns.again)
    if ns.command == "results":
        return results(ns.modules)
    if ns.command == "recheck":
        return recheck(ns.modules)
    problems = check_equivalents()
    for problem in problems:
        print(f"equivalent.toml: {problem}", file=sys.stderr)
    if ns.write:
        write_docs()
    print(table(_rows_measured(DOCS.read_text(encoding="utf-8"))))
    return 1 if problems else 0
