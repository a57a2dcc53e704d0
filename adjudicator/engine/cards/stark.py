"""House Stark's card abilities (Eddard Stark, Greatjon Umber and Ser Rodrick Cassel have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ...game.commands import order_bonus, order_kind
from .registry import (
    Bonus,
    ChooseRetreat,
    CombatView,
    Effect,
    Me,
    NoCasualties,
    Skip,
    TakeBackDiscards,
    choice,
    house_card,
    pick_or_no,
)


def robb_stark(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may choose where the defeated defender retreats, among the legal areas
    where it loses the fewest units."""
    if view.winner() != me.role or not me.attacking:
        return  # only a defeated defender has a retreat to choose (an attacker goes home, R208)
    losses = view.retreat_losses()
    if len(losses) < 2:
        return  # no choice to take away
    fewest = min(losses.values())
    picked = pick_or_no(view, me, "choose the area the defeated army retreats to, or 'no'",
                        [choice(me.card, area=a) for a in sorted(a for a, n in losses.items() if n == fewest)])
    yield ChooseRetreat(picked.area) if picked and picked.area else Skip("declined")


house_card("robb_stark", robb_stark, when="retreat")


def roose_bolton(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you lose, take your whole discard pile back into your hand, Roose Bolton included."""
    if view.winner() == me.opponent:
        yield TakeBackDiscards()


house_card("roose_bolton", roose_bolton, when="after_victor_determined")


def the_blackfish(view: CombatView, me: Me) -> Iterator[Effect]:
    """You take no casualties in this combat: not from swords, skulls or card texts."""
    yield NoCasualties()


house_card("the_blackfish", the_blackfish, when="casualties")


def catelyn_stark(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you have a Defense Order in the embattled area, its bonus is doubled."""
    order = view.order(view.area)
    if me.defending and order and order.house == me.house and order_kind(order.token) == "defense":
        yield Bonus(me.role, order_bonus(order.token))


house_card("catelyn_stark", catelyn_stark, when="combat_strength")
