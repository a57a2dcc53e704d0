"""The turn-file grammar as a Lark parser, built once per user and kept in the cache folder.

Building the LALR tables from ``grammar/turnfile.lark`` takes longer than the rest of a new
process's start-up; loading them again takes a few milliseconds. The tables are cached with
:mod:`adjudicator.util.cache` (one file per grammar, Lark, Python and marshal version) in two
parts. The parser's tables and options are :mod:`marshal` data (dicts, lists, tuples, strings,
numbers). The grammar's rules and terminals (Lark's "memo": 357 rules, 97 terminals) are a pickle
read by :class:`_GrammarUnpickler`, which builds those and nothing else: it refuses every global
but the seven classes of Lark's grammar, and a rule is built by its own constructor (which works
out its hash in this process). Lark's own loader rebuilds the same objects field by field in
Python: a fifth of a command's whole start-up went there; the unpickler does it in C, five times
faster (issue 31). Lark's own cache is a pickle of everything, which may name any function: a
cache file here can at worst hold a wrong parser for a user who wrote it there, never run code.
The pickle is kept only when its rules and terminals serialise back, by Lark's own serialiser,
exactly as the built parser's do, and Lark's loader builds a parser from them; else (a later Lark)
the memo is kept in Lark's own form, for Lark's reader. A file that does not load is ignored, and
the tables are built from the grammar as if there were none.

>>> str(parser(None).parse("Winterfell: march +1", start="line").data)
'head_line'
"""

from __future__ import annotations

import io
import json
import marshal
import pickle
from functools import cache
from typing import Any, cast

import lark
from lark import Lark, Transformer
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lexer import PatternRE, PatternStr, TerminalDef

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
                                "marshal " + str(marshal.version), "memo pickle " + str(_PROTOCOL))  # fmt: skip


def parser(transformer: Transformer[Any, Any] | None) -> Lark:
    """The grammar's parser with ``transformer`` run inline (``None``: one that builds a parse tree)."""
    key = _key()
    name = f"turnfile-{key[:16]}.bin"
    if (body := user_cache.load(name, key)) is not None:
        try:
            saved = marshal.loads(body)
            memo = saved["memo"]
            if isinstance(memo, bytes):  # the pickle of the memo's objects (else Lark's own form, for Lark to read)
                memo = _GrammarUnpickler(io.BytesIO(memo)).load()
            return _loaded(saved["data"], memo, transformer)
        except Exception:  # a damaged or foreign file: build the tables as if it were not there
            pass
    built = Lark(grammar_text(), transformer=transformer, **OPTIONS)
    if (body := tables_bytes(built)) is not None:
        user_cache.store(name, key, body)
    return built


def _loaded(data: dict[str, Any], memo: dict[int, Any], transformer: Transformer[Any, Any] | None) -> Lark:
    """Lark's loader of saved tables (what its own cache and standalone use). A memo of objects built
    already is taken as it is: Lark's reader passes on what is neither dict nor list."""
    load: Any = Lark._load_from_dict
    return cast(Lark, load(data, memo, transformer=transformer))


@cache
def bare_parser() -> Lark:
    """The parser without the line builder (it builds a parse tree): what the benchmark compares against."""
    return parser(None)


def tables_bytes(built: Lark) -> bytes | None:
    """The parser's tables as a cache entry's body, or ``None`` when they would not come back exactly as
    they are: the tables as :mod:`marshal` data (``None`` if they hold anything but plain data, a code
    object, say: marshal can write one), the grammar's rules and terminals as a pickle that
    :class:`_GrammarUnpickler` reads back into objects Lark serialises exactly as the built parser's
    and its loader takes (else as Lark's own plain form of them)."""
    data, memo = built.memo_serialize([TerminalDef, Rule])
    data["options"] = {n: v for n, v in data["options"].items() if n not in _GIVEN_AT_LOAD}
    if not is_plain(data) or not is_plain(memo):
        return None
    try:
        objects = {i: _deserialized(entry) for i, entry in memo.items()}
        out = io.BytesIO()
        _GrammarPickler(out, protocol=_PROTOCOL).dump(objects)
        back = _GrammarUnpickler(io.BytesIO(out.getvalue())).load()
        faithful = {i: o.serialize() for i, o in back.items()} == memo and all(
            hash(back[i]) == hash(o) for i, o in objects.items() if isinstance(o, Rule))
        faithful = faithful and _objects_load(data, back)
        # A Lark whose loader would not take the objects (a later release) is given its own form of the
        # memo: slower to read, but read, rather than the tables built again by every command.
        tables = {"data": data, "memo": out.getvalue() if faithful else memo}
        body = marshal.dumps(tables)
        faithful = marshal.loads(body) == tables
    except (TypeError, ValueError, EOFError, KeyError, AttributeError, pickle.PicklingError, pickle.UnpicklingError):
        return None
    return body if faithful else None


def _objects_load(data: dict[str, Any], memo: dict[int, Any]) -> bool:
    """Whether this Lark's loader builds a parser from the tables and a memo of built objects."""
    try:
        _loaded(data, memo, None)
    except Exception:  # any failure of Lark's: its own form of the memo is kept instead
        return False
    return True


_PROTOCOL = 5
# The classes a memo holds (Lark's grammar: rules, their options and symbols, terminals and their
# patterns), by the module and name a pickle gives them.
_GRAMMAR_CLASSES: dict[tuple[str, str], type] = {
    (c.__module__, c.__qualname__): c for c in (Rule, RuleOptions, Terminal, NonTerminal, TerminalDef, PatternStr, PatternRE)
}


def _deserialized(entry: dict[str, Any]) -> Any:
    """One memo entry as Lark's own loader builds it (what the pickle is made from)."""
    classes: dict[str, Any] = {"Rule": Rule, "TerminalDef": TerminalDef}
    return classes[entry["__type__"]].deserialize(entry, {})


class _GrammarPickler(pickle.Pickler):
    """A pickle of the memo's objects, each rule as a call of its constructor (never its hash: a
    string's hash differs from one process to the next)."""

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is Rule:
            return Rule, (obj.origin, obj.expansion, obj.order, obj.alias, obj.options)
        return NotImplemented


class _GrammarUnpickler(pickle.Unpickler):
    """Reads a memo's pickle, building Lark's grammar classes and plain data only."""

    def find_class(self, module: str, name: str) -> Any:
        found = _GRAMMAR_CLASSES.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not one of the grammar's classes")
        return found


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
