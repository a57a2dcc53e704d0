"""The per-user cache: only this user's private files are read back, a damaged one is ignored, writes are atomic.

The cache holds the parser's tables and the compiled templates; a compiled template is code, so
a file someone else could have written must never be read (docs/moderating.md, "The cache folder").
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
import pickletools
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from adjudicator.reports import templating
from adjudicator.reports.mapshapes import MapShapes
from adjudicator.turnfile import grammar
from adjudicator.turnfile.parser import parse_turn_file
from adjudicator.util import cache, datafile

KEY = cache.entry_key("test entry", "source")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache of this test's own: the folder ``maester`` is made in it on the first store."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MAESTER_NO_CACHE", raising=False)
    return tmp_path / "xdg" / "maester"


def test_an_entry_comes_back_for_its_key_only(home: Path) -> None:
    cache.store("entry", KEY, b"tables")
    assert cache.load("entry", KEY) == b"tables"
    assert cache.load("entry", cache.entry_key("test entry", "another source")) is None
    assert cache.load("missing", KEY) is None


def test_the_folder_and_its_files_are_private_to_the_user(home: Path) -> None:
    cache.store("entry", KEY, b"tables")
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE((home / "entry").stat().st_mode) == 0o600
    assert [p.name for p in home.iterdir()] == ["entry"]  # no temporary file left behind


@pytest.mark.parametrize("damage", ["cut short", "a byte changed", "no header", "empty"])
def test_a_damaged_entry_is_ignored_and_written_again(home: Path, damage: str) -> None:
    cache.store("entry", KEY, b"tables " * 100)
    path = home / "entry"
    data = path.read_bytes()
    damaged = {"cut short": data[:-10], "a byte changed": data[:-5] + b"X" + data[-4:], "no header": data.split(b"\n", 1)[1],
               "empty": b""}[damage]  # fmt: skip
    path.write_bytes(damaged)
    assert cache.load("entry", KEY) is None
    cache.store("entry", KEY, b"tables " * 100)
    assert cache.load("entry", KEY) == b"tables " * 100


@pytest.mark.parametrize("mode", [0o620, 0o602])
def test_a_file_others_may_write_is_never_read(home: Path, mode: int) -> None:
    cache.store("entry", KEY, b"tables")
    os.chmod(home / "entry", mode)
    assert cache.load("entry", KEY) is None


def test_a_file_of_another_user_is_never_read(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache.store("entry", KEY, b"tables")
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(home / "entry").st_uid + 1)  # as seen by another user
    assert cache.load("entry", KEY) is None


def test_a_folder_others_may_write_is_never_used(home: Path) -> None:
    cache.store("entry", KEY, b"tables")
    os.chmod(home, 0o770)
    assert cache.load("entry", KEY) is None
    cache.store("other", KEY, b"tables")
    assert not (home / "other").exists()  # nor written into


def test_links_are_not_followed(home: Path, tmp_path: Path) -> None:
    cache.store("entry", KEY, b"tables")
    (home / "link").symlink_to(home / "entry")
    assert cache.load("link", KEY) is None
    elsewhere = tmp_path / "elsewhere"
    (home / "entry").rename(tmp_path / "entry")
    home.rename(elsewhere)
    home.symlink_to(elsewhere)  # the cache folder itself a link
    (elsewhere / "entry").write_bytes((tmp_path / "entry").read_bytes())
    assert cache.load("entry", KEY) is None


def test_a_fifo_or_a_folder_in_place_of_an_entry_is_ignored_without_waiting(home: Path) -> None:
    cache.store("x", KEY, b"")
    os.mkfifo(home / "fifo", 0o600)
    (home / "folder").mkdir(mode=0o700)
    assert cache.load("fifo", KEY) is None
    assert cache.load("folder", KEY) is None


def test_the_cache_can_be_turned_off_and_a_relative_place_is_not_used(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    cache.store("entry", KEY, b"tables")
    assert not home.exists()
    monkeypatch.delenv("MAESTER_NO_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.folder() == tmp_path / "home" / ".cache" / "maester"


def test_a_cache_that_cannot_be_written_changes_nothing(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "xdg").write_text("a file where the cache's parent folder would be")
    cache.store("entry", KEY, b"tables")  # no error
    assert cache.load("entry", KEY) is None
    assert parse_turn_file("Winterfell: march +1\n").commands  # the parser is built without it


# --- what is cached -------------------------------------------------------------------------------


def _tables_entry(home: Path) -> Path:
    return next(home.glob("turnfile-*.bin"))


def _sample_lines() -> list[str]:
    """Every line of the sample turn files but the broken ones' (the headers and comments left out)."""
    samples = Path(__file__).resolve().parent.parent / "samples" / "turnfiles"
    return [ln for p in sorted(samples.glob("*.txt")) if not p.name.startswith("broken")
            for ln in p.read_text("utf-8").splitlines() if ln.strip() and not ln.startswith(("game ", "#"))]  # fmt: skip


