"""Events of Mother of Dragons' Iron Bank and of the base rules it changes (M103-M121).

All public (ruling 255: a purchase and the loan bought are public) except what Spymaster shows its
buyer (ruling 225).

>>> LoanTaken(house="stark", area="bay_of_ice", loan="customs_officer", slot=3, cost=7).describe()
'Stark resolves its Iron Bank order in Bay of Ice and takes the loan Customs Officer from slot 3 for 7 power.'
>>> SpymasterLooked(house="stark", deck=2, cards=("feast_for_crows",)).visible_to
'stark'
"""

from __future__ import annotations

from dataclasses import dataclass

from . import Event, aside, card_name, house_name, listing, order_name, plural
from . import area_name as _name


@dataclass(frozen=True, slots=True, kw_only=True)
class SeaOrdersRemoved(Event):
    """M116: sea orders lying on land areas leave the board without effect."""

    orders: tuple[tuple[str, str, str], ...]  # (area, house, token)

    def describe(self) -> str:
        parts = [f"{house_name(h)}'s {order_name(t)} in {_name(a)}" for a, h, t in self.orders]
        return f"Sea orders on land are removed without effect (M116): {listing(parts)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class LoanTaken(Event):
    house: str
    area: str
    loan: str
    slot: int  # 1-3, left to right
    cost: int

    def describe(self) -> str:
        return (f"{house_name(self.house)} resolves its Iron Bank order in {_name(self.area)} and takes the loan "
                f"{card_name(self.loan)} from slot {self.slot} for {self.cost} power.")


@dataclass(frozen=True, slots=True, kw_only=True)
class NoLoanTaken(Event):
    house: str
    area: str
    reason: str = ""

    def describe(self) -> str:
        return f"{house_name(self.house)} resolves its Iron Bank order in {_name(self.area)} and takes no loan{aside(self.reason)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class LoansShifted(Event):
    """M107, M108: the slots after the shift; the loan that went under the deck, if any."""

    slots: tuple[str, ...]  # "" for an empty slot
    returned: str = ""

    def describe(self) -> str:
        shown = ", ".join(card_name(s) if s else "empty" for s in self.slots)
        back = f" {card_name(self.returned)} goes back under the loan deck." if self.returned else ""
        return f"The Iron Bank's loans move one slot left.{back} The slots now hold: {shown}."


@dataclass(frozen=True, slots=True, kw_only=True)
class InterestDue(Event):
    """M109: what a house owed and paid; ``short`` is what it could not pay (M110)."""

    house: str
    owed: int
    paid: int

    def describe(self) -> str:
        short = self.owed - self.paid
        tail = f"; it is {short} short" if short else ""
        return f"{house_name(self.house)} pays {self.paid} of its {self.owed} power of interest to the Iron Bank{tail}."


@dataclass(frozen=True, slots=True, kw_only=True)
class ImprovementPlaced(Event):
    area: str
    token: str  # validation.IMPROVEMENT_TOKENS
    cause: str = ""

    def describe(self) -> str:
        words = {"+supply": "a supply improvement", "+power": "a power improvement",
                 "+stronghold": "an improvement of its castle into a stronghold", "-castle": "a castle degradation",
                 "-supply": "a supply degradation", "-power": "a power degradation"}
        return f"{_name(self.area)} receives {words.get(self.token, self.token)}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsPlaced(Event):
    house: str
    area: str
    units: tuple[str, ...]
    cause: str = ""

    def describe(self) -> str:
        from . import units_text

        return f"{house_name(self.house)} places {units_text(self.units)} in {_name(self.area)}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsNotPlaced(Event):
    """Ruling 219: a loan's units that fit nowhere now (unit limits, supply, areas) are not placed."""

    house: str
    units: tuple[str, ...]
    cause: str = ""

    def describe(self) -> str:
        from . import units_text

        them = "it" if len(self.units) == 1 else "them"
        return (f"{house_name(self.house)} cannot place {units_text(self.units)}{aside(self.cause)}: no area can "
                f"take {them} now (unit limits, supply or areas, ruling 219).")


@dataclass(frozen=True, slots=True, kw_only=True)
class BraavosTokenTaken(Event):
    """M111, M113: who keeps the Braavos token now ("" when it is set aside, ruling 257)."""

    house: str

    def describe(self) -> str:
        if not self.house:
            return "The Braavos token is set aside until a player controls Braavos (ruling 257)."
        return f"{house_name(self.house)} takes the Braavos token: its loans cost 1 power less (M112)."


@dataclass(frozen=True, slots=True, kw_only=True)
class SpymasterLooked(Event):
    """The buyer's secret look at the top of a Westeros deck (ruling 225)."""

    house: str
    deck: int
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.visible_to == "public":
            object.__setattr__(self, "visible_to", self.house)

    def describe(self) -> str:
        shown = listing(card_name(c) for c in self.cards) or "nothing"
        return f"Spymaster: the top of Westeros deck {self.deck} holds {shown}, top first."


@dataclass(frozen=True, slots=True, kw_only=True)
class SpymasterDone(Event):
    house: str
    deck: int
    bottom: int

    def describe(self) -> str:
        return (f"{house_name(self.house)} puts {plural(self.bottom, 'card')} of Westeros deck {self.deck} "
                f"at the bottom and the rest back on top (Spymaster).")


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerGiven(Event):
    """M121 (ruling 261): a gift of available power, public."""

    house: str
    to: str
    power: int
    asked: int

    def describe(self) -> str:
        short = f" (it asked to give {self.asked}; {house_name(self.to)} could take no more)" if self.power < self.asked else ""
        return f"{house_name(self.house)} gives {self.power} power to {house_name(self.to)}{short}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeaving(Event):
    """M124 (ruling 276): the moderator named a player who leaves at the end of this round (``maester leave``)."""

    house: str
    round: int

    def describe(self) -> str:
        h = house_name(self.house)
        return (f"{h}'s player leaves the game at the end of round {self.round}: from round {self.round + 1} on, {h} "
                f"and all its units are a vassal (M124). Until then {h} plays as before.")


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeft(Event):
    """M124 (ruling 262): a player left between rounds; its house is a vassal now. With ``refused``,
    the leave named earlier did not happen, and why (a position changed by hand since)."""

    house: str
    power_returned: int
    refused: str = ""

    def describe(self) -> str:
        if self.refused:
            return f"{house_name(self.house)}'s player does not leave after all: {self.refused}."
        return (f"{house_name(self.house)}'s player leaves the game: {house_name(self.house)} and all its units are a "
                f"vassal from now on, and its {self.power_returned} available power goes back to the pool.")
