"""The mutation run's configuration (pyproject.toml [tool.mutmut], docs/testing.md) reaches every
rules module and every test of them: a test left out of the selection, a folder the tests read left
out of the mutants' copy, or a card ability mutmut cannot mutate would each lower every score
without anybody noticing."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the mutation package lives at the top of the checkout, like fuzz

from mutation.verdicts import config, modules_named, mutated_files  # noqa: E402

# Test files that import the engine's rules but are not in the selection, and why. Importing only
# its event types (adjudicator.engine.events, never mutated) does not count: a map or report test.
NOT_SELECTED = {
    "tests/test_crash.py": "runs the product in child processes it kills at random: no mutant is active there",
    "tests/test_layout.py": "reads the engine's source as text (the layering rules)",
    "tests/test_mail_loop.py": "mail servers on loopback; imports the Request type only",
    "tests/test_mail_game.py": "a whole game by mail through a mail server on loopback; imports the Request type only",
    "tests/test_report_browser.py": "renders reports in Chromium; imports event types only (one from core.common)",
    "tests/test_mutation_config.py": "this file",
    "tests/test_boxes.py": "the box description and its hook registry; names ahead_mod's registered function only",
    "tests/test_choices.py": "reads the card abilities' source as text (which of them ask a choice)",
}


def _imports_engine(path: Path) -> bool:
    """Whether a test module imports the engine beyond its event types."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] if node.module != "adjudicator" else [f"adjudicator.{a.name}" for a in node.names]
            if node.module == "adjudicator.engine":
                names = [f"adjudicator.engine.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        if any(n.startswith("adjudicator.engine") and not n.startswith("adjudicator.engine.events") for n in names):
            return True
    return False


def _selected(rel: str) -> bool:
    return any(rel == s or rel.startswith(s.rstrip("/") + "/") for s in config()["pytest_add_cli_args_test_selection"])


def test_the_selection_holds_every_test_file_that_imports_the_engine():
    missing = [
        rel for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if (rel := path.relative_to(ROOT).as_posix()) not in NOT_SELECTED and _imports_engine(path) and not _selected(rel)
    ]
    assert not missing, (
        f"{missing} import the engine but make mutate never runs them: add them (or their folder) to "
        f"pytest_add_cli_args_test_selection in pyproject.toml, or say why not in NOT_SELECTED here"
    )
    for rel in NOT_SELECTED:
        assert (ROOT / rel).exists() and not _selected(rel), f"{rel}: listed as not selected, but it is (or is gone)"
    for folder in ("tests/rules", "tests/cards", "tests/rulebook", "tests/regressions", "tests/mother_of_dragons"):
        assert _selected(folder + "/test_x.py"), folder


def test_no_test_imports_a_shared_helper_under_a_second_name():
    """A helper imported both as ``rules.helpers`` and ``tests.rules.helpers`` is loaded twice, and
    its event types (``StandInCombat``) registered twice: the last one loaded wins, so a round trip
    through ``from_dict`` fails whenever the files are collected in another order, as mutmut's
    selection collects them (its trace of the tests stops there, before any mutant runs)."""
    twice = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            twice += [f"{path.relative_to(ROOT).as_posix()}: {n}" for n in names if n == "tests" or n.startswith("tests.")]
    assert not twice, f"import the test helpers as the other tests do (rules.helpers, not tests.rules.helpers): {twice}"


def test_each_test_left_out_of_the_selection_exists():
    """The robot games and child-process tests deselected (pyproject.toml says why) name test
    functions that exist, so a renamed test is not left out by an entry that deselects nothing."""
    args = config()["pytest_add_cli_args"]
    deselected = [args[i + 1] for i, a in enumerate(args) if a == "--deselect"]
    assert deselected
    for nodeid in deselected:
        file, _, name = nodeid.partition("::")
        assert _selected(file), f"{nodeid}: its file is not in the selection anyway"
        tree = ast.parse((ROOT / file).read_text(encoding="utf-8"))
        assert name in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}, f"{nodeid} is no test"


