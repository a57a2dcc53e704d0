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
'Final strength in Kingswood: Tyrell 4 against Lannister 4; Lannister wins the tie on the Fiefdoms track.'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import (
    UNIT_WORDS,
    Event,
    aside,
    flat,
    house_name,
    listing,
    order_name,
    plural,
    tides_name,
    track_move,
)
from . import area_name as _name
from . import card_name as _card
from . import units_text as _units

Breakdown = tuple[tuple[str, int], ...]


def _house(house: str) -> str:
    return house_name(house)


def _their(house: str) -> str:
    """``"Stark's"``, or ``"the neutral force's"``."""
    return f"{house_name(house)}'s"


_NO_EFFECT = re.compile(r"^no effect(?: \((.*)\)|: (.*))$")


def _verb(units: Iterable[str], one: str, many: str) -> str:
    """The verb that agrees with a list of units: one unit ``stays``, two ``stay``."""
    return one if len(tuple(units)) == 1 else many


def source_text(source: str) -> str:
    """A strength source in words: ``'support:lannister:stoney_sept'`` -> ``'support of Lannister from Stoney Sept'``."""
    kind, _, rest = source.partition(":")
    if kind == "units":
        return UNIT_WORDS[rest][1] if rest in UNIT_WORDS else rest.replace("_", " ")
    if kind == "support":
        house, _, area = rest.partition(":")
        return f"support of {house.title()} from {_name(area)}"
    if kind == "card":
        return _card(rest)
    if kind == "ability":
        return f"{_card(rest)}'s ability"
    if kind == "final":
        return f"{_card(rest)}: the final strength is set"
    if kind == "tides":
        return f"Tides of Battle: {tides_name(rest).removeprefix('a ')}"
    return {"march": "March order", "defense": "Defense order", "garrison": "Garrison", "blade": "Valyrian Steel Blade"}.get(
        kind, source
    )


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
        # Who attacks from where with what is the AttackDeclared event's, just before: this one says who defends.
        where = _name(self.area)
        if self.neutral_force:
            return f"Combat in {where}: {_house(self.attacker)} against the neutral force of strength {self.neutral_force}."
        if self.garrison_only:
            return f"Combat in {where}: {_house(self.attacker)} against {_their(self.defender)} Garrison alone."
        return f"Combat in {where}: {_house(self.attacker)} against {_house(self.defender)}."


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
        return (f"{_house(self.supporter)} supports {whom} in {_name(self.combat_area)} from {_name(self.area)}, "
                f"with strength {self.strength}.")


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
        # Every source of strength is in the report's table under this line (the breakdown fields).
        return (f"{self.stage.capitalize()} strength in {_name(self.area)}: {_house(self.attacker)} {self.attacker_total} "
                f"against {_house(self.defender)} {self.defender_total}.")


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
            return f"{_house(self.house)} has no other House card and fights without one{aside(self.cause)}."
        return f"{_house(self.house)} now plays {_card(self.card)}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class CardAbility(Event):
    """A House card's text took effect; ``effect`` says what it did in words."""

    house: str
    card: str
    area: str
    effect: str

    def describe(self) -> str:
        card = f"{_their(self.house)} {_card(self.card)}"
        why = _NO_EFFECT.match(self.effect)
        if why:  # "no effect (declined)" or "no effect: ...": the reason after a colon, not in brackets
            return f"{card} has no effect: {flat(why.group(1) or why.group(2))}."
        return f"{card}: {flat(self.effect)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class TidesDrawn(Event):
    """A Tides of Battle card drawn and seen only by its house until the reveal (R268)."""

    house: str
    card: str
    redraw: bool = False

    def describe(self) -> str:
        again = " for the Valyrian Steel Blade's redraw" if self.redraw else ""
        return f"You draw {tides_name(self.card)} from the Tides of Battle deck{again}."


