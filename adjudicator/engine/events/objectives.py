"""Events of A Feast for Crows' objectives (F033-F046).

A house's hand of objectives is hidden (F032): the cards it keeps and draws are told to it alone;
everybody reads how many it holds, what it scores and its points.

>>> e = ObjectiveScored(house="lannister", objective="hold_court", points=1, total=3)
>>> e.describe()
'Lannister scores Hold Court: 1 point, 3 in all.'
>>> from adjudicator.engine.events import from_dict
>>> from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ...game.objective_cards import OBJECTIVES
from . import Event, house_name, listing


def objective_name(objective: str) -> str:
    """An objective's printed name: ``'hold_court'`` -> ``'Hold Court'``."""
    card = OBJECTIVES.get(objective)
    return card.name if card is not None else objective.replace("_", " ")


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectivesDealt(Event):
    """The objectives dealt to a house or drawn by it: told to that house alone."""

    house: str
    objectives: tuple[str, ...]

    def describe(self) -> str:
        return f"You hold the objectives {listing([objective_name(o) for o in self.objectives])}."


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectivesKept(Event):
    """A house kept its three objectives and gave the others back (F033); public: how many only."""

    house: str
    returned: int

    def describe(self) -> str:
        return f"{house_name(self.house)} keeps three objectives and shuffles {self.returned} back into the deck."


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectiveDrawn(Event):
    """A house with fewer than three objectives drew one (F044); public: that it drew."""

    house: str

    def describe(self) -> str:
        return f"{house_name(self.house)} draws an objective."


@dataclass(frozen=True, slots=True, kw_only=True)
class ObjectiveScored(Event):
    """A house scored an objective from its hand, or its special objective (F041, F042)."""

    house: str
    objective: str  # an objective's id, or special_HOUSE
    points: int
    total: int

    def describe(self) -> str:
        name = "its special objective" if self.objective.startswith("special_") else objective_name(self.objective)
        return f"{house_name(self.house)} scores {name}: {_points(self.points)}, {self.total} in all."


@dataclass(frozen=True, slots=True, kw_only=True)
class VictoryPointsLost(Event):
    """A house lost victory points (Ironborn Raid, F025)."""

    house: str
    points: int
    total: int
    cause: str

    def describe(self) -> str:
        return f"{house_name(self.house)} loses {_points(self.points)} to {self.cause}: {self.total} in all."
