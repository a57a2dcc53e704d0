"""House Tyrell's card abilities (Randyll Tarly, Ser Garlan, Margaery and Alester Florent have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from .registry import (
    CombatView,
    DestroyFootman,
    Effect,
    Me,
    MoveMarchOrder,
    RemoveOrder,
    Skip,
    choice,
    house_card,
)


def mace_tyrell(view: CombatView, me: Me) -> Iterator[Effect]:
    """Destroy one of the opponent's attacking or defending footmen (never a supporting one)."""
    if any(f.type == "footman" and f.side == me.opponent and not f.supporting for f in view.fighters()):
        yield DestroyFootman(me.opponent)
    else:
        yield Skip("the opponent has no attacking or defending footman")


house_card("mace_tyrell", mace_tyrell, when="on_reveal_immediately")


def ser_loras_tyrell(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you attack and win, the March Order moves into the conquered area and may resolve again."""
    if me.attacking and view.winner() == me.role and view.advanced():
        yield MoveMarchOrder()


house_card("ser_loras_tyrell", ser_loras_tyrell, when="after_combat")


def queen_of_thorns(view: CombatView, me: Me) -> Iterator[Effect]:
    """Remove one of the opponent's orders next to the embattled area, not the March that began it."""
    opponent = view.house(me.opponent)
    areas = []
    for a in view.adjacent(view.area):
        order = view.order(a)
        if opponent and order and order.house == opponent and not (a == view.origin and me.defending):
            areas.append(a)
    if not areas:
        yield Skip("no order of the opponent next to the embattled area")
        return
    options = [choice(me.card, area=a) for a in areas]
    picked = view.choose(me, f"remove one {opponent.title() if opponent else ''} order next to the combat (name its area)",
                         options, default=options[0])
    yield RemoveOrder(str(picked.area))


house_card("queen_of_thorns", queen_of_thorns, when="on_reveal_immediately")
