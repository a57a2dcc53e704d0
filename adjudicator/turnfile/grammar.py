"""The turn-file grammar as a Lark parser, built once per user and kept in the cache folder.

Building the LALR tables from ``grammar/turnfile.lark`` takes longer than the rest of a new
process's start-up; loading them again takes a few milliseconds. The tables are cached with
:mod:`adjudicator.util.cache` (one file per grammar, Lark, Python and marshal version), as
:mod:`marshal` data (dicts, lists, tuples, strings, numbers), not as Lark's own cache does (a
pickle, which runs code when loaded): a cache file can at worst hold a wrong parser for a user
who wrote it there, never run code. (They were JSON until marshal was found to read them in a
third of the instructions, with tuples and integer keys as they are; issue 31.) A file that does
not load is ignored, and the tables are built from the grammar as if there were none.

>>> str(parser(None).parse("Winterfell: march +1", start="line").data)
'head_line'
"""

from __future__ import annotations

import json
import marshal
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


@cache
def grammar_text() -> str:
    """The grammar source: inside the installed package, or at the top of a checkout."""
    return (resource_dir("grammar") / "turnfile.lark").read_text("utf-8")


def _key() -> str:
    return user_cache.entry_key("turnfile.lark", grammar_text(), "lark " + lark.__version__, json.dumps(OPTIONS),
                                "marshal " + str(marshal.version))  # fmt: skip


def parser(transformer: Transformer[Any, Any] | None) -> Lark:
    """The grammar's parser with ``transformer`` run inline (``None``: one that builds a parse tree)."""
    key = _key()
    name = f"turnfile-{key[:16]}.bin"
    if (body := user_cache.load(name, key)) is not None:
        try:
            saved = marshal.loads(body)
            load: Any = Lark._load_from_dict  # Lark's loader of saved tables (what its own cache and standalone use)
            return cast(Lark, load(saved["data"], saved["memo"], transformer=transformer))
        except Exception:  # a damaged or foreign file: build the tables as if it were not there
            pass
    built = Lark(grammar_text(), transformer=transformer, **OPTIONS)
    if (body := tables_bytes(built)) is not None:
        user_cache.store(name, key, body)
    return built


@cache
def bare_parser() -> Lark:
    """The parser without the line builder (it builds a parse tree): what the benchmark compares against."""
    return parser(None)


def tables_bytes(built: Lark) -> bytes | None:
    """The parser's tables as :mod:`marshal` data, or ``None`` when they would not come back exactly as
    they are, or would hold anything but plain data (a code object, say: marshal can write one)."""
    data, memo = built.memo_serialize([TerminalDef, Rule])
    data["options"] = {n: v for n, v in data["options"].items() if n not in _GIVEN_AT_LOAD}
    tables = {"data": data, "memo": memo}
    if not is_plain(tables):
        return None
    try:
        body = marshal.dumps(tables)
        faithful = marshal.loads(body) == tables
    except (TypeError, ValueError, EOFError):
        return None
    return body if faithful else None


_PLAIN = (str, int, float, bool, type(None))


def is_plain(value: Any) -> bool:
    """Whether ``value`` is only dicts, lists and tuples of strings, numbers, booleans and None.

    >>> is_plain({"a": [1, (2.5, None)], 3: "x"}), is_plain({"a": compile("1", "", "eval")})
    (True, False)
    """
    if type(value) in (list, tuple):
        return all(is_plain(v) for v in value)
    if type(value) is dict:
        return all(type(k) in _PLAIN and is_plain(v) for k, v in value.items())
    return type(value) in _PLAIN