def test_the_parser_loaded_from_the_cache_reads_every_sample_as_one_built_from_the_grammar(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    built = grammar.parser(None)  # builds, and stores the tables
    assert _tables_entry(home).read_bytes().startswith(b"maester-cache 1 ")
    loaded = grammar.parser(None)
    lines = _sample_lines()
    assert len(lines) > 50
    for line in lines:
        assert loaded.parse(line, start="line") == built.parse(line, start="line"), line


def test_the_parser_tables_are_plain_data_and_the_grammar_a_pickle_of_its_own_classes(home: Path) -> None:
    """The tables are marshal data (a pickle's opcodes are refused by marshal); the grammar's rules and
    terminals a pickle that names Lark's grammar classes and nothing else."""
    grammar.parser(None)
    body = _tables_entry(home).read_bytes().split(b"\n", 1)[1]
    tables = marshal.loads(body)
    assert set(tables) == {"data", "memo"} and grammar.is_plain(tables["data"])
    with pytest.raises((ValueError, EOFError)):
        marshal.loads(pickle.dumps(tables["data"]))
    named = {arg for op, arg, _ in pickletools.genops(tables["memo"]) if op.name in ("SHORT_BINUNICODE", "BINUNICODE")}
    assert {"lark.grammar", "lark.lexer", "Rule", "TerminalDef", "NonTerminal", "PatternStr"} <= named
    assert not named & {"builtins", "os", "posix", "subprocess", "eval", "exec", "system"}


class _Payload:
    """What a hostile cache entry would hold: a call of ``os.system`` when unpickled."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


def test_a_parser_entry_whose_pickle_names_anything_else_runs_nothing_and_is_built_again(
        home: Path, tmp_path: Path) -> None:  # fmt: skip
    grammar.parser(None)
    entry = _tables_entry(home)
    key = entry.read_bytes().split(b" ")[2].decode()
    tables = marshal.loads(entry.read_bytes().split(b"\n", 1)[1])
    marker = tmp_path / "ran"
    for memo in (pickle.dumps({0: _Payload(marker)}), pickle.dumps({0: print}), pickle.dumps(compile("1", "", "eval").co_code)):
        cache.store(entry.name, key, marshal.dumps({"data": tables["data"], "memo": memo}))
        assert grammar.parser(None).parse("Winterfell: march +1", start="line").data == "head_line"
        assert not marker.exists()
        again = marshal.loads(_tables_entry(home).read_bytes().split(b"\n", 1)[1])
        assert again["memo"] != memo  # written again whole, from the grammar


def test_a_lark_that_would_not_take_built_objects_gets_its_own_form_of_the_memo(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Should a later Lark's loader refuse the memo's built objects, the entry keeps Lark's own plain
    form of them, which that loader reads: not a parser built from the grammar by every command."""
    real = grammar._loaded

    def refusing_objects(data: dict[str, Any], memo: dict[int, Any], transformer: Any) -> Any:
        if any(not isinstance(v, dict) for v in memo.values()):
            raise TypeError("this Lark reads only its own form of the memo")
        return real(data, memo, transformer)

    monkeypatch.setattr(grammar, "_loaded", refusing_objects)
    built = grammar.parser(None)
    tables = marshal.loads(_tables_entry(home).read_bytes().split(b"\n", 1)[1])
    assert isinstance(tables["memo"], dict) and grammar.is_plain(tables)
    entry = _tables_entry(home).read_bytes()
    loaded = grammar.parser(None)  # read from the entry, not built again
    assert _tables_entry(home).read_bytes() == entry
    for line in _sample_lines():
        assert loaded.parse(line, start="line") == built.parse(line, start="line"), line


def test_the_rules_of_a_loaded_parser_hash_as_rules_built_in_this_process(home: Path) -> None:
    """A rule's hash is of its symbols' names, which differ from one process to the next: a loaded
    rule works it out again (a stale one would make equal rules unequal as dictionary keys)."""
    from lark.grammar import Rule

    for seed in ("1", "2"):  # the entry written by another process, whose strings hash otherwise
        for old in home.glob("turnfile-*.bin"):
            old.unlink()
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", "from adjudicator.turnfile import grammar; grammar.parser(None)"],
                       env=env, check=True, cwd=Path(__file__).resolve().parent.parent)  # fmt: skip
    assert _tables_entry(home).is_file()
    loaded = grammar.parser(None)
    assert loaded.rules
    for rule in loaded.rules:
        fresh = Rule(rule.origin, list(rule.expansion), rule.order, rule.alias, rule.options)
        assert hash(rule) == hash(fresh) and rule == fresh


