"""House Lannister's card abilities (Ser Gregor, Ser Jaime and The Hound have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from .registry import (
    CancelCard,
    CombatView,
    Effect,
    GainPower,
    Me,
    RemoveOrder,
    Skip,
    UnitValue,
    choice,
    house_card,
    pick_or_no,
)


def tywin_lannister(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, gain two Power tokens."""
    if view.winner() == me.role:
        yield GainPower(2)


house_card("tywin_lannister", tywin_lannister, when="after_victor_determined")


def ser_kevan_lannister(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you are attacking, your footmen in the combat, supporting ones included, count 2 each."""
    if me.attacking:
        yield UnitValue("footman", 2, (me.role,), house=me.house)


house_card("ser_kevan_lannister", ser_kevan_lannister, when="combat_strength")


def tyrion_lannister(view: CombatView, me: Me) -> Iterator[Effect]:
    """You may send the opponent's card back to its hand; it must choose another, or fight with none."""
    if view.card(me.opponent) is None:
        return
    picked = pick_or_no(view, me, "cancel your opponent's House card? ('cancel' or 'no')", [choice(me.card, option="cancel")])
    yield CancelCard(me.opponent) if picked else Skip("declined")


house_card("tyrion_lannister", tyrion_lannister, when="on_reveal_cancel")


def cersei_lannister(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may remove one of the defeated opponent's Order tokens anywhere on the board."""
    opponent = view.house(me.opponent)
    if view.winner() != me.role or opponent is None:
        return
    areas = [a for a, _ in view.orders_of(opponent)]
    if not areas:
        yield Skip("the opponent has no order token on the board")
        return
    picked = pick_or_no(view, me, f"remove one {opponent.title()} order token (name its area), or 'no'",
                        [choice(me.card, area=a) for a in areas])
    yield RemoveOrder(picked.area) if picked and picked.area else Skip("declined")


house_card("cersei_lannister", cersei_lannister, when="after_victor_determined")
