"""What A Dance with Dragons' house cards do that no other card does, applied and reported.

:func:`adjudicator.engine.rules.housecards.apply` hands these effects over; each is checked here
against the state before it changes anything, and reported as the card's ability.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...game.cards import CARDS
from ...game.setup import draw_shuffle
from ..cards.registry import (
    CopyCard,
    DestroyUnit,
    Effect,
    IgnoreText,
    Me,
    MoveUp,
    MoveWildlings,
    StackDeck,
    TakeOverSupport,
)
from ..core.bidding import move_on_track
from ..core.common import destroy_units, lose_power
from ..core.context import Context
from ..events.combat import CardAbility, TrackRaised
from ..events.westeros import DECK_NAMES, WesterosDeckShuffled, WildlingThreatMoved
from .wildlings import SPACE


class CombatRecord(Protocol):
    """What these effects change of a combat's record (:class:`~adjudicator.engine.rules.combat_state.Combat`),
    named here so that this module stays outside the combat modules' import circle."""

    sides: dict[Any, Any]  # by role: each side's house, card and support grants
    ignored: set[str]
    printed: dict[str, int]
    icons: dict[str, tuple[int, int]]
    attack: Any  # the attack that began it: its embattled area


def _count(n: int, word: str) -> str:
    """``no sword``, ``1 sword``, ``2 swords``."""
    return f"no {word}" if not n else f"1 {word}" if n == 1 else f"{n} {word}s"


def apply(ctx: Context, combat: CombatRecord, me: Me, effect: Effect) -> None:
    """Carry out one A Dance with Dragons effect a card yielded."""
    name = CARDS.house_cards[me.card].name

    def said(text: str, *, visible_to: str | None = None) -> None:
        extra = {"visible_to": visible_to} if visible_to else {}
        ctx.emit(CardAbility(house=me.house, card=me.card, area=combat.attack.area, effect=text, **extra))

    st = ctx.state
    if isinstance(effect, IgnoreText):
        card = combat.sides[effect.side].card
        if card:
            combat.ignored.add(card)
            said(f"the text of {CARDS.house_cards[card].name} is ignored")
    elif isinstance(effect, TakeOverSupport):
        opponent = combat.sides[me.opponent]
        moved = [g for g in opponent.grants if g.supporter != opponent.house]
        opponent.grants = [g for g in opponent.grants if g.supporter == opponent.house]
        combat.sides[me.role].grants += moved
        houses = ", ".join(dict.fromkeys(g.supporter.title() for g in moved))
        said(f"{houses} now support{'s' if len(moved) == 1 else ''} {me.house.title()}")
    elif isinstance(effect, CopyCard):
        lose_power(ctx, me.house, effect.cost, name)
        copied = CARDS.house_cards[effect.card]
        combat.printed[me.card] = copied.strength
        combat.icons[me.card] = (copied.swords, copied.fortifications)
        said(f"it takes the strength and icons of {copied.name}: {copied.strength} strength, "
             f"{_count(copied.swords, 'sword')}, {_count(copied.fortifications, 'fortification')}")
    elif isinstance(effect, DestroyUnit):
        units = sorted((u for u in st.area(effect.area).units if u.house == effect.house and u.type == effect.unit),
                       key=lambda u: u.routed)[:1]  # a standing one first, as Mace Tyrell's (ruling 36)
        destroy_units(ctx, effect.area, units, name)
    elif isinstance(effect, MoveWildlings):
        old = st.wildling_threat
        st.wildling_threat = old + SPACE * effect.steps
        ctx.emit(WildlingThreatMoved(old=old, new=st.wildling_threat, cause=name))
    elif isinstance(effect, MoveUp):
        position = st.position(effect.track, effect.house)
        move_on_track(st, effect.track, effect.house, position - 1)
        ctx.emit(TrackRaised(house=effect.house, track=effect.track, order=tuple(st.tracks[effect.track]), cause=name))
    elif isinstance(effect, StackDeck):
        deck = st.westeros_decks[str(effect.deck)]
        rest = list(deck)
        rest.remove(effect.card)
        st.westeros_decks[str(effect.deck)] = [effect.card, *draw_shuffle(st, rest)]
        ctx.emit(WesterosDeckShuffled(deck=effect.deck, cause=f"{name}: a card of {me.house.title()}'s choice on top"))
        said(f"{CARDS.westeros_card(effect.deck, effect.card).name} lies face down on top of Westeros deck "
             f"{DECK_NAMES.get(effect.deck, effect.deck)}", visible_to=me.house)
    else:
        raise AssertionError(f"{me.card} yielded {effect!r}, which no A Dance with Dragons rule applies")
