"""Events of Mother of Dragons' vassals (M030-M074): who commands which vassal, and what a vassal's
orders, cards and rewards did. All public but a vassal's three drawn cards (ruling 236).

>>> VassalCommanded(vassal="tyrell", commander="stark").describe()
'Stark commands Tyrell this round.'
>>> VassalCardsDrawn(vassal="tyrell", commander="stark", cards=("bronn", "varys", "syrio_forel")).visible_to
'stark'
"""

from __future__ import annotations

from dataclasses import dataclass

from . import Event, area_name, card_name, house_name, listing, track_move


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalCommanded(Event):
    """M034, M037: a player takes command of a vassal for the round (public, M038)."""

    vassal: str
    commander: str
    rest: bool = False  # the last player takes every vassal left (M037)

    def describe(self) -> str:
        why = ", as the last player on the Iron Throne track must" if self.rest else ""
        return f"{house_name(self.commander)} commands {house_name(self.vassal)} this round{why}."


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalSetPassed(Event):
    """M035: a player passes its set of vassal orders to the next player below it."""

    house: str
    to: str

    def describe(self) -> str:
        return f"{house_name(self.house)} passes a set of vassal orders to {house_name(self.to)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalRaidKept(Event):
    """M047, ruling 232: the commander keeps a Raid/Support token as a support order."""

    vassal: str
    area: str

    def describe(self) -> str:
        return (f"{house_name(self.vassal)} does not raid from {area_name(self.area)}: its Raid/Support order "
                "stays as a support order.")


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalTokenPlaced(Event):
    """M068, ruling 242: a vassal's march left a land area empty; one of its power tokens keeps it."""

    vassal: str
    area: str

    def describe(self) -> str:
        return (f"{house_name(self.vassal)} leaves a power token in {area_name(self.area)} to keep control, as a "
                "vassal always does.")


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalMustered(Event):
    """M051, M056: a vassal's Defense 1/Muster order musters in its area instead of defending."""

    vassal: str
    area: str

    def describe(self) -> str:
        return f"{house_name(self.vassal)}'s Defense 1/Muster order in {area_name(self.area)} musters."


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalMusterDeclined(Event):
    """Ruling 272: the commander does not muster with the vassal's Defense 1/Muster; it stays a defense
    order until clean-up."""

    vassal: str
    area: str

    def describe(self) -> str:
        return (f"{house_name(self.vassal)} does not muster in {area_name(self.area)}: its Defense 1/Muster order "
                "stays as a defense order.")


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalCardsDrawn(Event):
    """M058, ruling 236: the three vassal house cards drawn for a combat, seen by the commander only."""

    vassal: str
    commander: str
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "visible_to", self.commander)

    def describe(self) -> str:
        return (f"For {house_name(self.vassal)} you draw {listing(card_name(c) for c in self.cards)} "
                "from the vassal deck; play one of them.")


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalDeckShuffled(Event):
    """M061: at the combat's clean up the seven vassal cards go back into one deck."""

    vassal: str

    def describe(self) -> str:
        return f"{house_name(self.vassal)}'s vassal house cards are shuffled back into the vassal deck."


@dataclass(frozen=True, slots=True, kw_only=True)
class CommanderRewarded(Event):
    """M062: a vassal won a combat; its commander gains 1 power."""

    vassal: str
    commander: str

    def describe(self) -> str:
        # The power itself is the PowerChanged event that follows; saying it here too read as 2 power.
        commander = house_name(self.commander)
        return f"{house_name(self.vassal)} won as {commander}'s vassal: {commander} earns the commander's reward (M062)."


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalHandShown(Event):
    """Ruling 236: once the House cards are revealed, the vassal's other two drawn cards are open."""

    vassal: str
    area: str
    cards: tuple[str, ...]

    def describe(self) -> str:
        held = listing(card_name(c) for c in self.cards) if self.cards else "no other card"
        return f"{house_name(self.vassal)}'s hand of vassal cards in {area_name(self.area)} holds {held}."


@dataclass(frozen=True, slots=True, kw_only=True)
class VassalRaised(Event):
    """Varys: the vassal that played it takes position 1 of a track; the others above it move down."""

    house: str
    track: str
    order: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        return track_move(self.house, "moves to the top of", self.track, self.order, self.cause)
