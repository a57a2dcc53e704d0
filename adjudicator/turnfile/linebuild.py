"""The values the turn-file grammar hands to the line builder, and the context a line is built in.

The parser's line builder (:mod:`~adjudicator.turnfile.parser`) and the readers of the lines it
mixes in (:mod:`~adjudicator.turnfile.vassal_lines`) both build lines with these: a name as written
with its columns (:class:`Name`), an order's words (:class:`OrderText`), and :class:`LineContext`,
which collects what is wrong with a line while it is built and never raises.

>>> c = LineContext()
>>> c.name("area", Name("Winterfeld", 1, 11)), c.warnings[0][0]
('winterfell', 'W101')
>>> c.name("area", Name("Narnia", 1, 7)), c.errors[0][1]
(None, 'E101')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from lark import Token

from ..game import commands as C
from ..game.commands import Command
from .diagnostics import MAX_LINE_CHARS, AmbiguousName, InvalidLine
from .names import describe_match_error, lookup, order_token, other_kind
from .printer import format_command, prints_short

__all__ = ["NAME_CODES", "NO_ONE", "Built", "LineContext", "Name", "OrderText", "at_token"]

# The error code of a name of each kind that is not known.
NAME_CODES = {"area": "E101", "house": "E102", "house_card": "E103", "westeros_card": "E104",
              "wildling_card": "E104", "card": "E104", "loan": "E104", "unit": "E106", "track": "E107",
              "objective": "E104"}


class Name(NamedTuple):
    """A name as written, with its columns (the end one past its last letter)."""

    text: str
    col: int
    end: int


class OrderText(NamedTuple):
    """An order as written: its kind, modifier and star, with its columns and text."""

    kind: str
    modifier: int | None
    special: bool
    col: int
    end: int
    text: str


class Built(NamedTuple):
    """One line, built: its command (``None`` when it has errors), errors and warnings."""

    command: Command | None
    errors: list[tuple[Any, ...]]  # (class, code, message, column, end column, suggestion, expected)
    warnings: list[tuple[str, str, int]]  # (code, message, column)


NO_ONE = "<none>"  # the text of "none", "nothing", "nobody" where a house or an area could stand


class LineContext:
    """Collects what is wrong while one line is built; the transformer itself never raises."""

    __slots__ = ("errors", "warnings")

    def __init__(self) -> None:
        self.errors: list[tuple[Any, ...]] = []
        self.warnings: list[tuple[str, str, int]] = []

    def error(self, code: str, message: str, at: Any, *, cls: type = InvalidLine, suggestion: str = "") -> None:
        self.errors.append((cls, code, message, at.col, at.end, suggestion, ()))

    def name(self, kind: str, nm: Name) -> Any:
        m = lookup(kind, nm.text)
        if m.id is not None:
            if m.fuzzy:
                self.warnings.append(("W101", f"{m.kind_word} {nm.text!r} read as {m.display!r}", nm.col))
            return m.id
        message, hint = describe_match_error(m)
        if other_kind(nm.text, kind):
            self.error("E209", message, nm)
        elif m.candidates:
            self.error("E110", message, nm, cls=AmbiguousName, suggestion=hint)
        else:
            self.error(NAME_CODES[kind], message, nm, suggestion=hint)
        return None

    def count(self, tok: Token | None, low: int, high: int, what: str, default: int = 1) -> int:
        """The number written, checked against its range before anything is built from it.

        Out of range, the line is refused and ``low`` is returned, so that no caller ever sizes
        a list by what a player wrote (``muster ... 99999999999 footmen`` once built that many).
        """
        if tok is None:
            return default
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > len(str(high)) or not low <= int(digits) <= high:
            shown = digits if len(digits) <= 12 else f"{digits[:6]}...({len(digits)} digits)"
            self.error("E205", f"{what} must be from {low} to {high}, not {shown}", at_token(tok))
            return low
        return int(digits)

    def order(self, o: OrderText) -> Any:
        token, reason = order_token(o.kind, o.modifier, o.special)
        if token is None and "could be" in reason:
            self.error("E111", reason, o, cls=AmbiguousName, suggestion="write the modifier, such as march +0")
        elif token is None:
            self.error("E108", f"{o.text!r} is not an order: {reason}", o)
        return token

    def done(self, command: Command) -> Built:
        if not self.errors and not prints_short(command) and len(printed := format_command(command)) > MAX_LINE_CHARS:
            # Names read generously ("kl", "ratheon") print in full: what a line accepts must print
            # to a line the parser accepts again (the receipt restates it, the engine logs it).
            self.error("E002", f"written out in full this line is {len(printed):,} characters long; the limit is "
                       f"{MAX_LINE_CHARS:,}", Name("", 1, 2), suggestion="split it into several lines")
        return Built(None if self.errors else command, self.errors, self.warnings)


def at_token(tok: Token) -> Name:
    return Name(str(tok), tok.column or 1, tok.end_column or (tok.column or 1) + 1)


# The most units of one type a house owns (10 footmen, R011): no line may name more in one count.
MAX_UNITS_NAMED = 10


def muster_actions(c: LineContext, actions: Sequence[tuple[Any, ...]]) -> tuple[C.MusterAction, ...]:
    """The units of a muster line (``knight``, ``2 footmen to Area``, ``upgrade footman to knight``)."""
    out: list[C.MusterAction] = []
    for a in actions:
        if a[0] == "upgrade":
            if a[1] is not None and c.name("unit", a[1]) not in ("footman", None):
                c.error("E209", "only a footman can be upgraded (R071)", a[1])
            unit = c.name("unit", a[2])
            if unit not in ("knight", "siege_engine", None):
                c.error("E209", "a footman is upgraded to a knight or a siege engine (R071)", a[2])
            out.append(C.MusterAction(unit=unit, upgrade=True))
        else:
            unit, to = c.name("unit", a[2]), (c.name("area", a[3]) if a[3] else None)
            count = c.count(a[1], 1, MAX_UNITS_NAMED, "a number of units")  # bounded before it sizes the list
            out.extend(C.MusterAction(unit=unit, to=to) for _ in range(count))
        if len(out) > MAX_UNITS_NAMED:
            c.error("E205", f"a muster names at most {MAX_UNITS_NAMED} units; an area gives 1 or 2 mustering "
                    "points (R068)", a[2])
            return ()
    return tuple(out)
