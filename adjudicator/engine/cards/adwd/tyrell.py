"""House Tyrell's A Dance with Dragons cards (Mace Tyrell, Randyll Tarly, Willas Tyrell and Ser Jon
Fossoway have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ....game.cards import CARDS
from ..registry import (
    CombatView,
    Effect,
    FinalStrength,
    IgnoreText,
    Me,
    Skip,
    UnitValue,
    house_card,
)

MARGAERY_STRENGTH = 2


def queen_of_thorns_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """Ignore all text on your opponent's House card."""
    card = view.card(me.opponent)
    if card and CARDS.house_cards[card].has_ability:
        yield IgnoreText(me.opponent)
    else:
        yield Skip("the opponent's card has no text")


house_card("queen_of_thorns_adwd", queen_of_thorns_adwd, when="on_reveal_cancel")


def paxter_redwyne(view: CombatView, me: Me) -> Iterator[Effect]:
    """In a sea area, each of your ships in the combat, supporting ones included, adds 2."""
    if view.is_sea(view.area):
        yield UnitValue("ship", 2, (me.role,), house=me.house)


house_card("paxter_redwyne", paxter_redwyne, when="combat_strength")


def margaery_tyrell_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """Defending your home area or an area holding your Power token: the opponent's final strength is 2."""
    if me.defending and (view.home(me.house) == view.area or view.power_token(view.area) == me.house):
        yield FinalStrength(me.opponent, MARGAERY_STRENGTH)


house_card("margaery_tyrell_adwd", margaery_tyrell_adwd, when="combat_strength")
