"""Lines of a turn file that a later line hides: the newest fitting answer is used (ruling 155).

``maester check`` warns of them (W205, W208): a general line after a particular one makes the
particular one useless. Each line is compared only with the few later lines that could hide it,
found under a key (:func:`_hider_keys`), so a file of any length costs time linear in its lines
(issue 13: a comparison of every line with every later one made 20,000 lines take minutes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import commands as C
from ..game.commands import Command
from .diagnostics import Notice
from .parser import TurnFile

__all__ = ["shadowed"]


# Decisions asked once in a step: of two lines for one, the earlier is never used. (Mustering,
# supply and wildling bids may come twice in a Westeros phase, so they are not here.)
_ONCE: dict[type, Callable[[Any], tuple[Any, ...]]] = {
    C.Raven: lambda c: (), C.RavenKeep: lambda c: (), C.WesterosChoice: lambda c: (c.card,),
    C.Bid: lambda c: (c.track,) if c.track != "wildlings" else (id(c),), C.DistributeBid: lambda c: (c.track,),
    C.Raid: lambda c: (c.origin,), C.March: lambda c: (c.origin,), C.PortShips: lambda c: (c.port,),
}  # fmt: skip
# One-shot combat answers: the latest fitting line is used in the first fitting combat.
_PER_COMBAT: dict[type, Callable[[Any], tuple[Any, ...]]] = {
    C.PlayCard: lambda c: (), C.UseBlade: lambda c: (), C.Casualties: lambda c: (), C.Retreat: lambda c: (),
    C.CardChoice: lambda c: (c.card,),
}  # fmt: skip


def _covers(later: Any, earlier: Any, names: tuple[str, ...]) -> bool:
    """Whether every case the earlier condition fits is one the later condition fits too."""
    if later is None:
        return True
    if earlier is None:
        return False
    return all(getattr(later, f) in (None, getattr(earlier, f)) for f in names)


def _hides(late: Command, early: Command) -> bool:
    """Whether the later line is always chosen over the earlier one where the earlier one fits."""
    if type(late) is not type(early):
        return False
    if isinstance(late, C.TieBreak) and isinstance(early, C.TieBreak):
        return late.context in (None, early.context)
    if isinstance(late, C.Support) and isinstance(early, C.Support):
        # A house named fits only its combats, and a side that would support the supporter's own
        # opponent is refused there, so the earlier line is used: only these pairs really hide.
        sides = ("attacker", "defender")
        return _covers(late, early, ("origin", "combat_area")) and (
            late.side in (None, "none", early.side) or (late.side in sides and early.side in sides))
    for table in (_ONCE, _PER_COMBAT):
        key = table.get(type(late))
        if key is not None:
            return key(late) == key(early) and (table is _ONCE or _covers(getattr(late, "when", None),
                                                                          getattr(early, "when", None), _WHEN))
    return False


_WHEN = ("role", "area", "opponent")


def _scope(cmd: Command) -> tuple[Any, ...]:
    if isinstance(cmd, C.Support):
        return cmd.origin, cmd.combat_area
    return (cmd.context,) if isinstance(cmd, C.TieBreak) else ()


def _when_key(cmd: Command) -> tuple[Any, ...] | None:
    when = getattr(cmd, "when", None)
    return None if when is None else tuple(getattr(when, f) for f in _WHEN)


def _index_key(late: Command) -> tuple[Any, ...] | None:
    """The key a line is found under as a possible hider of earlier lines (``None``: it hides none)."""
    kind = type(late)
    if isinstance(late, C.TieBreak):
        return kind, late.context
    if isinstance(late, C.Support):
        return kind, late.origin, late.combat_area, late.side
    if kind in _ONCE:
        return kind, _ONCE[kind](late)
    if kind in _PER_COMBAT:
        return kind, _PER_COMBAT[kind](late), _when_key(late)
    return None


def _hider_keys(early: Command) -> set[tuple[Any, ...]]:
    """Every key under which a later line that hides ``early`` (see :func:`_hides`) is indexed."""
    kind = type(early)
    if isinstance(early, C.TieBreak):
        return {(kind, None), (kind, early.context)}
    if isinstance(early, C.Support):
        sides = {None, "none", early.side} | ({"attacker", "defender"} if early.side in ("attacker", "defender") else set())
        return {(kind, o, a, s) for o in {None, early.origin} for a in {None, early.combat_area} for s in sides}
    if kind in _ONCE:
        return {(kind, _ONCE[kind](early))}
    if kind in _PER_COMBAT:
        key, when = _PER_COMBAT[kind](early), _when_key(early)
        fits = {None} if when is None else {None} | {(r, a, o) for r in {None, when[0]} for a in {None, when[1]}
                                                    for o in {None, when[2]}}  # fmt: skip
        return {(kind, key, w) for w in fits}
    return set()


def _replaced_standing(tf: TurnFile, cmds: list[Command]) -> list[Notice]:
    """Standing lines a later standing line of the file replaces: the same decision (ruling 354)."""
    out: list[Notice] = []
    later: dict[tuple[Any, ...], int] = {}
    for cmd in reversed(cmds):
        if not isinstance(cmd, C.Standing) or cmd.where is None:
            continue
        inner, vassal = cmd.command, ""
        if isinstance(inner, C.ForVassal):
            vassal, inner = inner.vassal, inner.command
        key = (vassal, C.standing_slot(inner))
        if key in later:
            out.append(Notice("W205", f"replaced by line {later[key]}, a later standing line for the same decision "
                              "(ruling 354)", cmd.where, tf.texts.get(cmd.where.line, "")))
        else:
            later[key] = cmd.where.line
    return out[::-1]


def shadowed(tf: TurnFile, refused: set[int] = frozenset()) -> list[Notice]:  # type: ignore[assignment]
    """Lines that a later line of the file overrides: the newest fitting answer is used (ruling 155).

    A later line that is ``refused`` hides nothing: the engine refuses it too and takes the earlier one.
    """
    out = []
    cmds = [c for c in tf.commands if c.where is not None and c.where.line not in refused]
    # Linear in lines (issue 13: a scan of every later line made 20,000 lines take minutes): from the
    # last line back, each line's hiders are looked up under the few keys they can have (_hider_keys).
    nearest: dict[tuple[Any, ...], int] = {}
    hidden_by: list[tuple[Command, Command]] = []
    for i in range(len(cmds) - 1, -1, -1):
        early = cmds[i]
        hits = [nearest[k] for k in _hider_keys(early) if k in nearest]
        if hits and _hides(cmds[min(hits)], early):
            hidden_by.append((early, cmds[min(hits)]))
        if (key := _index_key(early)) is not None:
            nearest[key] = i
    out += _replaced_standing(tf, cmds)
    for early, late in reversed(hidden_by):
        if early.where is None or late.where is None:
            continue
        n = late.where.line
        if type(early) in _PER_COMBAT:
            code, why = "W208", (f"line {n} fits every combat this line fits and is used first; this line waits for "
                                 "a later such combat: put the general line before the particular one")
        elif _scope(late) != _scope(early):
            code, why = "W205", f"line {n} fits every case this line fits and counts instead; put the general line first"
        else:
            code, why = "W205", f"replaced by line {n}, which answers the same decision"
        out.append(Notice(code, f"{why} (ruling 155)", early.where, tf.texts.get(early.where.line, "")))
    return out
