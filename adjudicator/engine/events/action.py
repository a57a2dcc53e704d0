"""Events of the planning and action phases: orders, the raven, raids, marches, consolidate power,
clean-up.

Everything here is public except what the Messenger Raven holder sees on the wildling deck.

>>> e = OrdersRevealed(orders=(("winterfell", "stark", "march+1"), ("pyke", "greyjoy", "raid*")))
>>> e.describe()
'Orders revealed. Stark: March +1 in Winterfell. Greyjoy: special Raid in Pyke.'
>>> WildlingCardSeen(house="stark", card="crow_killers").visible_to
'stark'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...game.board import ALL_HOUSES
from . import (
    Event,
    card_name,
    house_name,
    listing,
    order_name,
    plural,
    private_to_house,
)
from . import area_name as _name
from . import units_text as _units


def orders_by_house(orders: Iterable[tuple[str, str, str]]) -> str:
    """``(area, house, token)`` triples as ``'Stark: March +1 in Winterfell, Raid in Karhold. Greyjoy: ...'``.

    Houses in the board's order, each house's orders as given: a player looks for his own line.
    """
    orders = list(orders)
    # Every house has its place (Mother of Dragons' Arryn and Targaryen after the base six), never a
    # tie: a set's order changes from run to run, and the reports must not.
    houses = sorted({h for _, h, _ in orders}, key=lambda h: (ALL_HOUSES.index(h) if h in ALL_HOUSES else len(ALL_HOUSES), h))
    return " ".join(
        f"{house_name(h)}: " + ", ".join(f"{order_name(t, noun=False)} in {_name(a)}" for a, who, t in orders if who == h) + "."
        for h in houses)


# --- planning -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersPlaced(Event):
    """R122: when houses assign in turn order, everyone sees where (not what) a house placed."""

    house: str
    areas: tuple[str, ...]
    unordered: tuple[str, ...] = ()

    def describe(self) -> str:
        text = f"{house_name(self.house)} places orders face down in {listing(_name(a) for a in self.areas) or 'no area'}"
        if self.unordered:
            text += f" and leaves {listing(_name(a) for a in self.unordered)} without an order"
        return text + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersWaiting(Event):
    """A house's orders so far: the lines that stand, and the areas still without one (ruling 121).

    Told to the house only, while its orders request stays open: nothing of a secret set leaks.
    """

    house: str
    standing: tuple[str, ...]  # the lines that stand, as written canonically
    open_areas: tuple[str, ...]  # areas with the house's units and no order yet
    reason: str  # why the set cannot be taken yet, with the rule

    def __post_init__(self) -> None:
        private_to_house(self)

    def describe(self) -> str:
        stand = f"your orders for {plural(len(self.standing), 'area')} stand" if self.standing else "no order of yours stands yet"
        return (f"Orders: {stand}; {self.reason}. They wait for the rest: a next file with 'add' at the end of its "
                "header adds to them (ruling 120), one without it replaces them (ruling 94).")


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRevealed(Event):
    """R123: every order on the board, revealed at once: (area, house, token) in board order."""

    orders: tuple[tuple[str, str, str], ...]

    def describe(self) -> str:
        return f"Orders revealed. {orders_by_house(self.orders)}" if self.orders else "No orders are revealed."


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderSwapped(Event):
    """R125(a): the Messenger Raven holder replaced one of its orders (done in the open)."""

    house: str
    area: str
    old: str
    new: str

    def describe(self) -> str:
        return (f"{house_name(self.house)} uses the Messenger Raven to replace its {order_name(self.old)} in "
                f"{_name(self.area)} with a {order_name(self.new)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class RavenLooked(Event):
    """R125(b): everyone sees the raven holder look at the top wildling card (not which card it is)."""

    house: str

    def describe(self) -> str:
        return f"{house_name(self.house)} uses the Messenger Raven to look at the top wildling card."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardSeen(Event):
    """R125(b): what the raven holder saw on top of the wildling deck; only that house sees it."""

    house: str
    card: str

    def __post_init__(self) -> None:
        private_to_house(self)

    def describe(self) -> str:
        return f"The top wildling card is {card_name(self.card)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardPlaced(Event):
    """R125(b): the raven holder looked at the top wildling card and left it on top or buried it."""

    house: str
    where: str  # "top" | "bottom"

    def describe(self) -> str:
        place = "leaves it on top of the deck" if self.where == "top" else "places it at the bottom of the deck"
        return f"{house_name(self.house)} has seen the top wildling card with the Messenger Raven and {place}."


@dataclass(frozen=True, slots=True, kw_only=True)
class RavenNotUsed(Event):
    house: str

    def describe(self) -> str:
        return f"{house_name(self.house)} does not use the Messenger Raven."


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
        mine = f"{house_name(self.house)}'s {order_name(self.token)} in {_name(self.origin)}"
        if not self.target:
            return f"{mine} is removed with no effect."
        return f"{mine} removes {house_name(self.target_house)}'s {order_name(self.target_token)} in {_name(self.target)}."


# --- marches --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsMoved(Event):
    """Units of one march entering one area without a combat."""

    house: str
    origin: str
    destination: str
    units: tuple[str, ...]

    def describe(self) -> str:
        return f"{house_name(self.house)} marches {_units(self.units)} from {_name(self.origin)} to {_name(self.destination)}."


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
        # The march's side only: the combat's first event (CombatStarted) names who defends.
        return (f"{house_name(self.house)}'s {order_name(self.token)} in {_name(self.origin)} sends "
                f"{_units(self.units)} to attack {_name(self.area)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class MarchResolved(Event):
    """R160: a march order resolved without a combat and was removed."""

    house: str
    origin: str
    token: str
    moved: bool

    def describe(self) -> str:
        how = "resolved" if self.moved else "removed without moving any unit"
        return f"{house_name(self.house)}'s {order_name(self.token)} in {_name(self.origin)} is {how}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerTokenPlaced(Event):
    """R241: a house establishes control of the land area its units vacated."""

    house: str
    area: str

    def describe(self) -> str:
        return f"{house_name(self.house)} leaves a power token in {_name(self.area)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerTokenDiscarded(Event):
    """R154, R244: units entered an area holding only another house's power token."""

    house: str  # the token's owner
    area: str
    by: str

    def describe(self) -> str:
        return (f"{house_name(self.by)} enters {_name(self.area)}; {house_name(self.house)}'s power token there "
                "returns to the Power Pool.")


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
        # The power itself is told once, by the PowerChanged event emitted just before this one.
        order = f"{house_name(self.house)}'s {order_name(self.token)} in {_name(self.area)}"
        if self.result == "power":
            return f"{order} is resolved."
        if self.result == "muster":
            return f"{order} is resolved by mustering instead of taking power."
        return f"{order} is removed with {self.result}."


# --- clean-up -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRemoved(Event):
    """R167: the orders still on the board at clean-up, (area, house, token)."""

    orders: tuple[tuple[str, str, str], ...]

    def describe(self) -> str:
        return f"Clean-up removes the remaining orders. {orders_by_house(self.orders)}"


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsRallied(Event):
    """R167: routed units stand up again, (area, house, count)."""

    units: tuple[tuple[str, str, int], ...]

    def describe(self) -> str:
        listed = "; ".join(f"{plural(n, house_name(h) + ' unit')} in {_name(a)}" for a, h, n in self.units)
        return f"Routed units stand up again: {listed}."


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded(Event):
    round: int
    last: bool = False

    def describe(self) -> str:
        return f"Round {self.round} ends{'; it was the last round' if self.last else ''}."