def test_tables_that_would_hold_anything_but_plain_data_are_not_kept() -> None:
    built = grammar.parser(None)
    assert grammar.tables_bytes(built) is not None
    real = built.memo_serialize

    def with_code(types: list[type]) -> tuple[dict[str, object], dict[int, object]]:
        data, memo = real(types)
        return {**data, "extra": compile("1", "", "eval")}, memo

    built.memo_serialize = with_code  # type: ignore[method-assign]
    assert grammar.tables_bytes(built) is None


def test_a_damaged_parser_entry_is_built_again_from_the_grammar(home: Path) -> None:
    grammar.parser(None)
    entry = _tables_entry(home)
    key = entry.read_bytes().split(b" ")[2].decode()
    whole = _tables_entry(home).read_bytes().split(b"\n", 1)[1]  # (two builds may number the states apart)
    damaged = [marshal.dumps({"data": {"parser": 1}, "memo": {}}),  # well-formed, checksum right, nonsense inside
               b'{"data": {"parser": 1}, "memo": {}}', whole[: len(whole) // 2], marshal.dumps([1, 2])]  # fmt: skip
    for body in damaged:
        cache.store(entry.name, key, body)
        p = grammar.parser(None)
        assert p.parse("Winterfell: march +1", start="line").data == "head_line"
        again = _tables_entry(home).read_bytes().split(b"\n", 1)[1]
        assert again != body and set(marshal.loads(again)) == {"data", "memo"}  # written again whole
        assert grammar.parser(None).parse("Winterfell: march +1", start="line").data == "head_line"  # and read


def test_a_template_compiled_once_renders_as_when_compiled_afresh(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "one.txt.j2").write_text("{{ x | wrap(10) }} first\n")
    templating._environment.cache_clear()
    assert templating.environment(folder).get_template("one.txt.j2").render(x="a b") == "a b first\n"
    assert len(list(home.glob("template-*.bin"))) == 1
    templating._environment.cache_clear()
    assert templating.environment(folder).get_template("one.txt.j2").render(x="a b") == "a b first\n"
    (folder / "one.txt.j2").write_text("{{ x }} second\n")  # a moderator edits the template: never the old code
    templating._environment.cache_clear()
    assert templating.environment(folder).get_template("one.txt.j2").render(x="a b") == "a b second\n"
    assert len(list(home.glob("template-*.bin"))) == 2
    templating._environment.cache_clear()


# --- the package's own TOML data (util/datafile.py) ---------------------------------------------

DATA = Path(datafile.__file__).resolve().parent.parent / "game" / "data"
DATA_FILES = ["board.toml", "cards.toml", "map_grid.toml", "mother_of_dragons/board.toml", "mother_of_dragons/cards.toml",
              "mother_of_dragons/map_shapes.toml"]  # fmt: skip


@pytest.mark.parametrize("name", DATA_FILES)
def test_package_data_read_back_from_the_cache_is_what_tomllib_gives(home: Path, name: str) -> None:
    text = (DATA / name).read_text("utf-8")
    first = datafile.load_toml(text, "test")  # parsed, and kept
    assert len(list(home.glob("data-test-*.json"))) == 1
    again = datafile.load_toml(text, "test")  # read back from the entry
    assert first == again == tomllib.loads(text)
    assert json.loads(next(home.glob("data-test-*.json")).read_bytes().split(b"\n", 1)[1]) == again  # JSON, not code


def test_edited_package_data_is_parsed_afresh(home: Path) -> None:
    assert datafile.load_toml("strength = 1\n", "test") == {"strength": 1}
    assert datafile.load_toml("strength = 2\n", "test") == {"strength": 2}  # a new version's file: never the old entry


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'"a string"'])
def test_a_package_data_entry_that_is_not_a_table_is_parsed_again(home: Path, body: bytes) -> None:
    text = "name = 'Winterfell'\n"
    datafile.load_toml(text, "test")
    entry = next(home.glob("data-test-*.json"))
    key = entry.read_bytes().split(b" ")[2].decode()
    cache.store(entry.name, key, body)  # checksum right, content not a table
    assert datafile.load_toml(text, "test") == {"name": "Winterfell"}


