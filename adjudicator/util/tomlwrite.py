r"""TOML written exactly as ``tomli_w.dumps`` writes it, each table's text remembered.

A step's snapshot (``states/NNNN.toml``, and ``state.toml``, the same text) is 14-60 KB of TOML,
and ``tomli_w`` formats every value of it each time: 3-4 ms a step late in a game. From one step
to the next most of it is unchanged (the areas, the houses, the decks, the state a half-resolved
phase started from). :func:`dumps` cuts the document into its tables as ``tomli_w`` does, has
``tomli_w`` write only the tables this process has not written before, each in place and under
its own name, and joins the pieces with ``tomli_w``'s own separators. A table of plain values
(bare keys; strings it need not escape, numbers, booleans and lists of them) is written here as
``tomli_w`` writes it, without its generators (:func:`_plain`); any other is left to ``tomli_w``.

The memory is bounded by the text it holds (keys and texts, :data:`MEMO_CHARS`), the table used
longest ago forgotten first: kept up to a count of tables, a long game's own tables made it grow
with the game (9 MiB by the end of a 6-player game). A table found whole keeps the pieces its text
was joined from with it, so that they are still there when it changes.

A table's text is remembered under its dotted place and its ``repr``, which tells apart every
value ``tomli_w`` writes differently (``1``, ``1.0``, ``True``, ``"1"``, a date; key order too).
That holds for the plain data a state's ``to_dict`` and ``tomllib`` give (dicts, lists, strings,
numbers, booleans, dates); :func:`dumps` is for such data only (``tests/test_tomlwrite.py``
compares it with ``tomli_w.dumps`` on every snapshot of robot games and on generated tables).

>>> dumps({"round": 2, "areas": {"winterfell": {"units": ["footman"]}, "the_eyrie": {}}})
'round = 2\n\n[areas.winterfell]\nunits = [\n    "footman",\n]\n\n[areas.the_eyrie]\n'
>>> dumps({"areas": {"winterfell": {"power": 1}}}), dumps({"areas": {"winterfell": {"power": True}}})
('[areas.winterfell]\npower = 1\n', '[areas.winterfell]\npower = true\n')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import tomli_w

WHOLE_DEPTH = 2  # tables this near the top are also remembered whole
MEMO_CHARS = 500_000  # characters of keys and texts remembered; one 6-player state's tables hold ~30,000
_Key = tuple[tuple[str, ...], str]  # (place, repr of the table)
_MEMO: dict[_Key, str] = {}  # key -> its text, the table used longest ago first
_PIECES: dict[_Key, tuple[_Key, ...]] = {}  # a table remembered whole -> the keys of the pieces joined into it
_joining: list[list[_Key]] = []  # per whole table being joined now: the pieces it used
_held = [0]  # characters in _MEMO
_first = [True]  # no document written yet by this process


def dumps(data: Mapping[str, Any]) -> str:
    """``tomli_w.dumps(data)``, byte for byte, re-using the text of tables written before.

    The first document of a process is ``tomli_w``'s alone, nothing remembered: a command of a game
    writes one snapshot most often, and cutting it into remembered tables costs twice what
    ``tomli_w`` does (3.3 ms over 1.5 ms for a 6-player state); a process writing more (a replay, a
    run taking several steps, a simulated game) remembers the tables from its second on.
    """
    if _first[0]:
        _first[0] = False
        return tomli_w.dumps(data)
    return _table(data, ())


def _table(table: Mapping[str, Any], place: tuple[str, ...]) -> str:
    """The text ``tomli_w`` writes for ``table`` at ``place`` (its header, its values, its tables).

    Only the pieces ``tomli_w`` writes are remembered (a table's own values, a list of tables):
    a table holding tables is joined anew from them, so each value is looked up once.
    """
    literals: dict[str, Any] = {}
    tables: list[str] = []
    for key, value in table.items():
        if type(value) is dict or isinstance(value, Mapping):
            tables.append(_whole(value, (*place, key)) if len(place) < WHOLE_DEPTH else _table(value, (*place, key)))
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            if (text := _tables(place, key, value)) is not None:
                tables.append(text)
            else:
                literals[key] = value
        else:
            literals[key] = value
    # tomli_w: the header when the table has values of its own or nothing else, then the values,
    # then each table after a blank line (none before the first when nothing came before it).
    head = _written(place, literals) if literals or (place and not tables) else ""
    parts = [head]
    for i, text in enumerate(tables):
        if head or i:
            parts.append("\n")
        parts.append(text)
    return "".join(parts)


def _whole(table: Mapping[str, Any], place: tuple[str, ...]) -> str:
    """:func:`_table`, remembered whole: the large tables near the top (the areas, the houses, the
    state a half-resolved phase started from) are often the same as a step before."""
    key = (place, repr(table))
    text = _recalled(key)
    if text is None:
        _joining.append([])
        try:
            text = _table(table, place)
        finally:
            pieces = _joining.pop()
        _keep(key, text)
        _PIECES[key] = tuple(p for p in pieces if p != key)  # (a table of values only is its own piece)
    return text


def _tables(place: tuple[str, ...], key: str, value: list[Any] | tuple[Any, ...]) -> str | None:
    """A list of tables written as ``[[place.key]]`` tables, or ``None`` when tomli_w writes it inline.

    tomli_w writes the list inline when every table in it fits on a line; when none does, it is
    the tables one by one, each as tomli_w writes a list of that one table, a blank line between
    (each remembered: the requests open stay the same for several steps).
    """
    each = [_written(place, {key: [table]}) for table in value]
    if all(text.startswith("[[") for text in each):
        return "\n".join(each)
    text = _written(place, {key: value})  # some fit on a line: tomli_w decides on the whole list
    return text if text.startswith("[[") else None


def _written(place: tuple[str, ...], table: Mapping[str, Any]) -> str:
    """What ``tomli_w`` writes for ``table`` at ``place``: the same call nested in one-key tables,
    which add no header or line of their own; remembered."""
    key = (place, repr(table))
    text = _recalled(key)
    if text is None:
        text = _plain(place, table)
        if text is None:
            doc: Mapping[str, Any] = table
            for name in reversed(place):
                doc = {name: doc}
            text = tomli_w.dumps(doc)
        _keep(key, text)
    return text


# What tomli_w (1.x) writes for a table of plain values, written here without its generators: most
# tables of a snapshot hold only strings, whole numbers, booleans and lists of them, and a new
# process (every command of a game) remembers none of them. Anything else is left to tomli_w.
_BARE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")  # a key written as it is
_ESCAPED = frozenset('"\\') | frozenset(chr(i) for i in range(32) if i != 9) | {chr(127)}  # tomli_w escapes these
_INDENT = "    "  # tomli_w's indent for the items of a list


def _plain(place: tuple[str, ...], table: Mapping[str, Any]) -> str | None:
    """``tomli_w.dumps`` of ``table`` nested at ``place`` when every key is bare and every value plain
    (:func:`_literal`); ``None`` otherwise."""
    if place and not all(k and _BARE.issuperset(k) for k in place):
        return None
    lines = [f"[{'.'.join(place)}]\n"] if place else []
    for k, v in table.items():
        if type(k) is not str or not k or not _BARE.issuperset(k) or (text := _literal(v, 0)) is None:
            return None
        lines.append(f"{k} = {text}\n")
    return "".join(lines)


def _literal(value: Any, nest: int) -> str | None:
    """How tomli_w writes a string without a character it escapes, a bool, an int, a float, or a
    list of such values (``nest``: how deep in lists); ``None`` for any other value."""
    kind = type(value)
    if kind is str:
        return f'"{value}"' if _ESCAPED.isdisjoint(value) else None
    if kind is bool:
        return "true" if value else "false"
    if kind is int or kind is float:
        return str(value)
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        items = []
        for item in value:
            if (text := _literal(item, nest + 1)) is None:
                return None
            items.append(text)
        inner = _INDENT * (nest + 1)
        return "[\n" + inner + f",\n{inner}".join(items) + f",\n{_INDENT * nest}]"
    return None


def _recalled(key: _Key) -> str | None:
    """The text remembered under ``key`` (now the last used, with its pieces), or ``None``."""
    text = _refreshed(key)
    if text is not None and _joining:
        _joining[-1].append(key)
    return text


def _refreshed(key: _Key) -> str | None:
    """The text under ``key``, it and the pieces of a whole table moved to the end (used last)."""
    text = _MEMO.pop(key, None)
    if text is not None:
        _MEMO[key] = text
        for piece in _PIECES.get(key, ()):
            _refreshed(piece)
    return text


def forget() -> None:
    """Forget every table's text (the next document is written by ``tomli_w`` alone)."""
    _MEMO.clear()
    _PIECES.clear()
    _held[0] = 0


def _keep(key: _Key, text: str) -> None:
    if _joining:
        _joining[-1].append(key)
    if (old := _MEMO.pop(key, None)) is not None:  # (a table of values only, kept as a piece, then whole)
        _held[0] -= len(key[1]) + len(old)
    _MEMO[key] = text
    _held[0] += len(key[1]) + len(text)
    while _held[0] > MEMO_CHARS and len(_MEMO) > 1:
        oldest = next(iter(_MEMO))
        _held[0] -= len(oldest[1]) + len(_MEMO.pop(oldest))
        _PIECES.pop(oldest, None)
