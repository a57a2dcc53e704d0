"""House Greyjoy's card abilities (Euron Crow's Eye and Dagmar Cleftjaw have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ...game.cards import CARDS
from .registry import (
    Bonus,
    CombatView,
    Effect,
    Icons,
    Me,
    PrintedStrength,
    Skip,
    SwapCard,
    UnitValue,
    choice,
    house_card,
    pick_or_no,
)

AERON_COST = 2


def victarion_greyjoy(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you are attacking, your ships in the combat, supporting ones included, count 2 each."""
    if me.attacking:
        yield UnitValue("ship", 2, (me.role,), house=me.house)


house_card("victarion_greyjoy", victarion_greyjoy, when="combat_strength")


def balon_greyjoy(view: CombatView, me: Me) -> Iterator[Effect]:
    """The printed strength of the opponent's House card counts as 0 (its icons and text still apply)."""
    if view.card(me.opponent):
        yield PrintedStrength(me.opponent, 0)


house_card("balon_greyjoy", balon_greyjoy, when="combat_strength")


def theon_greyjoy(view: CombatView, me: Me) -> Iterator[Effect]:
    """Defending a castle or stronghold: +1 strength and a sword."""
    if me.defending and view.has_castle(view.area):
        yield Bonus(me.role, 1)
        yield Icons(swords=1)


house_card("theon_greyjoy", theon_greyjoy, when="combat_strength")


def asha_greyjoy(view: CombatView, me: Me) -> Iterator[Effect]:
    """If no one supports you in this combat: two swords and a fortification."""
    if not view.supported(me.role):
        yield Icons(swords=2, fortifications=1)


house_card("asha_greyjoy", asha_greyjoy, when="combat_strength")


def aeron_damphair(view: CombatView, me: Me) -> Iterator[Effect]:
    """You may pay 2 power to discard Aeron and play another card from your hand instead."""
    others = [c for c in view.playable(me.house) if c != me.card]
    if view.power(me.house) < AERON_COST or not others:
        yield Skip("needs 2 available power and another card in hand")
        return
    names = ", ".join(CARDS.house_cards[c].name for c in others)
    picked = pick_or_no(view, me, f"pay 2 power to play another card instead ({names}), or 'no'",
                        [choice(me.card, house_card=c) for c in others])
    yield SwapCard(picked.house_card, AERON_COST) if picked and picked.house_card else Skip("declined")


house_card("aeron_damphair", aeron_damphair, when="on_reveal_immediately")

