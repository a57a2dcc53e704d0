"""The package's layout: imports point downward between subpackages, no package imports itself in a circle.

``LAYERS`` below is the one place that says which subpackage may import which (docs/design.md
draws the same picture): a module may import from its own layer or from a layer below it, never
from one above. The engine's own subpackages are layered the same way (``ENGINE_LAYERS``). Every
``import`` counts, at module level or inside a function, so a lazy import cannot hide an upward
edge. Neither the import graph between packages nor the one between modules has a circle, and no
module takes a private name (``_name``) from another.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"

# Bottom to top. A module may import only from its own layer or the layers before it.
LAYERS = ("util", "game", "turnfile", "seals", "engine", "reports", "folder", "mail", "robots", "cli")
# Inside the engine, bottom to top; "" is the engine's own modules (machine.py, invariants.py).
ENGINE_LAYERS = ("events", "core", "cards", "rules", "")
ENTRY_FILES = {"__init__.py", "__main__.py"}
MAX_LINES = 700


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    return {module_name(p, root): p for p in sorted(root.rglob("*.py")) if "__pycache__" not in p.parts}


def imports(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The package's own modules that ``name`` imports, anywhere in its body."""
    known = set(known)
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # "from pkg import mod" imports the module pkg.mod; "from mod import name" imports mod.
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # "import a.b.c" where only a.b is ours: the nearest module
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    mods = modules(root)
    return {name: imports(name, path, mods) for name, path in mods.items()}


def package_of(module: str, is_package: bool) -> str:
    """The package a module belongs to; ``adjudicator.__main__`` stands alone (it sits on top of the CLI)."""
    if is_package or module.endswith(".__main__"):
        return module
    return module.rpartition(".")[0]


def rank(module: str) -> tuple[int, int] | None:
    """(layer, engine layer) of a module, or None for the package's root (its ``__init__``, ``__main__``)."""
    parts = module.split(".")[1:]
    if not parts or parts[0] == "__main__":
        return None
    layer = LAYERS.index(parts[0])
    inner = 0
    if parts[0] == "engine":
        sub = parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in ENGINE_LAYERS) else ""
        inner = ENGINE_LAYERS.index(sub)
    return layer, inner


def upward(edges: Mapping[str, Iterable[str]]) -> list[str]:
    """Every import from a module to one in a higher layer (or a higher layer of the engine)."""
    bad = []
    for src, targets in edges.items():
        for dst in targets:
            a, b = rank(src), rank(dst)
            higher = a is not None and b is not None and b > a  # (layer, engine layer): a higher layer, or inside
            if higher or dst.endswith(".__main__"):  # the engine a higher engine layer; nobody imports __main__
                bad.append(f"{src} -> {dst}")
    return sorted(bad)


def package_cycles(edges: Mapping[str, Iterable[str]], packages: set[str]) -> list[list[str]]:
    """The circles of the graph between packages."""
    pkg_edges: dict[str, set[str]] = {}
    for src, targets in edges.items():
        a = package_of(src, src in packages)
        for dst in targets:
            b = package_of(dst, dst in packages)
            if a != b:
                pkg_edges.setdefault(a, set()).add(b)
                pkg_edges.setdefault(b, set())
    return cycles(pkg_edges)


def module_cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The circles of the graph between modules, inside a package as well as between packages."""
    full: dict[str, set[str]] = {}
    for src, targets in edges.items():
        full.setdefault(src, set()).update(targets)
        for dst in targets:
            full.setdefault(dst, set())
    return cycles(full)


def cycles(edges_of: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles of a graph (Tarjan's strongly connected components of more than one node)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges_of[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(edges_of):
        if v not in index:
            visit(v)
    return cycles


def private_imports(root: Path = PACKAGE) -> list[str]:
    """Every private name (``_name``, not ``__dunder__``) a module imports from another of the package's."""
    found = []
    for name, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__" and (node.level or (
                    node.module or "").startswith("adjudicator")):  # fmt: skip
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{name} imports {alias.name} from {'.' * node.level}{node.module or ''}")
    return sorted(found)


def packages(root: Path = PACKAGE) -> set[str]:
    return {module_name(p, root) for p in root.rglob("__init__.py") if "__pycache__" not in p.parts}


# --- the package as it is ------------------------------------------------------------------------


