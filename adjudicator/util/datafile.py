"""The package's own data (board, cards, map grid) and what is worked out from it, kept once per user.

``tomllib`` is pure Python: the board, the cards and the Mother of Dragons box (about 110 KB of
TOML) took a new ``maester adjudicate`` about 30 ms to parse, every run, and tracing the map's
outlines from its grid of cells as much again, for results that change only with the package. So
they are kept in the user's cache folder (:mod:`adjudicator.util.cache`: private to the user, keyed,
checksummed, written atomically) as JSON, which loads in about a tenth of the time, and never as a
pickle. The key is a hash of everything the result depends on (the files' text, and for worked-out
data the code that works it out), so an edited data file or a new version is worked out afresh. An
entry is written only when JSON gives exactly the same result back (a TOML date would not), and an
entry that does not load is ignored: the caller always gets what the work itself gives.

This is for the package's files only; a game's own files (``game.toml``, ``state.toml``) are read
with :mod:`adjudicator.util.tomltext`, which bounds what a stranger's file may hold.

>>> load_toml('name = "Winterfell"\\n[supply]\\nbarrels = 1\\n', "doctest")
{'name': 'Winterfell', 'supply': {'barrels': 1}}
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from . import cache as user_cache

T = TypeVar("T")


def load_toml(text: str, name: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, from the cache when an earlier process kept it (``name`` names the entry)."""
    return kept(name, [text], lambda: tomllib.loads(text), _as_is, _table)


def kept(name: str, sources: Sequence[str], work: Callable[[], T], to_json: Callable[[T], Any],
         from_json: Callable[[Any], T]) -> T:  # fmt: skip
    """``work()``, or its result as an earlier process kept it for exactly these ``sources``.

    ``to_json`` gives the result as JSON data, ``from_json`` the result back from it; a result
    that does not come back equal to itself is never kept. ``name`` (letters, digits and ``-``)
    names the cache entry.
    """
    key = user_cache.entry_key("package data", name, *sources)
    entry = f"data-{name}-{key[:16]}.json"
    if (body := user_cache.load(entry, key)) is not None:
        try:
            return from_json(json.loads(body))
        except Exception:  # not ours after all: work it out as if there were no entry
            pass
    result = work()
    try:
        body = json.dumps(to_json(result), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        faithful = from_json(json.loads(body)) == result
    except (TypeError, ValueError):  # a date, or a value JSON cannot hold
        return result
    if faithful:
        user_cache.store(entry, key, body)
    return result


def _as_is(data: dict[str, Any]) -> Any:
    return data


def _table(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise TypeError("not a table")
    return data
