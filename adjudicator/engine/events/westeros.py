"""Events of the Westeros phase: cards drawn, the wildling track, bids, supply, mustering, the end.

Every event here is public unless it says otherwise: the Westeros phase hides only bids before
their reveal (those are in the step machine's ``AnswerUsed`` events, seen by the bidder alone).

>>> e = BidsRevealed(track="fiefdoms", bids=(("lannister", 4), ("stark", 3)))
>>> e.describe()
'The bids for the Fiefdoms track are revealed.'
>>> from adjudicator.engine.events import from_dict
>>> from_dict(e.to_dict()) == e
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import (
    TRACK_WORDS,
    UNIT_WORDS,
    Event,
    aside,
    flat,
    house_name,
    listing,
    order_name,
)
from . import area_name as _area
from . import card_name as _house_card_name
from . import card_name as _westeros_name
from . import card_name as _wildling_name
from . import track_name as _track
from . import units_text as _units

TRACK_NAMES = TRACK_WORDS
DECK_NAMES = {1: "I", 2: "II", 3: "III", 4: "IV"}  # IV: Mother of Dragons (M082)
# How the holder of a dominance token chose a Westeros card to resolve (rules/westeros.py CHOICES).
CHOICE_WORDS = {"muster": "Mustering", "supply": "Supply", "bid": "Clash of Kings", "collect": "Game of Thrones"}
BASE_CHOICE_CARDS = frozenset({"a_throne_of_blades", "dark_wings_dark_words"})


def _house(h: str) -> str:
    return house_name(h)


def banned_orders(tokens: Iterable[str]) -> str:
    """Restricted order kinds in words: ``('defense', 'march+1')`` -> ``'no Defense or March +1 orders'``.

    >>> banned_orders(["march+1"])
    'no March +1 orders'
    """
    return "no " + listing([order_name(t, noun=False) for t in tokens], "or") + " orders"


# --- the Westeros cards ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class WesterosCardRevealed(Event):
    """The top card of a Westeros deck is turned face up."""

    deck: int
    card: str
    wildling_icon: bool

    def describe(self) -> str:
        icon = " (wildling icon)" if self.wildling_icon else ""
        return f"Westeros deck {DECK_NAMES.get(self.deck, self.deck)}: {_westeros_name(self.card)}{icon}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WesterosCardResolved(Event):
    """A revealed Westeros card is resolved now (deck order I, II, III)."""

    deck: int
    card: str

    def describe(self) -> str:
        return f"Resolving {_westeros_name(self.card)} (deck {DECK_NAMES.get(self.deck, self.deck)})."


@dataclass(frozen=True, slots=True, kw_only=True)
class WesterosDeckShuffled(Event):
    """A Westeros deck was shuffled (Winter is Coming, or a deck drawn empty)."""

    deck: int
    cause: str

    def describe(self) -> str:
        return f"Westeros deck {DECK_NAMES.get(self.deck, self.deck)} is shuffled ({self.cause})."


@dataclass(frozen=True, slots=True, kw_only=True)
class WesterosChoiceMade(Event):
    """The holder of a dominance token chose how a Westeros card resolves."""

    house: str
    card: str
    option: str

    def describe(self) -> str:
        card = _westeros_name(self.card)
        if self.option == "nothing":
            return f"{_house(self.house)} chooses that {card} has no effect."
        if self.card in BASE_CHOICE_CARDS and self.option in CHOICE_WORDS:
            return f"{_house(self.house)} resolves {card} as {CHOICE_WORDS[self.option]}."
        if self.option.startswith("no "):
            # A restriction ("no march+1"): the OrdersRestricted event right after it names the orders.
            return f"{_house(self.house)} chooses which orders {card} forbids."
        # A Westeros IV card (Mother of Dragons): areas, houses or a dragon, in words (M083).
        return f"{_house(self.house)} chooses {_iv_choice(self.card, self.option)} for {card}."


def _iv_choice(card: str, option: str) -> str:
    """A Westeros IV choice in words: ``'moat_cailin'`` -> ``'Moat Cailin'``; ``'stark+tyrell'`` ->
    ``'Stark and Tyrell'``; ``'destroy norvos'`` -> ``'to destroy its dragon in Norvos'``."""
    parts = option.split("+")
    if card in ("scattering_dissent", "word_spreads_quickly") and len(parts) == 2:
        return f"to move a loyalty token from {_area(parts[0])} to {_area(parts[1])}"
    if option.startswith("destroy "):
        return f"to destroy its dragon in {_area(option.removeprefix('destroy '))}"
    words = {"muster": "to put a destroyed dragon back in Pentos", "cancel": "to put the move back"}
    if option in words:
        return words[option]
    return listing([_area(p) for p in parts])


@dataclass(frozen=True, slots=True, kw_only=True)
class OrdersRestricted(Event):
    """Order tokens that may not be placed in the coming Planning Phase."""

    card: str
    tokens: tuple[str, ...]

    def describe(self) -> str:
        return f"{_westeros_name(self.card)}: {banned_orders(self.tokens)} may be placed in the coming Planning Phase."


# --- wildlings ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingThreatMoved(Event):
    """The Wildling Threat token moved."""

    old: int
    new: int
    cause: str

    def describe(self) -> str:
        if self.old == self.new:
            return f"The wildling threat stays at {self.new}{aside(self.cause)}."
        return f"The wildling threat moves from {self.old} to {self.new}{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingAttackBegins(Event):
    """The wildlings attack; the named houses bid for the Night's Watch."""

    strength: int
    houses: tuple[str, ...]

    def describe(self) -> str:
        verb = "bids" if len(self.houses) == 1 else "bid"
        return (f"The wildlings attack with strength {self.strength}; "
                f"{listing(_house(h) for h in self.houses) or 'no house'} {verb} for the Night's Watch.")


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingAttackResolved(Event):
    """The bids against a wildling attack are revealed and the outcome is known."""

    strength: int
    total: int
    nights_watch_won: bool

    def describe(self) -> str:
        side = "the Night's Watch holds" if self.nights_watch_won else "the wildlings are victorious"
        return f"Night's Watch {self.total} against wildlings {self.strength}: {side}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardRevealed(Event):
    """The top wildling card is drawn and shown to everyone (R106)."""

    card: str
    nights_watch_won: bool

    def describe(self) -> str:
        part = "the Night's Watch reward applies" if self.nights_watch_won else "the wildling penalties apply"
        return f"Wildling card: {_wildling_name(self.card)}; {part}."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingBidderNamed(Event):
    """The highest bidder (a Night's Watch victory) or the lowest (a wildling victory)."""

    house: str
    role: str  # "highest" | "lowest"

    def describe(self) -> str:
        return f"{_house(self.house)} is the {self.role} bidder against the wildlings."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingCardBuried(Event):
    """The used wildling card goes face down to the bottom of the deck (R108)."""

    card: str

    def describe(self) -> str:
        return f"{_wildling_name(self.card)} goes to the bottom of the wildling deck."


