"""Events of House Targaryen (Mother of Dragons, M075-M102): loyalty tokens, Pentos, dragons, bids.

Every event here is public: loyalty tokens, the victory track, dragon strength and power given away
are all on the table.

>>> e = LoyaltyGained(area="kings_landing", count=1, victory=2)
>>> e.describe()
"Targaryen gains 1 loyalty token in King's Landing; it now stands at 2 on the victory track."
>>> from adjudicator.engine.events import from_dict
>>> from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass

from . import Event, aside, house_name, listing, plural
from . import area_name as _area


@dataclass(frozen=True, slots=True, kw_only=True)
class LoyaltyPlaced(Event):
    """A loyalty token is put on a land area (M083), or none was left to put (ruling 269)."""

    area: str
    cause: str
    placed: bool = True

    def describe(self) -> str:
        if not self.placed:
            return f"No loyalty token is left to put on {_area(self.area)}{aside(self.cause)} (ruling 269)."
        return f"A loyalty token is put on {_area(self.area)}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class LoyaltyMoved(Event):
    """A player moves a loyalty token to an adjacent land area (Scattering Dissent, Word Spreads Quickly)."""

    house: str
    origin: str
    destination: str
    cancelled: bool = False

    def describe(self) -> str:
        moved = (f"{house_name(self.house)} moves a loyalty token from {_area(self.origin)} to "
                 f"{_area(self.destination)}")
        return moved + (", but Targaryen pays to put it back." if self.cancelled else ".")


@dataclass(frozen=True, slots=True, kw_only=True)
class LoyaltyGained(Event):
    """Targaryen takes the loyalty tokens of an area it controls and moves up the victory track (M078)."""

    area: str
    count: int
    victory: int

    def describe(self) -> str:
        return (f"Targaryen gains {plural(self.count, 'loyalty token')} in {_area(self.area)}; it now stands at "
                f"{self.victory} on the victory track.")


@dataclass(frozen=True, slots=True, kw_only=True)
class PentosGarrisonReturned(Event):
    """Targaryen controls Pentos again: its garrison goes back (M086, ruling 248)."""

    strength: int

    def describe(self) -> str:
        return f"Targaryen controls Pentos again: its garrison ({self.strength}) goes back on Pentos."


@dataclass(frozen=True, slots=True, kw_only=True)
class DragonStrengthGained(Event):
    """A dragon strength token goes into the box: every dragon is 1 stronger (M090, ruling 217)."""

    round: int
    strength: int
    cause: str = ""

    def describe(self) -> str:
        return (f"The dragon strength token of round {self.round} goes into the box{aside(self.cause)}: "
                f"each dragon now has strength {self.strength}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class DragonReturned(Event):
    """A destroyed dragon is put back in Targaryen's home area (Fire Made Flesh, ruling 218)."""

    area: str

    def describe(self) -> str:
        return f"Targaryen puts a destroyed dragon back in {_area(self.area)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class BidGiven(Event):
    """Targaryen gives away the power it bid on a track, adding to the receivers' bids (M100, ruling 252)."""

    track: str
    gifts: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        if not self.gifts:
            return "Targaryen bid nothing and gives nothing."
        given = listing([f"{n} to {house_name(h)}" for h, n in self.gifts])
        return f"Targaryen gives the power it bid away: {given}; each adds to its receiver's bid."
