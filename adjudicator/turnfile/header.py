"""The header line that binds a turn file to one game, house, round, step and sequence number.

One line, fields separated by ``·``, ``|`` or ``,`` (any of them, in this order)::

    game winter-of-2026 · house stark · round 3 · planning · seq 2

A last field ``add`` makes a follow-up file add to the house's earlier answers for the step
instead of replacing those not used yet (ruling 94, ruling 120)::

    game winter-of-2026 · house stark · round 3 · planning · seq 3 · add

Both the seal check (which must know who claims to have sent a file before a line is parsed) and
the turn-file parser read headers through this module, so there is one definition of the syntax.

>>> read_header("game demo · house Stark · round 1 · planning · seq 1")
Header(game='demo', house='stark', round=1, step='planning', seq=1, add=False)
>>> read_header("game demo | house stark | round 1 | planning | seq 2 | ADD").add
True
>>> format_header(Header("demo", "stark", 1, "planning", 1))
'game demo · house stark · round 1 · planning · seq 1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..util.lines import split_lines

STEPS: tuple[str, ...] = ("westeros", "planning", "action")

_SEP = r"\s*[·|,]\s*"
_HEADER = re.compile(
    r"^\s*game\s+(?P<game>[A-Za-z0-9][A-Za-z0-9_.-]*)"
    + _SEP
    + r"house\s+(?P<house>[A-Za-z]+)"
    + _SEP
    + r"round\s+(?P<round>\d{1,2})"
    + _SEP
    + r"(?:step\s+)?(?P<step>[A-Za-z]+)"
    + _SEP
    + r"(?:seq|sequence)\s+(?P<seq>\d{1,9})"
    + r"(?:" + _SEP + r"(?P<add>add))?\s*$",
    re.IGNORECASE,
)
_LOOKS_LIKE_HEADER = re.compile(r"^\s*game\s+\S", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Header:
    game: str
    house: str
    round: int
    step: str
    seq: int
    add: bool = False  # this file adds to the house's earlier answers for the step (ruling 120)

    @property
    def step_key(self) -> str:
        """``"3.planning"``: the step a submission is for."""
        return f"{self.round}.{self.step}"


class HeaderError(ValueError):
    """A line that starts like a header but is not a valid one."""


def is_header_line(line: str) -> bool:
    """True when a line starts with ``game`` and so is meant as a header."""
    return bool(_LOOKS_LIKE_HEADER.match(line))


def read_header(line: str) -> Header:
    """Read one header line.

    :raises HeaderError: naming what is wrong and showing the expected form.
    """
    m = _HEADER.match(line.replace("\u00a0", " "))
    if not m:
        raise HeaderError(
            f"not a valid header: {line.strip()!r}; expected "
            "'game GAME-ID · house HOUSE · round N · STEP · seq N'"
        )
    step = m["step"].lower()
    if step not in STEPS:
        raise HeaderError(f"unknown step {m['step']!r} in header; expected one of {', '.join(STEPS)}")
    return Header(m["game"], m["house"].lower(), int(m["round"]), step, int(m["seq"]), add=m["add"] is not None)


def find_header(text: str) -> Header | None:
    """The first header line in a text, skipping blank lines and ``#`` comments.

    :raises HeaderError: when the first meaningful line is a malformed header.
    """
    for raw in split_lines(text):
        line = raw.strip()
        if line.startswith(">"):
            line = line.lstrip("> ").strip()
        if not line or line.startswith("#"):
            continue
        if is_header_line(line):
            return read_header(line)
        return None
    return None


def format_header(h: Header) -> str:
    """The canonical header line.

    >>> format_header(Header("demo", "stark", 1, "planning", 2, add=True))
    'game demo · house stark · round 1 · planning · seq 2 · add'
    """
    return f"game {h.game} · house {h.house} · round {h.round} · {h.step} · seq {h.seq}" + (" · add" if h.add else "")
