"""House Martell's A Dance with Dragons cards (Areo Hotah, Bastard of Godsgrace, Big Man and Nymeria
Sand have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ....game.board import TRACKS
from ..registry import (
    Bonus,
    CombatView,
    Effect,
    Icons,
    LowerPrinted,
    Me,
    MoveUp,
    Skip,
    choice,
    house_card,
    pick_or_no,
)


def doran_martell_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """For each card in your hand: a sword, a fortification, and 1 strength less (never below 0)."""
    cards = len(view.hand(me.house))
    if cards:
        yield Icons(swords=cards, fortifications=cards)
        yield LowerPrinted(me.role, cards)


house_card("doran_martell_adwd", doran_martell_adwd, when="combat_strength")


def ser_gerris_drinkwater(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may move up one space on one influence track of your choice."""
    if view.winner() != me.role:
        return
    tracks = [t for t in TRACKS if view.position(t, me.house) > 1]
    if not tracks:
        yield Skip("Martell already heads every track")
        return
    picked = pick_or_no(view, me, "move up one space on an influence track (name it), or 'no'",
                        [choice(me.card, track=t) for t in tracks])
    yield MoveUp(me.house, picked.track) if picked and picked.track else Skip("declined")


house_card("ser_gerris_drinkwater", ser_gerris_drinkwater, when="after_victor_determined")


def quentyn_martell(view: CombatView, me: Me) -> Iterator[Effect]:
    """+1 combat strength for each card in your discard pile."""
    discarded = len(view.discards(me.house))
    if discarded:
        yield Bonus(me.role, discarded)


house_card("quentyn_martell", quentyn_martell, when="combat_strength")
