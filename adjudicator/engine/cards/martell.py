"""House Martell's card abilities (The Red Viper, Areo Hotah, Darkstar and Obara Sand have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ...game.board import TRACKS
from .registry import (
    CombatView,
    Effect,
    HoldAttackers,
    Icons,
    Me,
    MoveToBottom,
    choice,
    house_card,
)


def arianne_martell(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you defend and lose, the attackers may not enter the area; they stay where they marched from."""
    if me.defending and view.winner() == me.opponent:
        yield HoldAttackers()


house_card("arianne_martell", arianne_martell, when="retreat")


def nymeria_sand(view: CombatView, me: Me) -> Iterator[Effect]:
    """Defending: a fortification; attacking: a sword."""
    yield Icons(fortifications=1) if me.defending else Icons(swords=1)


house_card("nymeria_sand", nymeria_sand, when="combat_strength")


def doran_martell(view: CombatView, me: Me) -> Iterator[Effect]:
    """Move the opponent to the last position of one influence track of your choice."""
    opponent = view.house(me.opponent)
    if not opponent:
        return
    options = [choice(me.card, track=t) for t in TRACKS]
    picked = view.choose(me, f"choose the track on which {opponent.title()} drops to the bottom", options,
                         default=options[0])
    yield MoveToBottom(opponent, str(picked.track))


house_card("doran_martell", doran_martell, when="on_reveal_immediately")
