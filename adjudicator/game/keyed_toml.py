"""Reading a TOML data file whose every fault names the file, the line and the key.

Position files and setup files are read this way: a typed getter refuses a wrong type with the
key's dotted name, the key's line is found in the text (:func:`key_lines`), and an unknown key is
answered with the closest known one.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import cached_property
from typing import Any, ClassVar, NoReturn

from ..util import tomltext
from ..util.suggest import close_matches


class DataFileError(ValueError):
    """A data file that cannot be read: names the file, the line and the key at fault."""

    def __init__(self, file: str, line: int | None, key: str, message: str) -> None:
        self.file, self.line, self.key, self.message = file, line, key, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.key}: {self.message}" if self.key else f"{where}: {self.message}"


class KeyedReader:
    """One pass over one file's text; every failure is an ``error`` naming the key and, where known, its line."""

    error: ClassVar[type[DataFileError]] = DataFileError

    def __init__(self, text: str, filename: str) -> None:
        self.text, self.file = text, filename

    @cached_property
    def lines(self) -> dict[tuple[str, ...], int]:
        return key_lines(self.text)

    def fail(self, key: str, message: str) -> NoReturn:
        parts = tuple(key.split(".")) if key else ()
        line = None
        while parts and line is None:
            line = self.lines.get(parts)
            parts = parts[:-1]
        raise self.error(self.file, line, key, message)

    def parse(self) -> dict[str, Any]:
        """The file's TOML, within the sizes :mod:`tomltext` allows (fractions are refused by :meth:`whole_numbers`)."""
        try:
            data = tomltext.loads(self.text)
        except tomltext.TomlLimit as e:
            if e.key:
                self.fail(e.key, e.message)
            raise self.error(self.file, e.line, "", e.message) from None
        except tomllib.TOMLDecodeError as e:
            m = re.search(r"line (\d+)", str(e))
            raise self.error(self.file, int(m.group(1)) if m else None, "", f"not valid TOML: {e}") from None
        return data

    # typed getters: each refuses a wrong type with the key's name
    def get(self, d: dict[str, Any], key: str, path: str, kind: type | tuple[type, ...], default: Any) -> Any:
        if key not in d:
            return default
        value = d[key]
        if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
            self.fail(f"{path}{key}", f"expected {kind_name(kind)}, got {show(value)}")
        return value

    def str_list(self, d: dict[str, Any], key: str, path: str, default: list[str] | None) -> list[str] | None:
        value = self.get(d, key, path, list, None)
        if value is None:
            return default
        for v in value:
            if not isinstance(v, str):
                self.fail(f"{path}{key}", f"expected a list of strings, got {show(v)}")
        return list(value)

    def known_keys(self, d: dict[str, Any], allowed: tuple[str, ...], path: str) -> None:
        for k in d:
            if k not in allowed:
                hint = suggest(k, allowed) or f"; the keys are {', '.join(allowed)}"
                self.fail(f"{path}{k}", f"unknown key {k!r}{hint}")

    def whole_numbers(self, data: dict[str, Any]) -> None:
        """No fractions anywhere: Maester writes none, and ``nan`` is not even equal to itself."""
        stack: list[tuple[Any, str]] = [(data, "")]
        while stack:
            value, key = stack.pop()
            if isinstance(value, dict):
                stack += [(v, f"{key}.{k}" if key else k) for k, v in value.items()]
            elif isinstance(value, list):
                stack += [(v, key) for v in value]
            elif isinstance(value, float):
                shown = "nan" if math.isnan(value) else repr(value)
                self.fail(key, f"expected a whole number, true or false or a string, not the fraction {shown}")


_HEADER_RE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY_RE = re.compile(r'^\s*((?:"[^"]*"|\'[^\']*\'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:"[^"]*"|\'[^\']*\'|[A-Za-z0-9_-]+))*)\s*=')


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (1-based) where each table and key of a TOML text is written, by dotted path.

    Lines inside multi-line arrays and strings are skipped, so a value never counts as a key.
    """
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    depth = 0
    in_string: str | None = None
    for n, line in enumerate(text.splitlines(), start=1):
        if depth == 0 and in_string is None:
            if m := _HEADER_RE.match(line):
                table = _split_key(m.group(1))[: tomltext.MAX_DEPTH]  # a longer key is refused anyway
                lines.setdefault(table, n)
            elif m := _KEY_RE.match(line):
                path = (table + _split_key(m.group(1)))[: tomltext.MAX_DEPTH]
                for i in range(len(table) + 1, len(path) + 1):
                    lines.setdefault(path[:i], n)
        depth, in_string = _scan(line, depth, in_string)
    return lines


def _split_key(key: str) -> tuple[str, ...]:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_-]+)', key)
    return tuple(a or b or c for a, b, c in parts)


def _scan(line: str, depth: int, in_string: str | None) -> tuple[int, str | None]:
    """Bracket depth and open multi-line string after one line (comments and strings skipped)."""
    i = 0
    while i < len(line):
        if in_string:
            end = line.find(in_string, i)
            if end < 0:
                return depth, in_string
            i, in_string = end + len(in_string), None
            continue
        c = line[i]
        if c == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            in_string = line[i:i + 3]
            i += 3
            continue
        if c in "\"'":
            end = line.find(c, i + 1)
            while c == '"' and end > 0 and line[end - 1] == "\\":
                end = line.find(c, end + 1)
            i = len(line) if end < 0 else end + 1
            continue
        if (c in "[{" and depth > 0) or (c == "[" and line[:i].strip().endswith("=")) or (c == "{" and line[:i].strip().endswith("=")):
            depth += 1
        elif c in "]}" and depth > 0:
            depth -= 1
        i += 1
    return depth, in_string


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    close = close_matches(word, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "a whole number", str: "a string", bool: "true or false", list: "a list", dict: "a table"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def show(value: Any) -> str:
    return f"{value!r} ({type(value).__name__})"