@dataclass(frozen=True, slots=True, kw_only=True)
class WildlingEffect(Event):
    """One house's reward or penalty from a wildling card, in words."""

    house: str
    card: str
    effect: str

    def describe(self) -> str:
        return f"{_wildling_name(self.card)}: {_house(self.house)} {self.effect}."


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsSwapped(Event):
    """Units replaced by units of another type from the house's box (Crow Killers)."""

    house: str
    area: str
    old: str
    new: str
    count: int

    def describe(self) -> str:
        return (f"{_house(self.house)} replaces {_units([self.old] * self.count)} in {_area(self.area)} "
                f"with {_units([self.new] * self.count)}.")


@dataclass(frozen=True, slots=True, kw_only=True)
class HouseCardsMoved(Event):
    """House cards moved between a house's hand and its discard pile by a wildling card."""

    house: str
    cards: tuple[str, ...]
    to: str  # "hand" | "discards"
    cause: str

    def describe(self) -> str:
        names = listing(_house_card_name(c) for c in self.cards)
        if not names:
            what = "to take back into its hand" if self.to == "hand" else "to discard"
            return f"{_house(self.house)} has no House cards {what}{aside(self.cause)}."
        if self.to == "hand":
            return f"{_house(self.house)} takes {names} back into its hand{aside(self.cause)}."
        return f"{_house(self.house)} discards {names}{aside(self.cause)}."


