"""House Stark's A Dance with Dragons cards, the Boltons (Roose Bolton, Black Walder, Steelshanks
Walton and Damon Dance-for-Me have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ..registry import (
    Bonus,
    CombatView,
    Effect,
    Icons,
    Me,
    ReturnToHand,
    Skip,
    TakeOverSupport,
    choice,
    house_card,
    kept_after_combat,
    pick_or_no,
)


def ramsay_bolton(view: CombatView, me: Me) -> Iterator[Effect]:
    """While Reek is still in your hand: +1 combat strength and three swords."""
    if "reek" in view.hand(me.house):
        yield Bonus(me.role, 1)
        yield Icons(swords=3)


house_card("ramsay_bolton", ramsay_bolton, when="combat_strength")


def walder_frey(view: CombatView, me: Me) -> Iterator[Effect]:
    """Every house other than your opponent that supports your opponent supports you instead."""
    opponent = view.house(me.opponent)
    if any(h != opponent for h in view.supporters(me.opponent)):
        yield TakeOverSupport()
    else:
        yield Skip("no other house supports the opponent")


house_card("walder_frey", walder_frey, when="on_reveal_immediately")


def reek(view: CombatView, me: Me) -> Iterator[Effect]:
    """Immediately: Ramsay Bolton, if he is in your discard pile, goes back into your hand."""
    if "ramsay_bolton" in view.discards(me.house):
        yield ReturnToHand("ramsay_bolton")
    else:
        yield Skip("Ramsay Bolton is not in the discard pile")


house_card("reek", reek, when="on_reveal_immediately")


def reek_goes_back(view: CombatView, me: Me) -> bool:
    """If you lost, you may take Reek back into your hand instead of discarding him."""
    if view.winner() != me.opponent:
        return False
    return pick_or_no(view, me, "take Reek back into your hand ('return'), or 'no'",
                      [choice(me.card, option="return")]) is not None


kept_after_combat("reek", reek_goes_back)
