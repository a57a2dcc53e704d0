"""The record classes' generated methods kept in the cache (util/classcode.py): the same code as without it.

The classes must come out exactly as ``dataclasses`` makes them without the cache (their
``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` and frozen ``__setattr__``: the code, byte
for byte), and no damaged, foreign or hostile cache entry may change that or stop a command.
"""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path

import pytest

from adjudicator.util import cache, classcode

ROOT = Path(__file__).resolve().parent.parent

# Imports every module of the package and prints, for each method that dataclasses generated,
# a digest of its code (marshal gives every part of a code object: bytecode, names, constants).
_CENSUS = """
import hashlib, importlib, json, marshal, pkgutil, sys
import adjudicator
from adjudicator.util import classcode
if sys.argv[1] == "cached":
    classcode.install()
for m in pkgutil.walk_packages(adjudicator.__path__, "adjudicator."):
    if not m.name.endswith("__main__"):
        importlib.import_module(m.name)
missed = sorted(classcode._missed)
classcode.save()
codes = {}
for name, module in sorted(sys.modules.items()):
    if not name.startswith("adjudicator."):
        continue
    for cls in vars(module).values():
        if isinstance(cls, type) and cls.__module__ == name and "__dataclass_fields__" in vars(cls):
            for attr, fn in vars(cls).items():
                code = getattr(fn, "__code__", None)
                if code is not None and code.co_filename == "<string>":
                    codes[f"{cls.__qualname__}.{attr}"] = hashlib.sha256(marshal.dumps(code)).hexdigest()
print(json.dumps({"codes": codes, "missed": missed}))
"""


def census(how: str, cache_home: Path) -> dict[str, object]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    env.pop("MAESTER_NO_CACHE", None)
    run = subprocess.run([sys.executable, "-c", _CENSUS, how], capture_output=True, text=True, cwd=ROOT, env=env,
                         check=True)  # fmt: skip
    result: dict[str, object] = json.loads(run.stdout)
    return result


def test_every_record_class_gets_the_same_code_from_the_cache_as_without_it(tmp_path: Path) -> None:
    plain = census("plain", tmp_path)
    first = census("cached", tmp_path)  # an empty cache: everything compiled, then kept
    again = census("cached", tmp_path)  # everything read back
    assert len(plain["codes"]) > 1000  # type: ignore[arg-type]  # all of the package's record classes
    assert first["missed"] and not again["missed"]  # the second run compiled nothing
    assert first["codes"] == plain["codes"] and again["codes"] == plain["codes"]
    assert any(p.name.startswith("dataclasses-adjudicator.game.state-") for p in (tmp_path / "maester").iterdir())


@pytest.fixture
def fresh() -> Iterator[None]:
    """classcode's tables as a new process has them, restored afterwards."""
    saved = (dict(classcode._found), dict(classcode._used), set(classcode._missed))
    classcode._found.clear(), classcode._used.clear(), classcode._missed.clear()
    yield
    classcode._found.clear(), classcode._used.clear(), classcode._missed.clear()
    classcode._found.update(saved[0]), classcode._used.update(saved[1]), classcode._missed.update(saved[2])


TEXT = "def __create_fn__():\n def __repr__(self):\n  return 'x'\n return __repr__"
MODULE = "adjudicator.example"


def entry_path(module: str) -> Path:
    folder = cache.folder()
    assert folder is not None
    return folder / classcode._entry(module)[0]


@pytest.mark.parametrize(
    "body",
    [b"not marshal at all", marshal.dumps([TEXT]), marshal.dumps({TEXT: "not code"}), marshal.dumps({1: TEXT}),
     marshal.dumps({TEXT: compile("1", "<string>", "exec")})[:-3], b""],
    ids=["garbage", "a-list", "not-code", "not-text", "truncated", "empty"],
)  # fmt: skip
def test_a_damaged_or_foreign_entry_is_ignored_and_the_method_compiled_as_without_it(fresh: None, body: bytes) -> None:
    cache.store(*classcode._entry(MODULE), body)  # a whole entry (right key and checksum) with bad contents
    assert classcode._read(MODULE) == {}
    code = classcode.code_for(MODULE, TEXT)
    assert code == compile(TEXT, "<string>", "exec", dont_inherit=True)
    classcode.save()  # and a good entry replaces it
    classcode._found.clear()
    assert classcode._read(MODULE) == {TEXT: code}


def test_a_torn_file_or_one_for_another_module_is_not_used(fresh: None) -> None:
    other = compile("def __create_fn__():\n return None", "<string>", "exec")
    cache.store(*classcode._entry("adjudicator.other"), marshal.dumps({TEXT: other}))
    assert classcode.code_for(MODULE, TEXT) != other  # keyed by module: another module's entry is never read
    classcode.save()
    path = entry_path(MODULE)
    path.write_bytes(path.read_bytes()[:-5])  # torn: the checksum no longer matches
    classcode._found.clear()
    assert classcode._read(MODULE) == {}


def test_a_text_found_nowhere_is_compiled_without_our_future_flags(fresh: None) -> None:
    text = "def __create_fn__():\n def f(x: int) -> int:\n  return x\n return f"
    code = classcode.code_for(MODULE, text)
    ns: dict[str, object] = {}
    exec(code, {}, ns)
    fn = ns["__create_fn__"]()  # type: ignore[operator]
    assert fn.__annotations__ == {"x": int, "return": int}  # not strings: this file's `annotations` not inherited
    assert classcode._missed == {MODULE}


def test_classes_of_other_modules_are_made_as_dataclasses_always_makes_them(fresh: None) -> None:
    classcode.install()

    @dataclass(frozen=True)
    class Point:  # a class of this test module, not Maester's: nothing looked up or kept
        x: int
        y: int = 0

    assert not classcode._used and not classcode._missed
    p = Point(1)
    assert p == Point(1, 0) and hash(p) == hash((1, 0)) and repr(p).endswith("Point(x=1, y=0)")
    with pytest.raises(FrozenInstanceError):
        p.x = 2  # type: ignore[misc]