# --- bidding and the influence tracks -------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class BidsRevealed(Event):
    """Every bid of one round of bidding, revealed together (R083, R102)."""

    track: str
    bids: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        # Each bid is in the report's table under this line (the ``bids`` field).
        return f"The bids for the {_track(self.track)} are revealed." if self.bids else f"No one bids for the {_track(self.track)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class TieBroken(Event):
    """The Iron Throne holder ordered tied houses (R084, R107)."""

    house: str
    context: str
    order: tuple[str, ...]

    def describe(self) -> str:
        return (f"{_house(self.house)} breaks the tie for the {_track(self.context)}: "
                f"{', '.join(_house(h) for h in self.order)}, in that order.")


@dataclass(frozen=True, slots=True, kw_only=True)
class InfluenceTrackChanged(Event):
    """A new order on an influence track; position 1 holds the dominance token."""

    track: str
    order: tuple[str, ...]
    cause: str

    def describe(self) -> str:
        token = {"iron_throne": "the Iron Throne", "fiefdoms": "the Valyrian Steel Blade",
                 "kings_court": "the Messenger Raven"}.get(self.track, "")
        holder = f"; {_house(self.order[0])} holds {token}" if self.order and token else ""
        when = "After the bidding, the" if self.cause == "bidding" else f"{flat(self.cause)}: the"
        return f"{when} {_track(self.track)} is now {', '.join(_house(h) for h in self.order)}{holder}."


# --- supply and mustering -------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SupplyTrackMoved(Event):
    """A house's Supply token moved (R058)."""

    house: str
    old: int
    new: int
    cause: str

    def describe(self) -> str:
        if self.old == self.new:
            return f"{_house(self.house)} stays at {self.new} on the Supply track{aside(self.cause)}."
        return f"{_house(self.house)} moves from {self.old} to {self.new} on the Supply track{aside(self.cause)}."


@dataclass(frozen=True, slots=True, kw_only=True)
class UnitsMustered(Event):
    """What a house mustered with one area's points (R067-R080)."""

    house: str
    area: str
    placed: tuple[tuple[str, str], ...] = ()  # (unit, area it went into)
    upgraded: tuple[str, ...] = ()  # the units footmen became

    def describe(self) -> str:
        parts = [f"a {_unit(u)}" + ("" if where == self.area else f" in {_area(where)}") for u, where in self.placed]
        parts += [f"a footman upgraded to a {_unit(u)}" for u in self.upgraded]
        if not parts:
            return f"{_house(self.house)} musters nothing in {_area(self.area)}."
        return f"{_house(self.house)} musters in {_area(self.area)}: {listing(parts)}."


def _unit(unit: str) -> str:
    return UNIT_WORDS.get(unit, (unit.replace("_", " "),))[0]


# --- the end of the game --------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class FinalStandings(Event):
    """Every house's standing at the end of round 10, best first (R260)."""

    # (house, castles, strongholds, supply, available power, Iron Throne position)
    standings: tuple[tuple[str, int, int, int, int, int], ...]

    def describe(self) -> str:
        rows = "; ".join(
            f"{_house(h)} {c} area{'s' if c != 1 else ''} with a castle or stronghold "
            f"({s} stronghold{'s' if s != 1 else ''}), supply {sup}, power {p}, place {it} on the Iron Throne track"
            for h, c, s, sup, p, it in self.standings
        )
        return f"Final standings: {rows}."
