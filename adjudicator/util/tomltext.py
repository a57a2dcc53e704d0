"""TOML read with bounds: the files a moderator edits by hand must never crash or exhaust a reader.

The standard reader recurses once per ``[`` or ``{`` (a few hundred nested brackets raise
``RecursionError``), turns a whole number of more than 4,300 digits into a ``ValueError`` (Python's
int-string limit), and accepts keys dotted thousands of parts deep, which every later walk over the
data (a writer, a validator) then recurses through. :func:`loads` refuses all three first, as a
:class:`TomlLimit` (a ``tomllib.TOMLDecodeError``, so every caller's handler for bad TOML catches it)
naming the line, or the key, at fault. Maester's own files nest 8 deep at most.

A run reads ``game.toml`` several times (the keys in force, the players, the deadlines, the game
id), each from the file as it is then; a small text read again in the same process is not parsed
again but copied from what its first reading gave (a fresh copy each time: no caller sees another's
changes), about a tenth of the cost.

>>> loads("a = [[1], {b = 2}]")
{'a': [[1], {'b': 2}]}
>>> loads("x = 1\\ny = " + "[" * 200 + "]" * 200)
Traceback (most recent call last):
...
adjudicator.util.tomltext.TomlLimit: line 2: brackets nested more than 32 deep; Maester's files nest 8 deep at most
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

MAX_DEPTH = 32  # tables and arrays inside each other; Maester writes 8 at most (a half-resolved phase)
MAX_DIGITS = 100  # the longest number outside a string; Maester's numbers have a few digits

MEMO_CHARS = 16_384  # texts up to this long (game.toml) are remembered once read; a state.toml is longer
MEMO_ENTRIES = 8
_MEMO: dict[str, dict[str, Any]] = {}  # text -> what it parsed to (never handed out: copies are)

_SPECIAL = re.compile(r"[\"'#\[\]{}\n0-9.=,]")
_BASIC = re.compile(r'(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"[^'\n]*'")
_MULTI_BASIC = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.DOTALL)
_DIGITS = re.compile(r"[0-9_]*")


class TomlLimit(tomllib.TOMLDecodeError):
    """A TOML text past one of Maester's bounds; ``line`` (1-based) or ``key`` says where."""

    def __init__(self, message: str, *, line: int | None = None, key: str = "") -> None:
        ValueError.__init__(self, message)  # not TOMLDecodeError's own signature, which differs by Python version
        self.message, self.line, self.key = message, line, key

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else f"{self.key}: " if self.key else ""
        return where + self.message


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads`` after the bounds are checked.

    :raises tomllib.TOMLDecodeError: for text that is not TOML, and :class:`TomlLimit` for TOML
        nested too deep or holding a number too long.
    """
    small = len(text) <= MEMO_CHARS
    if small and (known := _MEMO.get(text)) is not None:
        again: dict[str, Any] = _copied(known)
        return again
    _check_text(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except (ValueError, RecursionError) as e:  # a bound the scan above missed: still one clear message
        raise TomlLimit(f"not readable TOML ({type(e).__name__}: {e})") from None
    _check_depth(data)
    if small:
        if len(_MEMO) >= MEMO_ENTRIES:
            del _MEMO[next(iter(_MEMO))]  # the oldest
        _MEMO[text] = _copied(data)
    return data


def _copied(value: Any) -> Any:
    """A copy of parsed TOML: its tables and arrays new, the rest (strings, numbers, dates) immutable."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def _check_text(text: str) -> None:
    """Brackets nested too deep, a dotted key too long or a number too long, outside strings and comments.

    (A key of thousands of dotted parts costs the standard reader quadratic time: 8,000 take a second.)
    """
    depth, dots, line, i, n = 0, 0, 1, 0, len(text)
    while (m := _SPECIAL.search(text, i)) is not None:
        c, i = m.group(), m.end()
        if c == ".":
            dots += 1
            if dots >= MAX_DEPTH:
                raise TomlLimit(f"a dotted key of more than {MAX_DEPTH} parts", line=line)
            continue
        if c in "\n=,[{":
            dots = 0
        if c == "\n":
            line += 1
        elif c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif c in "\"'":
            end = _string_end(text, i, c)
            if end < 0:
                return  # an unclosed string: tomllib names the line
            line += text.count("\n", i, end)
            i = end
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TomlLimit(f"brackets nested more than {MAX_DEPTH} deep; Maester's files nest 8 deep at most",
                                line=line)
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c.isdigit():
            run = _DIGITS.match(text, i)
            end = run.end() if run else i
            if end - i + 1 > MAX_DIGITS:
                raise TomlLimit(f"a number {end - i + 1} characters long; the longest Maester reads has {MAX_DIGITS}",
                                line=line)
            i = end


def _string_end(text: str, start: int, quote: str) -> int:
    """Where the string opened by ``quote`` just before ``start`` ends (after its closing quote), or -1."""
    if text.startswith(quote * 2, start):  # a multi-line string
        if quote == "'":
            end = text.find("'''", start + 2)
            return -1 if end < 0 else end + 3
        m = _MULTI_BASIC.match(text, start + 2)
        return -1 if m is None else m.end()
    m = (_BASIC if quote == '"' else _LITERAL).match(text, start)
    return -1 if m is None else m.end()


def _check_depth(data: dict[str, Any]) -> None:
    """Tables and arrays nested too deep, dotted keys included (``a.b.c = 1`` is three tables)."""
    stack: list[tuple[Any, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, key = stack.pop()
        if depth > MAX_DEPTH:
            shown = key if len(key) <= 60 else key[:57] + "..."
            raise TomlLimit(f"tables and arrays nested more than {MAX_DEPTH} deep", key=shown)
        if isinstance(value, dict):
            stack += [(v, depth + 1, f"{key}.{k}" if key else str(k)) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(v, depth + 1, f"{key}.{i + 1}") for i, v in enumerate(value)]