def test_package_data_json_cannot_hold_is_parsed_every_time_and_never_kept(home: Path) -> None:
    text = "when = 2026-11-26T07:00:00Z\nnumber = 1.0\n"
    assert datafile.load_toml(text, "test") == tomllib.loads(text)
    assert list(home.glob("data-test-*.json")) == []


def test_package_data_without_a_cache_is_parsed(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    assert datafile.load_toml("a = [1, 2]\n", "test") == {"a": [1, 2]}
    assert not home.exists()


@pytest.mark.parametrize("overlays", [None, ("vale",), ("vale", "essos")])
def test_map_shapes_from_the_cache_are_the_shapes_traced_afresh(home: Path, monkeypatch: pytest.MonkeyPatch,
                                                                overlays: tuple[str, ...] | None) -> None:  # fmt: skip
    def shapes() -> MapShapes:
        MapShapes.classic.cache_clear()
        return MapShapes.classic() if overlays is None else MapShapes.mother_of_dragons(*overlays)

    monkeypatch.setenv("MAESTER_NO_CACHE", "1")
    traced = shapes()
    monkeypatch.delenv("MAESTER_NO_CACHE")
    kept_now, read_back = shapes(), shapes()  # the first keeps them, the second reads them back
    assert len(list(home.glob("data-*map-outlines-*.json"))) == 1
    assert repr(traced) == repr(kept_now) == repr(read_back)  # every number as traced (an int stays an int)
    assert traced == read_back


def test_worked_out_data_is_kept_for_exactly_its_sources(home: Path) -> None:
    calls: list[str] = []

    def work() -> dict[str, Any]:
        calls.append("worked")
        return {"x": [1, 2.5]}

    for sources in (["a"], ["a"], ["b"], ["a", "code changed"]):
        assert datafile.kept("test", sources, work, dict, dict) == {"x": [1, 2.5]}
    assert len(calls) == 3  # "a" once, then read back; "b" and the changed code each once


def test_a_result_json_does_not_give_back_exactly_is_never_kept(home: Path) -> None:
    calls: list[str] = []

    def work() -> tuple[int, int]:
        calls.append("worked")
        return (1, 2)

    for _ in range(2):
        assert datafile.kept("test", ["a"], work, list, lambda d: d) == (1, 2)  # JSON gives a list back
    assert len(calls) == 2
    assert list(home.glob("data-test-*.json")) == []