def _reached(path: Path) -> set[Path]:
    """The test modules a test file imports from tests/ (helpers, other test files), and theirs."""
    seen, todo = set(), [path]
    while todo:
        here = todo.pop()
        if here in seen:
            continue
        seen.add(here)
        for node in ast.walk(ast.parse(here.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                found = ROOT / "tests" / (name.replace(".", "/") + ".py")
                if found.exists():
                    todo.append(found)
    return seen


def test_the_mutants_copy_holds_every_file_and_folder_the_selected_tests_read():
    """mutmut runs the tests in a copy of the checkout holding only the package, tests/ and
    also_copy: a test reading docs/turn-files.md fails there, and the run stops before any mutant."""
    cfg = config()
    copied = {*cfg["also_copy"], *cfg["source_paths"], "tests"}
    top = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")}
    files = {f for path in sorted((ROOT / "tests").rglob("*.py"))
             if _selected(path.relative_to(ROOT).as_posix()) for f in _reached(path)}
    read: dict[str, str] = {}  # a top-level file or folder a selected test names -> the first test naming it
    for path in sorted(files):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in top:
                read.setdefault(node.value, path.relative_to(ROOT).as_posix())
    assert not {name: rel for name, rel in read.items() if name not in copied}, (
        f"selected tests read {read}, but also_copy in pyproject.toml is {cfg['also_copy']}"
    )
    assert "docs" in read  # tests/cards/test_arryn.py reads docs/turn-files.md: the failure issue 32 found


def test_every_rules_module_is_mutated():
    files = {p.as_posix() for p in mutated_files()}
    for folder in ("rules", "cards", "core"):
        on_disk = {p.relative_to(ROOT).as_posix() for p in (ROOT / "adjudicator" / "engine" / folder).glob("*.py")}
        assert on_disk <= files, on_disk - files
    assert modules_named("rules/iron_bank.py") == modules_named("adjudicator.engine.rules.iron_bank*") == [
        Path("adjudicator/engine/rules/iron_bank.py")
    ]
    assert modules_named("adjudicator/engine/cards/loans.py") == [Path("adjudicator/engine/cards/loans.py")]
    assert len(modules_named("core/*")) == len(list((ROOT / "adjudicator/engine/core").glob("*.py")))
    assert modules_named("rules/no_such_module") == []


def _decorated(path: Path) -> list[str]:
    """Functions of a module that mutmut skips: decorated ones, bar staticmethod and classmethod
    (which it mutates) and properties that are a single return (an accessor, nothing to mutate)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.decorator_list:
            continue
        names = [d.id for d in node.decorator_list if isinstance(d, ast.Name)]
        if len(node.decorator_list) == 1 and names in (["staticmethod"], ["classmethod"]):
            continue
        body = [s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if names == ["property"] and len(body) == 1 and isinstance(body[0], ast.Return):
            continue
        found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name}")
    return found


def test_no_rules_function_is_decorated_so_that_every_card_ability_is_mutated():
    """mutmut never mutates a decorated function: the registrations (house_card, loan, wildling_card,
    westeros_iv, options_of, removed_after_combat) are calls after the function, which stays plain."""
    decorated = [f for path in mutated_files() for f in _decorated(ROOT / path)]
    assert not decorated, (
        f"{decorated}: make mutate skips decorated functions; register a card ability with a call after "
        f"it, e.g. house_card('catelyn_stark', catelyn_stark, when='combat_strength'), and write a "
        f"context manager as name = contextmanager(plain_generator)"
    )


def test_card_abilities_produce_mutants():
    """mutmut's own mutant generation (no test run) on one small card module: every ability registered
    there has mutants."""
    file_mutation = pytest.importorskip("mutmut.mutation.file_mutation", reason="mutmut is optional: pip install -e '.[mutate]'")
    path = ROOT / "adjudicator" / "engine" / "cards" / "lannister.py"
    mutated = file_mutation.mutate_file_contents(str(path), path.read_text(encoding="utf-8"))
    from adjudicator.engine.cards.registry import ABILITIES, load

    load()
    here = {a.fn.__name__ for a in ABILITIES.values() if a.fn.__module__ == "adjudicator.engine.cards.lannister"}
    assert here == {"tywin_lannister", "ser_kevan_lannister", "tyrion_lannister", "cersei_lannister"}
    with_mutants = {name.partition("__mutmut_")[0].removeprefix("x_") for name in mutated.mutant_names}
    assert here <= with_mutants, here - with_mutants
