"""House-card abilities: one small registered function per card, seeing only a narrow view.

Numbers and icons live in ``data/cards.toml``; only a card's text is code. Each ability is a
function ``ability(view, me) -> Iterator[Effect]`` registered by card id with the moment it
acts (the ``when`` of ``cards.toml``). It reads the combat through :class:`CombatView`, may ask
its owner (or whoever its text names) a question through ``view.choose``, and *yields* what it
does as :class:`Effect` values; the combat engine applies them, checks them, and reports them.
A card function never changes the game state itself.

>>> from adjudicator.engine.cards.registry import ABILITIES, load
>>> load()
>>> ABILITIES["catelyn_stark"].when
'combat_strength'
>>> sorted(a.card for a in ABILITIES.values() if a.when == "on_reveal_cancel")
['jaqen_hghar', 'queen_of_thorns_adwd', 'tyrion_lannister']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from ...game.cards import CARDS
from ...game.commands import CardChoice
from ...game.state import Order, Unit

Role = Literal["attacker", "defender"]
ROLES: tuple[Role, Role] = ("attacker", "defender")

# The moments a card acts, in combat order (R193, R194; cards.toml [timing]).
WHEN = (
    "on_reveal_cancel",  # "cancel"/"ignore" texts, first, in Iron Throne order
    "on_reveal_immediately",  # "immediately" texts, after those
    "combat_strength",  # passive: read whenever strength or icons are counted
    "after_victor_determined",  # "if you win/lose", once the victor is known
    "casualties",  # passive: read whenever units would be lost as casualties
    "retreat",  # at the retreat and the attackers' advance
    "after_combat",  # at the end of combat clean-up, after the cards are discarded
)
HOUSE_MODULES = ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell", "arryn", "targaryen", "vassal",
                 *(f"adwd.{h}" for h in ("bolton", "lannister", "baratheon", "greyjoy", "martell", "tyrell")))


def other(role: Role) -> Role:
    """The opposing role."""
    return "defender" if role == "attacker" else "attacker"


# --- what a card can see ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Me:
    """The side of the combat a card was played on."""

    role: Role
    house: str
    card: str

    @property
    def opponent(self) -> Role:
        return other(self.role)

    @property
    def attacking(self) -> bool:
        return self.role == "attacker"

    @property
    def defending(self) -> bool:
        return self.role == "defender"


@dataclass(frozen=True, slots=True)
class Fighter:
    """One unit taking part: attacking, defending, or supporting one side."""

    house: str
    type: str
    area: str
    side: Role
    supporting: bool
    routed: bool


class CombatView(Protocol):
    """What a card may read of a combat, and the one way it may ask a question."""

    area: str  # the embattled area
    origin: str  # where the attackers marched from
    march_token: str

    def house(self, role: Role) -> str | None: ...
    def card(self, role: Role) -> str | None: ...
    def fighters(self) -> Sequence[Fighter]: ...
    def supported(self, role: Role) -> bool: ...
    def order(self, area: str) -> Order | None: ...
    def orders_of(self, house: str) -> Sequence[tuple[str, Order]]: ...
    def adjacent(self, area: str) -> Sequence[str]: ...
    def has_castle(self, area: str) -> bool: ...
    def hand(self, house: str) -> Sequence[str]: ...
    def playable(self, house: str) -> Sequence[str]: ...
    def discards(self, house: str) -> Sequence[str]: ...
    def power(self, house: str) -> int: ...
    def position(self, track: str, house: str) -> int: ...
    def units_in(self, area: str) -> Sequence[Unit]: ...
    def knights_available(self, house: str) -> int: ...
    def final_strength(self, role: Role) -> int: ...  # once the victor is known: each side's final total
    def is_land(self, area: str) -> bool: ...
    def winner(self) -> Role | None: ...
    def retreat_losses(self) -> dict[str, int]: ...
    def advanced(self) -> bool: ...
    # Mother of Dragons
    def is_vassal(self, house: str) -> bool: ...
    def is_sea(self, area: str) -> bool: ...
    def controls(self, house: str, area: str) -> bool: ...
    def supporters(self, role: Role) -> Sequence[str]: ...  # houses whose support still counts for a side
    def retreated_to(self) -> str | None: ...  # where the defeated defender retreated, once it has
    def home(self, house: str) -> str | None: ...  # a house's home area
    def fits_supply(self, house: str, area: str) -> bool: ...  # one more unit of the house there, within supply?
    # A Dance with Dragons
    def houses(self) -> Sequence[str]: ...  # the houses in play, in the Iron Throne order
    def wildling_threat(self) -> int: ...
    def wildling_attack_at(self) -> int: ...  # the space where the wildlings attack at once (12)
    def units_of(self, house: str) -> Sequence[tuple[str, Unit]]: ...  # (area, unit) of every unit of a house
    def power_token(self, area: str) -> str | None: ...  # whose Power token lies in a land area
    def in_combat(self, area: str) -> bool: ...  # the embattled area, the attackers' origin, or a supporting area
    def westeros_deck(self, deck: int) -> Sequence[str]: ...  # a deck's cards, top first (its owner's secret)

    def choose(
        self, me: Me, prompt: str, options: Sequence[CardChoice], *, default: CardChoice, house: str | None = None,
        secret: bool = False,
    ) -> CardChoice:
        """Ask ``house`` (the card's owner by default) to pick one of ``options``; ``secret`` when the
        options are hidden information (a Westeros deck's cards), so the answer is told to it alone."""
        ...


# --- what a card can do -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    """Base of everything a card ability yields."""


@dataclass(frozen=True, slots=True)
class Bonus(Effect):
    """Combat strength added to (or taken from) one side."""

    side: Role
    amount: int


@dataclass(frozen=True, slots=True)
class Icons(Effect):
    """Sword and fortification icons the card gains."""

    swords: int = 0
    fortifications: int = 0


@dataclass(frozen=True, slots=True)
class UnitValue(Effect):
    """Units of one type count ``value`` each; ``house`` None is every house but ``except_house``."""

    unit: str
    value: int
    sides: tuple[Role, ...]
    house: str | None = None
    except_house: str | None = None
    supporting: bool | None = None  # None: supporters too; False: only units in the embattled area

    def applies(self, f: Fighter) -> bool:
        if f.type != self.unit or f.side not in self.sides:
            return False
        if self.supporting is not None and f.supporting != self.supporting:
            return False
        if self.house is not None:
            return f.house == self.house
        return f.house != self.except_house


@dataclass(frozen=True, slots=True)
class PrintedStrength(Effect):
    """The printed strength of a side's House card counts as ``value``."""

    side: Role
    value: int


@dataclass(frozen=True, slots=True)
class NoCasualties(Effect):
    """The side loses no units as casualties: swords, skulls or card texts."""


@dataclass(frozen=True, slots=True)
class CancelCard(Effect):
    """The side's House card goes back to its hand; it chooses another (or fights with none)."""

    side: Role


@dataclass(frozen=True, slots=True)
class SwapCard(Effect):
    """Pay ``cost`` power, discard the card played and play ``card`` from the hand instead."""

    card: str
    cost: int


@dataclass(frozen=True, slots=True)
class DestroyFootman(Effect):
    """Destroy one of the side's attacking or defending footmen."""

    side: Role


@dataclass(frozen=True, slots=True)
class RemoveOrder(Effect):
    """Remove the order token in ``area``."""

    area: str


@dataclass(frozen=True, slots=True)
class MoveToBottom(Effect):
    """Move a house to the last position of an influence track."""

    house: str
    track: str


@dataclass(frozen=True, slots=True)
class GainPower(Effect):
    """Take power tokens from the Power Pool (``house`` None: the card's owner)."""

    amount: int
    house: str | None = None


@dataclass(frozen=True, slots=True)
class TakeBackDiscards(Effect):
    """The whole discard pile, and the card played, go back to the hand."""


@dataclass(frozen=True, slots=True)
class Upgrade(Effect):
    """Replace a footman of the card's house in ``area`` with a knight from its supply."""

    area: str


@dataclass(frozen=True, slots=True)
class ChooseRetreat(Effect):
    """The defeated defender must retreat to ``area``."""

    area: str


@dataclass(frozen=True, slots=True)
class HoldAttackers(Effect):
    """The attackers may not enter the embattled area; they stay where they marched from."""


@dataclass(frozen=True, slots=True)
class MoveMarchOrder(Effect):
    """The March Order that started the combat moves into the conquered area."""


@dataclass(frozen=True, slots=True)
class DiscardFromHand(Effect):
    """A house discards a card from its hand."""

    house: str
    card: str


@dataclass(frozen=True, slots=True)
class LosePower(Effect):
    """A house discards available power, as much as it has (Mother of Dragons' Daenerys, set B)."""

    house: str
    amount: int


@dataclass(frozen=True, slots=True)
class RemoveFromGame(Effect):
    """A house card leaves the game for good instead of lying in the discard pile (Illyrio Mopatis,
    Robert Arryn); ``house`` and ``card`` None: the card played."""

    house: str | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class KeepCard(Effect):
    """The card played goes back to its owner's hand instead of the discard pile (Lysa Arryn)."""


@dataclass(frozen=True, slots=True)
class ReturnToHand(Effect):
    """One card of the discard pile goes back to the hand (Missandei)."""

    card: str


@dataclass(frozen=True, slots=True)
class RandomCard(Effect):
    """The side's House card goes back to its hand, and one picked at random from that hand is its
    card instead (Jaqen H'ghar)."""

    side: Role


@dataclass(frozen=True, slots=True)
class DestroyOwnUnit(Effect):
    """After the casualties, the side loses one more of its units in the combat, its owner choosing
    (Beric Dondarrion). Passive: the combat applies it once the casualties are taken."""

    side: Role


@dataclass(frozen=True, slots=True)
class PlaceUnit(Effect):
    """A unit from the house's reserves is placed in ``area`` (Jon Connington)."""

    house: str
    unit: str
    area: str


@dataclass(frozen=True, slots=True)
class MoveToTop(Effect):
    """Move a house to position 1 of an influence track; those above it move down (Varys)."""

    house: str
    track: str


@dataclass(frozen=True, slots=True)
class LowerPrinted(Effect):
    """The side's card loses ``amount`` of its printed strength, never below 0 (Doran Martell, A Dance
    with Dragons). Passive."""

    side: Role
    amount: int


@dataclass(frozen=True, slots=True)
class FinalStrength(Effect):
    """The side's final combat strength is ``value``, whatever it counted (Mance Rayder, Margaery
    Tyrell of A Dance with Dragons). Passive."""

    side: Role
    value: int


@dataclass(frozen=True, slots=True)
class IgnoreText(Effect):
    """The text of the side's House card is ignored for the rest of the combat (Queen of Thorns, A
    Dance with Dragons)."""

    side: Role


@dataclass(frozen=True, slots=True)
class TakeOverSupport(Effect):
    """Every house but the opponent that supports the opponent supports the card's side instead
    (Walder Frey)."""


@dataclass(frozen=True, slots=True)
class CopyCard(Effect):
    """Pay ``cost`` power: the card played takes the printed strength and icons of ``card`` (Qyburn)."""

    card: str
    cost: int


@dataclass(frozen=True, slots=True)
class DestroyUnit(Effect):
    """One unit of ``house`` of a type is destroyed in an area outside the combat (Ser Ilyn Payne)."""

    house: str
    unit: str
    area: str


@dataclass(frozen=True, slots=True)
class MoveWildlings(Effect):
    """The Wildling threat moves ``steps`` spaces of the track, up (+) or down (-) (Jon Snow)."""

    steps: int


@dataclass(frozen=True, slots=True)
class MoveUp(Effect):
    """A house moves up one space of an influence track (Ser Gerris Drinkwater)."""

    house: str
    track: str


@dataclass(frozen=True, slots=True)
class StackDeck(Effect):
    """A Westeros deck is shuffled with ``card`` put face down on top (Rodrik the Reader)."""

    deck: int
    card: str


@dataclass(frozen=True, slots=True)
class Skip(Effect):
    """The ability does nothing this time, and why (no legal target, declined)."""

    reason: str


# --- the registry -------------------------------------------------------------------------------

AbilityFn = Callable[[CombatView, Me], Iterator[Effect]]


@dataclass(frozen=True, slots=True)
class Ability:
    card: str
    when: str
    fn: AbilityFn


ABILITIES: dict[str, Ability] = {}


def house_card(card: str, fn: AbilityFn, *, when: str) -> None:
    """Register ``fn`` as the ability of one House card; ``when`` must match ``cards.toml``.

    Called after the function (``house_card("catelyn_stark", catelyn_stark, when=...)``), not as
    a decorator: the function stays plain, so that ``make mutate`` mutates it (mutmut skips
    decorated functions; docs/testing.md).

    :raises ValueError: for an unknown card, a second registration, or a wrong ``when``.
    """
    data = CARDS.house_cards.get(card)
    if data is None:
        raise ValueError(f"unknown house card {card!r}")
    if card in ABILITIES:
        raise ValueError(f"house card {card!r} registered twice")
    if when not in WHEN or when != data.when:
        raise ValueError(f"{card}: when={when!r}, but cards.toml says {data.when!r}")
    ABILITIES[card] = Ability(card, when, fn)


RemovalFn = Callable[[CombatView, Me], bool]
REMOVED_AFTER_COMBAT: dict[str, RemovalFn] = {}


def removed_after_combat(card: str, fn: RemovalFn) -> None:
    """Register when a card played leaves the game at the end of its combat instead of being
    discarded (called after the function, like :func:`house_card`)."""
    if card not in CARDS.house_cards or card in REMOVED_AFTER_COMBAT:
        raise ValueError(f"house card {card!r} unknown or its removal registered twice")
    REMOVED_AFTER_COMBAT[card] = fn


KeptFn = Callable[[CombatView, Me], bool]
KEPT_AFTER_COMBAT: dict[str, KeptFn] = {}


def kept_after_combat(card: str, fn: KeptFn) -> None:
    """Register when a card played goes back to its owner's hand at the end of its combat instead of
    the discard pile (Reek; called after the function, like :func:`house_card`). ``fn`` may ask."""
    if card not in CARDS.house_cards or card in KEPT_AFTER_COMBAT:
        raise ValueError(f"house card {card!r} unknown or its return registered twice")
    KEPT_AFTER_COMBAT[card] = fn


def kept(card: str) -> KeptFn | None:
    """When a card played goes back to the hand after its combat (A Dance with Dragons), if it ever does."""
    load()
    return KEPT_AFTER_COMBAT.get(card)


def load() -> None:
    """Import the house modules so that every ability is registered."""
    for module in HOUSE_MODULES:
        importlib.import_module(f"{__package__}.{module}")


def removal(card: str) -> RemovalFn | None:
    """When a card leaves the game after its combat (Mother of Dragons), if it ever does."""
    load()
    return REMOVED_AFTER_COMBAT.get(card)


def ability(card: str | None, when: str | None = None) -> Ability | None:
    """The registered ability of a card (of one timing, if ``when`` is given)."""
    if card is None:
        return None
    load()
    found = ABILITIES.get(card)
    if found is None or (when is not None and found.when != when):
        return None
    return found


def choice(card: str, **fields: object) -> CardChoice:
    """A :class:`CardChoice` for ``card`` (keyword, area, house card or track)."""
    return CardChoice(card=card, **fields)  # type: ignore[arg-type]


def pick_or_no(view: CombatView, me: Me, prompt: str, options: Sequence[CardChoice], *,
               secret: bool = False) -> CardChoice | None:
    """Ask the card's owner to pick one of ``options`` or 'no', the default; ``None`` when declined
    (a "you may" of a card text). ``secret`` as :meth:`CombatView.choose`."""
    no = choice(me.card, option="no")
    picked = view.choose(me, prompt, [*options, no], default=no, secret=secret)
    return None if picked.option == "no" else picked
