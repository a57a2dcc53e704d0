"""The lines of A Feast for Crows' objectives (F033, F042): ``keep objectives: Hold Court, The
Throne, Land Grab`` and ``score objective: Hold Court`` (or ``score objective: none``). The parser's
line builder inherits :class:`ObjectiveLines`; an objective is named by its printed name, in a game
of a box with objectives.
"""

from __future__ import annotations

from typing import Any

from ..game import commands as C
from ..game.boxes import box_named
from .linebuild import LineContext, Name
from .names import box_of, current_vocabulary, normalise

NO_OBJECTIVE = frozenset({"none", "no", "nothing", "no objective", "pass"})


def _objective(c: LineContext, name: Name) -> Any:
    """An objective named by its printed name; in a game of a box without objectives, refused so."""
    box = box_named(box_of(current_vocabulary()))
    if not box.has("objectives"):
        if not c.errors:  # once a line
            c.error("E104", f"{box.title[0].upper()}{box.title[1:]} has no objective cards: they are A Feast for "
                    "Crows' (F033)", name)
        return None
    return c.name("objective", name)  # None when refused: the line builds nothing then


class ObjectiveLines:
    """The transformer callbacks of the objectives' lines."""

    def keep_objectives_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.KeepObjectives(objectives=tuple(_objective(c, n) for n in ch if isinstance(n, Name))))

    def score_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        name = next(n for n in ch if isinstance(n, Name))
        if normalise(name.text) in NO_OBJECTIVE:
            return c.done(C.ScoreObjective(objective=None))
        return c.done(C.ScoreObjective(objective=_objective(c, name)))

    def return_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.ReturnObjective(objective=_objective(c, next(n for n in ch if isinstance(n, Name)))))

    def take_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.TakeObjective(objective=_objective(c, next(n for n in ch if isinstance(n, Name)))))
