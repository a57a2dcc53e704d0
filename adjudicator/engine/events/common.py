"""Events of the rules every phase shares (engine/core/common.py): units lost, power, control, the winner."""

from __future__ import annotations

from dataclasses import dataclass

from . import Event, area_name, aside, house_name, units_text


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsDestroyed(Event):
    house: str
    area: str
    units: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return f"{house_name(self.house)} loses {units_text(self.units)} in {area_name(self.area)}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class PowerChanged(Event):
    house: str
    amount: int
    cause: str
    power: int  # available power afterwards
    asked: int = 0  # what the rule called for: +n to gain, -n to discard

    def describe(self) -> str:
        who, why = house_name(self.house), aside(self.cause)
        if self.amount == 0 and self.asked < 0:
            return f"{who} has no power to discard{why}."
        if self.amount == 0 and self.asked > 0:
            return f"{who} has all 20 power tokens out and gains none{why}."
        verb = "gains" if self.amount >= 0 else "loses"
        return f"{who} {verb} {abs(self.amount)} power{why}; now {self.power}."


@dataclass(frozen=True, slots=True, kw_only=True)
class ControlChanged(Event):
    area: str
    old: str
    new: str

    def describe(self) -> str:
        old = house_name(self.old) if self.old else "no one"
        new = house_name(self.new) if self.new else "no one"
        return f"{area_name(self.area)} passes from {old} to {new}."


@dataclass(frozen=True, slots=True, kw_only=True)
class GameWon(Event):
    winner: str
    round: int
    reason: str

    def describe(self) -> str:
        return f"House {house_name(self.winner)} wins the game in round {self.round}: {self.reason}."