@dataclass(frozen=True, slots=True, kw_only=True)
class TidesRevealed(Event):
    """Both Tides of Battle cards revealed (R270)."""

    area: str
    attacker: str
    attacker_card: str
    defender: str
    defender_card: str

    def describe(self) -> str:
        return (f"Tides of Battle in {_name(self.area)}: {_house(self.attacker)} draws {tides_name(self.attacker_card)}, "
                f"{_house(self.defender)} {tides_name(self.defender_card)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class BladeUsed(Event):
    """The Valyrian Steel Blade was used: ``effect`` "+1" (R199) or "redraw" (R269)."""

    house: str
    area: str
    effect: str
    vassal: str = ""  # the vassal it was used for by its commander, the holder (M060)

    def describe(self) -> str:
        what = "+1 combat strength" if self.effect == "+1" else "a new Tides of Battle card"
        if self.vassal:
            return (f"{_house(self.house)} uses the Valyrian Steel Blade for its vassal {_house(self.vassal)} in "
                    f"{_name(self.area)}, for {what} (M060).")
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
        # "Final" pairs with the initial strength line; the report's tables give every source.
        tie = "wins the tie on the Fiefdoms track" if self.tie_broken else "wins"
        return (f"Final strength in {_name(self.area)}: {_house(self.attacker)} {self.attacker_total} against "
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
            why = "a Tides of Battle skull" if self.skulls == 1 else f"{self.skulls} Tides of Battle skulls"
        else:
            why = f"{plural(self.swords, 'sword')} against {plural(self.fortifications, 'fortification')}"
        if self.prevented_by:
            return f"{_house(self.house)} takes no casualties in {_name(self.area)} ({why}): {_card(self.prevented_by)} spares them."
        if not self.count:
            return f"{_house(self.house)} loses no units in {_name(self.area)} ({why})."
        return f"{_house(self.house)} must lose {plural(self.count, 'unit')} in {_name(self.area)} ({why})."


@dataclass(frozen=True, slots=True, kw_only=True)
class Retreated(Event):
    """A defeated army retreated and is routed (R207-R219)."""

    house: str
    from_area: str
    to_area: str
    units: tuple[str, ...]

    def describe(self) -> str:
        return (f"{_house(self.house)} retreats {_units(self.units)} from {_name(self.from_area)} "
                f"to {_name(self.to_area)}; {_verb(self.units, 'it is', 'they are')} routed.")


@dataclass(frozen=True, slots=True, kw_only=True)
class AttackRepelled(Event):
    """A defeated attacker's survivors go back to the area they marched from, routed (R208, ruling 19)."""

    house: str
    area: str
    units: tuple[str, ...]
    routed: bool = True

    def describe(self) -> str:
        state = ", routed" if self.routed else ""
        return (f"{_their(self.house)} attack is repelled: {_units(self.units)} {_verb(self.units, 'goes', 'go')} "
                f"back to {_name(self.area)}{state}.")


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
        return f"{_their(self.house)} Garrison in {_name(self.area)} is defeated and removed from the game."


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
        # Every source of the attacker's strength is in the report's table under this line.
        result = "the neutral force is destroyed and the area taken" if self.destroyed else "the attack falls short and fails"
        return (f"{_house(self.house)} brings strength {self.attacker_total} against the neutral force of strength "
                f"{self.strength} in {_name(self.area)}: {result}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatOrderRemoved(Event):
    """An order token removed by a combat: its march, the loser's order, or a card (R220, R221)."""

    house: str
    area: str
    token: str
    cause: str

    def describe(self) -> str:
        return f"{_their(self.house)} {order_name(self.token)} in {_name(self.area)} is removed{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class CombatPowerTokenRemoved(Event):
    """The defeated defender's Power token in the embattled area goes back to the pool (R221)."""

    house: str
    area: str

    def describe(self) -> str:
        return f"{_their(self.house)} power token in {_name(self.area)} returns to the Power Pool."


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCardsDiscarded(Event):
    """The played cards go face up to their discard piles (R195)."""

    area: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        if not self.cards:
            return "No House card is discarded."
        verb = "is" if len(self.cards) == 1 else "are"
        return f"{listing(_card(c) for c in self.cards)} {verb} discarded."


@dataclass(frozen=True, slots=True, kw_only=True)
class HandReturned(Event):
    """A house takes its discarded House cards back into its hand (R196, Roose Bolton)."""

    house: str
    cards: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return (f"{_house(self.house)} takes back {plural(len(self.cards), 'House card')} into its hand"
                f"{aside(self.cause)}: {listing(_card(c) for c in self.cards)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class PortCaptured(Event):
    """The conqueror of a port's land area replaces the enemy ships there (R246)."""

    port: str
    house: str
    old_house: str
    replaced: int
    removed: int

    def describe(self) -> str:
        return (f"{_house(self.house)} takes {_name(self.port)}: {plural(self.removed, _house(self.old_house) + ' ship')} "
                f"removed, {plural(self.replaced, _house(self.house) + ' ship')} placed.")


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackMoved(Event):
    """A house moved on an influence track outside bidding (R097, Doran Martell)."""

    house: str
    track: str
    order: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return track_move(self.house, "drops to the bottom of", self.track, self.order, self.cause)


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackRaised(Event):
    """A house moved up one space of an influence track (Ser Gerris Drinkwater, A Dance with Dragons)."""

    house: str
    track: str
    order: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return track_move(self.house, "moves up one space of", self.track, self.order, self.cause)
