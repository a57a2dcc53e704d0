"""The turn-file grammar as a Lark parser, built once per user and kept in the cache folder.

Building the LALR tables from ``grammar/turnfile.lark`` takes longer than the rest of a new
process's start-up; loading them again takes a few milliseconds. The tables are cached with
:mod:`adjudicator.util.cache` (one file per grammar, Lark and Python version), and as JSON, not
as Lark's own cache does (a pickle, which runs code when loaded): a cache file can at worst hold
a wrong parser for a user who wrote it there, never run code. A file that does not load is
ignored, and the tables are built from the grammar as if there were none.

>>> str(parser(None).parse("Winterfell: march +1", start="line").data)
'head_line'
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, cast

import lark
from lark import Lark, Transformer
from lark.grammar import Rule
from lark.lexer import TerminalDef

from ..util import cache as user_cache
from ..util.resources import resource_dir

OPTIONS: dict[str, Any] = {"parser": "lalr", "lexer": "contextual", "start": ["file", "line"]}
# What a saved parser is given again when it is loaded (Lark's list; the transformer at least).
_GIVEN_AT_LOAD = frozenset(getattr(lark.lark, "_LOAD_ALLOWED_OPTIONS", ())) | {"transformer"}
_TUPLE, _INT_KEYS = "\x00tuple", "\x00int-keys"  # JSON has neither tuples nor integer keys; no name of Lark's starts with NUL


@cache
def grammar_text() -> str:
    """The grammar source: inside the installed package, or at the top of a checkout."""
    return (resource_dir("grammar") / "turnfile.lark").read_text("utf-8")


def _key() -> str:
    return user_cache.entry_key("turnfile.lark", grammar_text(), "lark " + lark.__version__, json.dumps(OPTIONS))


def parser(transformer: Transformer[Any, Any] | None) -> Lark:
    """The grammar's parser with ``transformer`` run inline (``None``: one that builds a parse tree)."""
    key = _key()
    name = f"turnfile-{key[:16]}.json"
    if (body := user_cache.load(name, key)) is not None:
        try:
            saved = json.loads(body, object_hook=_from_json)
            load: Any = Lark._load_from_dict  # Lark's loader of saved tables (what its own cache and standalone use)
            return cast(Lark, load(saved["data"], saved["memo"], transformer=transformer))
        except Exception:  # a damaged or foreign file: build the tables as if it were not there
            pass
    built = Lark(grammar_text(), transformer=transformer, **OPTIONS)
    if (body := _tables_json(built)) is not None:
        user_cache.store(name, key, body)
    return built


@cache
def bare_parser() -> Lark:
    """The parser without the line builder (it builds a parse tree): what the benchmark compares against."""
    return parser(None)


def _tables_json(built: Lark) -> bytes | None:
    """The parser's tables as JSON, or ``None`` when they would not come back exactly as they are."""
    data, memo = built.memo_serialize([TerminalDef, Rule])
    data["options"] = {n: v for n, v in data["options"].items() if n not in _GIVEN_AT_LOAD}
    tables = {"data": data, "memo": memo}
    try:
        body = json.dumps(_to_json(tables), separators=(",", ":")).encode("utf-8")
        faithful = json.loads(body, object_hook=_from_json) == tables
    except (TypeError, ValueError):
        return None
    return body if faithful else None


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return {_TUPLE: [_to_json(v) for v in value]}
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        if all(type(k) is str and not k.startswith("\x00") for k in value):
            return {k: _to_json(v) for k, v in value.items()}
        if all(type(k) is int for k in value):
            return {_INT_KEYS: [[k, _to_json(v)] for k, v in value.items()]}
        raise TypeError("a dict with keys of mixed kinds")
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise TypeError(f"{type(value).__name__} in the parser's tables")


def _from_json(d: dict[str, Any]) -> Any:
    if len(d) == 1:
        if _TUPLE in d:
            return tuple(d[_TUPLE])
        if _INT_KEYS in d:
            return dict(d[_INT_KEYS])
    return d
