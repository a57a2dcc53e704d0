"""Events of the planning and action phases: orders, the raven, raids, marches, consolidate power,
clean-up.

Everything here is public except what the Messenger Raven holder sees on the wildling deck.

>>> e = OrdersRevealed(orders=(("winterfell", "stark", "march+1"),))
>>> e.describe()
'Orders revealed: Winterfell: Stark march+1.'
>>> WildlingCardSeen(house="stark", card="crow_killers").visible_to
'stark'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..board import Board
from . import Event, _private_to_house


def _name(area: str) -> str:
    """An area's printed name, for sentences."""
    areas = Board.classic().areas
    return areas[area].name if area in areas else area


def _units(units: Iterable[str]) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    return ", ".join(f"{n} {u.replace('_', ' ')}{'s' if n > 1 else ''}" for u, n in sorted(counts.items()))


# --- planning -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersPlaced(Event):
    """R122: when houses assign in turn order, everyone sees where (not what) a house placed."""

    house: str
    areas: tuple[str, ...]
    unordered: tuple[str, ...] = ()

    def describe(self) -> str:
        text = f"{self.house.title()} places orders face down in {', '.join(_name(a) for a in self.areas) or 'no area'}"
        if self.unordered:
            text += f" and leaves {', '.join(_name(a) for a in self.unordered)} without an order"
        return text + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRevealed(Event):
    """R123: every order on the board, revealed at once: (area, house, token) in board order."""

    orders: tuple[tuple[str, str, str], ...]

    def describe(self) -> str:
        listed = "; ".join(f"{_name(a)}: {h.title()} {t}" for a, h, t in self.orders)
        return f"Orders revealed: {listed or 'none'}."


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderSwapped(Event):
    """R125(a): the Messenger Raven holder replaced one of its orders (done in the open)."""

    house: str
    area: str
    old: str
    new: str

    def describe(self) -> str:
        return f"{self.house.title()} uses the Messenger Raven to replace its {self.old} order in {_name(self.area)} with {self.new}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardSeen(Event):
    """R125(b): what the raven holder saw on top of the wildling deck; only that house sees it."""

    house: str
    card: str

    def __post_init__(self) -> None:
        _private_to_house(self)

    def describe(self) -> str:
        return f"The top wildling card is {self.card.replace('_', ' ').title()}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardPlaced(Event):
    """R125(b): the raven holder looked at the top wildling card and left it on top or buried it."""

    house: str
    where: str  # "top" | "bottom"

    def describe(self) -> str:
        place = "returns it to the top" if self.where == "top" else "places it at the bottom of the deck"
        return f"{self.house.title()} uses the Messenger Raven to look at the top wildling card and {place}."


@dataclass(frozen=True, slots=True, kw_only=True)
class RavenNotUsed(Event):
    house: str

    def describe(self) -> str:
        return f"{self.house.title()} does not use the Messenger Raven."


# --- raids ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class RaidResolved(Event):
    """R130: a raid removed an order; ``target`` is empty when it had no effect (R134, R135)."""

    house: str
    origin: str
    token: str
    target: str = ""
    target_house: str = ""
    target_token: str = ""

    def describe(self) -> str:
        if not self.target:
            return f"{self.house.title()}'s {self.token} order in {_name(self.origin)} is removed with no effect."
        return (f"{self.house.title()} raids from {_name(self.origin)} and removes {self.target_house.title()}'s "
                f"{self.target_token} order in {_name(self.target)}.")


# --- marches --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsMoved(Event):
    """Units of one march entering one area without a combat."""

    house: str
    origin: str
    destination: str
    units: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.house.title()} marches {_units(self.units)} from {_name(self.origin)} to {_name(self.destination)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackDeclared(Event):
    """R147: the march's one attack, handed to the combat."""

    house: str
    origin: str
    area: str
    units: tuple[str, ...]
    token: str
    defender: str  # a house, or "neutral force"

    def describe(self) -> str:
        foe = self.defender if self.defender == "neutral force" else self.defender.title()
        return (f"{self.house.title()} attacks {foe} in {_name(self.area)} with {_units(self.units)} "
                f"from {_name(self.origin)} ({self.token}).")


@dataclass(frozen=True, slots=True, kw_only=True)
class MarchResolved(Event):
    """R160: a march order resolved without a combat and was removed."""

    house: str
    origin: str
    token: str
    moved: bool

    def describe(self) -> str:
        how = "resolved" if self.moved else "resolved without moving any unit"
        return f"{self.house.title()}'s {self.token} order in {_name(self.origin)} is {how}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerTokenPlaced(Event):
    """R241: a house establishes control of the land area its units vacated."""

    house: str
    area: str

    def describe(self) -> str:
        return f"{self.house.title()} leaves a power token in {_name(self.area)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerTokenDiscarded(Event):
    """R154, R244: units entered an area holding only another house's power token."""

    house: str  # the token's owner
    area: str
    by: str

    def describe(self) -> str:
        return f"{self.by.title()} enters {_name(self.area)}; {self.house.title()}'s power token there returns to the pool."


# --- consolidate power ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsolidateResolved(Event):
    """R161-R165: a consolidate power order resolved; ``result`` says how."""

    house: str
    area: str
    token: str
    result: str  # "power" | "muster" | "no effect: <why>"
    gained: int = 0

    def describe(self) -> str:
        where = _name(self.area)
        if self.result == "power":
            return f"{self.house.title()} consolidates power in {where}: +{self.gained}."
        if self.result == "muster":
            return f"{self.house.title()} uses its special consolidate power order in {where} to muster."
        return f"{self.house.title()}'s {self.token} order in {where} is removed with {self.result}."


# --- clean-up -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRemoved(Event):
    """R167: the orders still on the board at clean-up, (area, house, token)."""

    orders: tuple[tuple[str, str, str], ...]

    def describe(self) -> str:
        listed = "; ".join(f"{_name(a)}: {h.title()} {t}" for a, h, t in self.orders)
        return f"Clean-up removes the remaining orders: {listed}."


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsRallied(Event):
    """R167: routed units stand up again, (area, house, count)."""

    units: tuple[tuple[str, str, int], ...]

    def describe(self) -> str:
        listed = "; ".join(f"{h.title()} {n} in {_name(a)}" for a, h, n in self.units)
        return f"Routed units stand up: {listed}."


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded(Event):
    round: int
    last: bool = False

    def describe(self) -> str:
        return f"Round {self.round} ends{'; it was the last round' if self.last else ''}."
