"""The lines of A Feast for Crows' objectives (F033, F042): ``keep objectives: Hold Court, The
Throne, Land Grab`` and ``score objective: Hold Court`` (or ``score objective: none``). The parser's
line builder inherits :class:`ObjectiveLines`; an objective is named by its printed name, in a game
of a box with objectives.
"""

from __future__ import annotations

from typing import Any

from ..game import commands as C
from .linebuild import LineContext, Name
from .names import normalise

NO_OBJECTIVE = frozenset({"none", "no", "nothing", "no objective", "pass"})


class ObjectiveLines:
    """The transformer callbacks of the objectives' lines."""

    def keep_objectives_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.KeepObjectives(objectives=tuple(c.name("objective", n) for n in ch if isinstance(n, Name))))

    def score_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        name = next(n for n in ch if isinstance(n, Name))
        if normalise(name.text) in NO_OBJECTIVE:
            return c.done(C.ScoreObjective(objective=None))
        return c.done(C.ScoreObjective(objective=c.name("objective", name)))

    def return_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.ReturnObjective(objective=c.name("objective", next(n for n in ch if isinstance(n, Name)))))

    def take_objective_line(self, ch: list[Any]) -> Any:
        c = LineContext()
        return c.done(C.TakeObjective(objective=c.name("objective", next(n for n in ch if isinstance(n, Name)))))
