"""A command read from a file, checked field by field against its type (a saved state or a position
file a moderator edited by hand): every value of the type it declares and every number in range."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from .commands import Command, ForVassal

# The numbers a command carries, bounded as the turn-file language bounds them (turnfile.py): a
# house owns 10 footmen, a port holds 3 ships, a bid is 0 to 99. The engine sizes lists by them.
NUMBER_RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("UnitSpec", "count"): (1, 10), ("Located", "count"): (1, 10), ("PortShips", "count"): (0, 3),
    ("Bid", "amount"): (0, 99), ("Give", "power"): (1, 20),
    ("SpymasterChoice", "top"): (1, 2), ("SpymasterChoice", "bottom"): (1, 2),
}
MAX_PARTS = 1000  # items in one list of a command: a turn-file line of 1,000 characters holds fewer


def check_command(value: object, path: str = "command") -> None:
    """Every field of a command (as :func:`from_dict` built it from a file) of its type and in range.

    A saved state is written by Maester, but a moderator may edit it (or a position file) by hand:
    a count of 99999999999 would have the engine build that many units.

    >>> from adjudicator.game.commands import PortShips
    >>> check_command(PortShips(port="pyke", count=7))
    Traceback (most recent call last):
    ...
    ValueError: command.count: expected a whole number from 0 to 3, got 7

    :raises ValueError: naming the field at fault.
    """
    name = type(value).__name__
    cls: Any = type(value)
    for field_name, kind in _field_kinds(cls):
        v = getattr(value, field_name)
        where = f"{path}.{field_name}"
        if v is None and kind.optional:
            continue
        if kind.item is not None:  # a list
            if not isinstance(v, tuple) or len(v) > MAX_PARTS:
                raise ValueError(f"{where}: expected a list of at most {MAX_PARTS} items, got {_short(v)}")
            for i, item in enumerate(v, 1):
                if not (item is None and kind.item_optional):
                    _check_value(item, kind.item, (name, field_name), f"{where}.{i}")
        else:
            _check_value(v, kind, (name, field_name), where)


def _check_value(v: object, kind: _Kind, key: tuple[str, str], where: str) -> None:
    if kind.shape == "int":
        low, high = NUMBER_RANGES.get(key, (0, 99))
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise ValueError(f"{where}: expected a whole number from {low} to {high}, got {_short(v)}")
    elif kind.shape == "bool":
        if not isinstance(v, bool):
            raise ValueError(f"{where}: expected true or false, got {_short(v)}")
    elif kind.shape == "table" and kind.nested == "Command":  # the answer inside a ForVassal
        if not isinstance(v, Command) or isinstance(v, ForVassal):
            raise ValueError(f"{where}: expected a command, got {_short(v)}")
        check_command(v, where)
    elif kind.shape == "table":
        if type(v).__name__ != kind.nested:
            raise ValueError(f"{where}: expected a table, got {_short(v)}")
        check_command(v, where)
    elif not isinstance(v, str):
        raise ValueError(f"{where}: expected text, got {_short(v)}")
    elif kind.words and v not in kind.words:
        raise ValueError(f"{where}: expected one of {', '.join(kind.words)}, got {_short(v)}")


@dataclass(frozen=True, slots=True)
class _Kind:
    """What a field holds, read once from its annotation (a string here: ``AreaId | None``)."""

    shape: str  # int, bool, table, text or list
    optional: bool = False
    nested: str = ""  # a table's class name
    words: tuple[str, ...] = ()  # a Literal's values
    item: _Kind | None = None  # a list's items
    item_optional: bool = False


_NESTED_NAME = re.compile(r"\b(UnitSpec|Located|CombatFilter|Move|MusterAction|MusterPlan|Command)\b")
_OPTIONAL = re.compile(r"\bOptional\[|\bNone\b")


def _kind(text: str) -> _Kind:
    if "tuple[" in text:
        outer, inner = text.split("tuple[", 1)
        item = inner.split(",", 1)[0]
        optional = bool(_OPTIONAL.search(outer) or _OPTIONAL.search(inner.rsplit("]", 1)[-1]))
        return _Kind("list", optional, item=_kind(item), item_optional=bool(_OPTIONAL.search(item)))
    optional = bool(_OPTIONAL.search(text))
    if nested := _NESTED_NAME.search(text):
        return _Kind("table", optional, nested=nested.group(1))
    for shape in ("int", "bool"):
        if re.search(rf"\b{shape}\b", text):
            return _Kind(shape, optional)
    return _Kind("text", optional, words=tuple(re.findall(r"""['"]([^'"]*)['"]""", text)) if "Literal[" in text else ())


@cache
def _field_kinds(cls: Any) -> tuple[tuple[str, _Kind], ...]:
    """(field, kind) of a command class, ``where`` left out."""
    return tuple((f.name, _kind(str(f.type))) for f in fields(cls) if f.name != "where")


def _short(v: object) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."
