"""Events of a combat: who fought, every source of strength on each side, cards, losses, retreats.

Strength breakdowns are tuples of ``(source, amount)`` pairs so that a report can show a player
exactly why a combat went the way it did. The sources form a small vocabulary:

==========================  ==================================================================
``units:<type>``            the attacking or defending units of one type (routed ones count 0)
``march``                   the attacker's March Order modifier
``defense``                 the defender's Defense Order bonus
``support:<house>:<area>``  one Support Order's full strength (with its +1 if special)
``garrison``                the home area's Garrison
``card:<card>``             the printed strength of a House card
``ability:<card>``          what a card's text adds or takes away
``blade``                   the Valyrian Steel Blade's +1
``tides:<card>``            a Tides of Battle card's value
==========================  ==================================================================

>>> e = CombatResolved(area="kingswood", attacker="tyrell", defender="lannister", winner="lannister",
...     attacker_total=4, defender_total=4, tie_broken=True,
...     attacker_strength=(("units:footman", 1), ("units:knight", 2), ("card:alester_florent", 1)),
...     defender_strength=(("units:footman", 2), ("card:ser_jaime_lannister", 2)))
>>> e.describe()
'Combat in Kingswood: Tyrell 4 against Lannister 4; Lannister wins the tie on the Fiefdoms track.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from . import Event

Breakdown = tuple[tuple[str, int], ...]


def _name(area: str) -> str:
    from ..board import Board

    board = Board.classic()
    return board.area(area).name if area in board.areas else area


def _house(house: str) -> str:
    return house.title() if house else "the neutral force"


def _card(card: str) -> str:
    from ..cards import CARDS

    c = CARDS.house_cards.get(card)
    return c.name if c else card.replace("_", " ").title()


_PLURAL = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines"}


def _units(units: Iterable[str]) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    words = [f"{n} {_PLURAL[u] if n > 1 else u.replace('_', ' ')}" for u, n in sorted(counts.items())]
    return ", ".join(words) if words else "no units"


def source_text(source: str) -> str:
    """A strength source in words: ``'support:lannister:stoney_sept'`` -> ``'support of Lannister from Stoney Sept'``."""
    kind, _, rest = source.partition(":")
    if kind == "units":
        return _PLURAL.get(rest, rest)
    if kind == "support":
        house, _, area = rest.partition(":")
        return f"support of {house.title()} from {_name(area)}"
    if kind == "card":
        return _card(rest)
    if kind == "ability":
        return f"{_card(rest)}'s ability"
    if kind == "tides":
        return f"Tides of Battle ({rest.replace('_', ' ')})"
    return {"march": "March Order", "defense": "Defense Order", "garrison": "Garrison", "blade": "Valyrian Steel Blade"}.get(
        kind, source
    )


def breakdown_text(parts: Breakdown) -> str:
    """``((\"units:knight\", 4), (\"march\", 1))`` -> ``'knights 4, March Order +1'``."""
    out = []
    for source, amount in parts:
        bonus = source == "march" or source.startswith(("ability:", "defense", "blade"))
        signed = f"{amount:+d}" if bonus else str(amount)
        out.append(f"{source_text(source)} {signed}")
    return ", ".join(out) if out else "nothing"


# --- the course of a combat ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatStarted(Event):
    """A March moved units into an area held by another house or a neutral force (R169)."""

    area: str
    attacker: str
    defender: str  # "" for a neutral force
    origin: str
    units: tuple[str, ...]
    neutral_force: int = 0
    garrison_only: bool = False

    def describe(self) -> str:
        if self.neutral_force:
            target = f"the neutral force ({self.neutral_force}) in {_name(self.area)}"
        elif self.garrison_only:
            target = f"the Garrison of {_house(self.defender)} in {_name(self.area)}"
        else:
            target = f"{_house(self.defender)} in {_name(self.area)}"
        return f"{_house(self.attacker)} attacks {target} from {_name(self.origin)} with {_units(self.units)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportDeclared(Event):
    """One Support Order's declaration, in turn order (R173, R176); ``side`` "" is no one."""

    supporter: str
    area: str  # the supporting area
    combat_area: str
    side: str
    strength: int

    def describe(self) -> str:
        if not self.side:
            return (f"{_house(self.supporter)} gives no support from {_name(self.area)} "
                    f"to the combat in {_name(self.combat_area)}.")
        whom = "itself" if self.side == self.supporter else _house(self.side)
        return (f"{_house(self.supporter)} supports {whom} from {_name(self.area)} in {_name(self.combat_area)} "
                f"(strength {self.strength}).")


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportRefused(Event):
    """A combatant turned down the support offered to it (R180)."""

    house: str
    supporter: str
    area: str
    combat_area: str

    def describe(self) -> str:
        return f"{_house(self.house)} refuses the support of {_house(self.supporter)} from {_name(self.area)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatStrengths(Event):
    """Both sides' strength with every source (``stage`` "initial", R188/R190)."""

    area: str
    stage: str
    attacker: str
    defender: str
    attacker_strength: Breakdown
    defender_strength: Breakdown
    attacker_total: int
    defender_total: int

    def describe(self) -> str:
        return (f"{self.stage.title()} strength in {_name(self.area)}: {_house(self.attacker)} {self.attacker_total} "
                f"({breakdown_text(self.attacker_strength)}) against {_house(self.defender)} {self.defender_total} "
                f"({breakdown_text(self.defender_strength)}).")


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCardsRevealed(Event):
    """Both House cards, chosen in secret, revealed together (R191); "" is no card."""

    area: str
    attacker: str
    attacker_card: str
    defender: str
    defender_card: str

    def describe(self) -> str:
        def played(house: str, card: str) -> str:
            return f"{_house(house)} plays {_card(card)}" if card else f"{_house(house)} has no House card"

        return (f"In {_name(self.area)}: {played(self.attacker, self.attacker_card)}; "
                f"{played(self.defender, self.defender_card)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCardChosen(Event):
    """A House card chosen in the open after a card ability (Tyrion's cancel, Aeron's swap)."""

    house: str
    card: str  # "" for none left
    area: str
    cause: str

    def describe(self) -> str:
        if not self.card:
            return f"{_house(self.house)} has no other House card and fights without one ({self.cause})."
        return f"{_house(self.house)} now plays {_card(self.card)} ({self.cause})."


@dataclass(frozen=True, slots=True, kw_only=True)
class CardAbility(Event):
    """A House card's text took effect; ``effect`` says what it did in words."""

    house: str
    card: str
    area: str
    effect: str

    def describe(self) -> str:
        return f"{_card(self.card)} ({_house(self.house)}): {self.effect}."


@dataclass(frozen=True, slots=True, kw_only=True)
class TidesDrawn(Event):
    """A Tides of Battle card drawn and seen only by its house until the reveal (R268)."""

    house: str
    card: str
    redraw: bool = False

    def describe(self) -> str:
        again = " as the Blade's redraw" if self.redraw else ""
        return f"You draw the Tides of Battle card {self.card.replace('_', ' ')}{again}."


@dataclass(frozen=True, slots=True, kw_only=True)
class TidesRevealed(Event):
    """Both Tides of Battle cards revealed (R270)."""

    area: str
    attacker: str
    attacker_card: str
    defender: str
    defender_card: str

    def describe(self) -> str:
        return (f"Tides of Battle in {_name(self.area)}: {_house(self.attacker)} {self.attacker_card.replace('_', ' ')}, "
                f"{_house(self.defender)} {self.defender_card.replace('_', ' ')}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class BladeUsed(Event):
    """The Valyrian Steel Blade was used: ``effect`` "+1" (R199) or "redraw" (R269)."""

    house: str
    area: str
    effect: str

    def describe(self) -> str:
        what = "+1 combat strength" if self.effect == "+1" else "a new Tides of Battle card"
        return f"{_house(self.house)} uses the Valyrian Steel Blade in {_name(self.area)} for {what}."


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatResolved(Event):
    """The final strengths with every source, and the victor (R200-R202)."""

    area: str
    attacker: str
    defender: str
    winner: str
    attacker_total: int
    defender_total: int
    attacker_strength: Breakdown
    defender_strength: Breakdown
    tie_broken: bool = False
    attacker_card: str = ""
    defender_card: str = ""
    attacker_tides: str = ""
    defender_tides: str = ""

    def describe(self) -> str:
        tie = "wins the tie on the Fiefdoms track" if self.tie_broken else "wins"
        return (f"Combat in {_name(self.area)}: {_house(self.attacker)} {self.attacker_total} against "
                f"{_house(self.defender)} {self.defender_total}; {_house(self.winner)} {tie}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class CasualtiesDue(Event):
    """How many units the house hit must lose (at most what it has in the combat), and why (R203, R272)."""

    house: str
    area: str
    count: int
    swords: int = 0
    fortifications: int = 0
    skulls: int = 0
    prevented_by: str = ""  # a card that stops them (The Blackfish)

    def describe(self) -> str:
        if self.skulls:
            why = f"{self.skulls} skull"
        else:
            why = f"{self.swords} sword{'s' if self.swords != 1 else ''} against {self.fortifications} fortification" + (
                "s" if self.fortifications != 1 else "")
        if self.prevented_by:
            return f"{_house(self.house)} takes no casualties ({why}): {_card(self.prevented_by)}."
        if not self.count:
            return f"{_house(self.house)} loses no units in {_name(self.area)} ({why})."
        units = f"{self.count} unit{'s' if self.count != 1 else ''}"
        return f"{_house(self.house)} must lose {units} in {_name(self.area)} ({why})."


@dataclass(frozen=True, slots=True, kw_only=True)
class Retreated(Event):
    """A defeated army retreated and is routed (R207-R219)."""

    house: str
    from_area: str
    to_area: str
    units: tuple[str, ...]

    def describe(self) -> str:
        return (f"{_house(self.house)} retreats {_units(self.units)} from {_name(self.from_area)} "
                f"to {_name(self.to_area)}, routed.")


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackRepelled(Event):
    """A defeated attacker's survivors stay in the area they marched from, routed (R208)."""

    house: str
    area: str
    units: tuple[str, ...]
    routed: bool = True

    def describe(self) -> str:
        state = ", routed" if self.routed else ""
        return f"{_house(self.house)}'s attackers ({_units(self.units)}) stay in {_name(self.area)}{state}."


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackerAdvanced(Event):
    """The victorious attackers move into the embattled area (R221)."""

    house: str
    area: str
    units: tuple[str, ...]

    def describe(self) -> str:
        return f"{_house(self.house)} moves {_units(self.units)} into {_name(self.area)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class GarrisonDefeated(Event):
    """A defeated Garrison is removed for good (R228)."""

    house: str
    area: str

    def describe(self) -> str:
        return f"The Garrison of {_house(self.house)} in {_name(self.area)} is defeated and removed from the game."


@dataclass(frozen=True, slots=True, kw_only=True)
class NeutralForceAttacked(Event):
    """An attack on a neutral force: the attacker's strength against the token (R231-R233)."""

    area: str
    house: str
    strength: int
    attacker_total: int
    attacker_strength: Breakdown
    destroyed: bool

    def describe(self) -> str:
        result = "destroys it and takes the area" if self.destroyed else "falls short; the attack fails"
        return (f"{_house(self.house)} brings {self.attacker_total} ({breakdown_text(self.attacker_strength)}) against the "
                f"neutral force ({self.strength}) in {_name(self.area)} and {result}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatOrderRemoved(Event):
    """An order token removed by a combat: its march, the loser's order, or a card (R220, R221)."""

    house: str
    area: str
    token: str
    cause: str

    def describe(self) -> str:
        return f"{_house(self.house)}'s {self.token} order in {_name(self.area)} is removed ({self.cause})."


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatPowerTokenRemoved(Event):
    """The defeated defender's Power token in the embattled area goes back to the pool (R221)."""

    house: str
    area: str

    def describe(self) -> str:
        return f"{_house(self.house)}'s Power token in {_name(self.area)} returns to the Power Pool."


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCardsDiscarded(Event):
    """The played cards go face up to their discard piles (R195)."""

    area: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        return "Discarded: " + ", ".join(_card(c) for c in self.cards) + "."


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReturned(Event):
    """A house takes its discarded House cards back into its hand (R196, Roose Bolton)."""

    house: str
    cards: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return f"{_house(self.house)} takes back {len(self.cards)} House cards ({self.cause})."


@dataclass(frozen=True, slots=True, kw_only=True)
class PortCaptured(Event):
    """The conqueror of a port's land area replaces the enemy ships there (R246)."""

    port: str
    house: str
    old_house: str
    replaced: int
    removed: int

    def describe(self) -> str:
        return (f"{_house(self.house)} takes {_name(self.port)}: {self.removed} {_house(self.old_house)} ship(s) removed, "
                f"{self.replaced} {_house(self.house)} ship(s) placed.")


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackMoved(Event):
    """A house moved on an influence track outside bidding (R097, Doran Martell)."""

    house: str
    track: str
    order: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        track = self.track.replace("_", " ").title()
        return f"{_house(self.house)} drops to the bottom of the {track} track ({self.cause}): now " + ", ".join(
            h.title() for h in self.order) + "."