def test_every_subpackage_has_a_layer() -> None:
    tops = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert tops == set(LAYERS)
    inner = {p.name for p in (PACKAGE / "engine").iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert inner == set(ENGINE_LAYERS) - {""}


def test_the_top_level_holds_only_subpackages_and_the_entry_files() -> None:
    files = {p.name for p in PACKAGE.iterdir() if p.is_file()}
    assert files == ENTRY_FILES


def test_imports_point_downward_between_subpackages() -> None:
    assert upward(graph()) == []


def test_no_circle_between_packages() -> None:
    assert package_cycles(graph(), packages()) == []


def test_no_circle_between_modules() -> None:
    assert module_cycles(graph()) == []


def test_no_private_name_imported_from_another_module() -> None:
    assert private_imports() == []


def test_no_module_over_700_lines() -> None:
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules().items()}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


def test_card_abilities_see_the_engine_only_through_its_core() -> None:
    edges = graph()
    seen = {dst for src, targets in edges.items() if src.startswith("adjudicator.engine.cards.") for dst in targets}
    assert not {d for d in seen if d.startswith(("adjudicator.engine.rules", "adjudicator.engine.machine"))}


# --- the checks themselves catch what they are for ------------------------------------------------


def test_an_upward_import_is_caught() -> None:
    edges = {
        "adjudicator.game.state": {"adjudicator.reports.report"},  # the model reaching for a report
        "adjudicator.engine.cards.wildlings": {"adjudicator.engine.rules.bidding"},  # a card reaching for a phase
        "adjudicator.engine.rules.combat": {"adjudicator.engine.cards.registry", "adjudicator.game.board"},  # fine
        "adjudicator.cli": {"adjudicator.folder.batch"},  # fine
    }
    assert upward(edges) == [
        "adjudicator.engine.cards.wildlings -> adjudicator.engine.rules.bidding",
        "adjudicator.game.state -> adjudicator.reports.report",
    ]


def test_a_circle_between_packages_is_caught_even_inside_one_layer() -> None:
    edges = {
        "adjudicator.engine.rules.westeros": {"adjudicator.engine.cards.wildlings"},
        "adjudicator.engine.cards.wildlings": {"adjudicator.engine.rules.bidding"},
        "adjudicator.engine.rules.bidding": set(),
        "adjudicator.folder.batch": {"adjudicator.folder.audit"},  # inside one package: not a circle between packages
        "adjudicator.folder.audit": {"adjudicator.folder.batch"},
    }
    assert package_cycles(edges, set()) == [["adjudicator.engine.cards", "adjudicator.engine.rules"]]


def test_a_circle_between_modules_of_one_package_is_caught() -> None:
    edges = {
        "adjudicator.turnfile.parser": {"adjudicator.turnfile.vassal_lines", "adjudicator.turnfile.names"},
        "adjudicator.turnfile.vassal_lines": {"adjudicator.turnfile.parser"},  # a lazy import back, as it was
        "adjudicator.turnfile.names": set(),
    }
    assert module_cycles(edges) == [["adjudicator.turnfile.parser", "adjudicator.turnfile.vassal_lines"]]
    assert package_cycles(edges, set()) == []  # what the package check alone let through


def test_a_private_name_taken_from_another_module_is_caught(tmp_path: Path) -> None:
    root = tmp_path / "adjudicator"
    (root / "game").mkdir(parents=True)
    for init in (root, root / "game"):
        (init / "__init__.py").write_text("")
    (root / "game" / "board.py").write_text("def _area():\n    return 1\n")
    (root / "game" / "mod_board.py").write_text("from __future__ import annotations\n\nfrom .board import _area\n")
    assert private_imports(root) == ["adjudicator.game.mod_board imports _area from .board"]


def test_imports_inside_functions_and_relative_imports_are_read(tmp_path: Path) -> None:
    root = tmp_path / "adjudicator"
    (root / "game").mkdir(parents=True)
    (root / "reports").mkdir()
    for init in (root, root / "game", root / "reports"):
        (init / "__init__.py").write_text("")
    (root / "reports" / "view.py").write_text("")
    (root / "game" / "state.py").write_text("def later():\n    from ..reports import view\n    return view\n")
    assert upward(graph(root)) == ["adjudicator.game.state -> adjudicator.reports.view"]
