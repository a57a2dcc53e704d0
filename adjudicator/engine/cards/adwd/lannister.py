"""House Lannister's A Dance with Dragons cards (Ser Jaime, Ser Kevan, Daven Lannister and Cersei
Lannister have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ....game.cards import CARDS
from ..registry import (
    CombatView,
    CopyCard,
    DestroyUnit,
    Effect,
    Me,
    Skip,
    UnitValue,
    choice,
    house_card,
    pick_or_no,
)

QYBURN_COST = 2


def ser_ilyn_payne(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may also destroy one of your opponent's footmen in an area outside this
    combat (ruling 373); an order left there without units goes with it."""
    opponent = view.house(me.opponent)
    if view.winner() != me.role or not opponent:
        return
    areas = sorted({a for a, u in view.units_of(opponent) if u.type == "footman" and not view.in_combat(a)})
    if not areas:
        yield Skip(f"{opponent.title()} has no footman outside this combat")
        return
    picked = pick_or_no(view, me, f"destroy one {opponent.title()} footman outside this combat "
                                  "('destroy footman in AREA'), or 'no'",
                        [choice(me.card, area=a) for a in areas])
    yield DestroyUnit(opponent, "footman", picked.area) if picked and picked.area else Skip("declined")


house_card("ser_ilyn_payne", ser_ilyn_payne, when="after_victor_determined")


def ser_addam_marbrand(view: CombatView, me: Me) -> Iterator[Effect]:
    """While you attack, each of your knights in the combat, supporting ones included, adds 3."""
    if me.attacking:
        yield UnitValue("knight", 3, (me.role,), house=me.house)


house_card("ser_addam_marbrand", ser_addam_marbrand, when="combat_strength")


def qyburn(view: CombatView, me: Me) -> Iterator[Effect]:
    """Immediately you may pay 2 power: this card takes the printed strength and icons of one
    House card in any discard pile (its text stays behind)."""
    cards = sorted({c for h in view.houses() for c in view.discards(h)},
                   key=lambda c: (-CARDS.house_cards[c].strength, c))
    if view.power(me.house) < QYBURN_COST or not cards:
        yield Skip("fewer than 2 available power tokens, or every discard pile is empty")
        return
    picked = pick_or_no(view, me, "copy one card of any discard pile for 2 power (name it), or 'no'",
                        [choice(me.card, house_card=c) for c in cards])
    yield CopyCard(picked.house_card, QYBURN_COST) if picked and picked.house_card else Skip("declined")


house_card("qyburn", qyburn, when="on_reveal_immediately")
