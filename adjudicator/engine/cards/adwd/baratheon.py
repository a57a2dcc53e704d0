"""House Baratheon's A Dance with Dragons cards (Bastard of Nightsong, Ser Davos Seaworth and Ser
Axell Florent have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from ....game.cards import CARDS
from ....game.commands import order_kind
from ..registry import (
    CombatView,
    Effect,
    FinalStrength,
    LosePower,
    Me,
    MoveWildlings,
    RemoveOrder,
    ReturnToHand,
    Skip,
    choice,
    house_card,
    pick_or_no,
)

SPACE = 2  # one space of the Wildling track


def stannis_baratheon_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """Immediately, if nobody supports you, every Support Order next to the embattled area goes."""
    if view.supported(me.role):
        yield Skip("Stannis Baratheon is supported")
        return
    areas = [a for a in view.adjacent(view.area) if (o := view.order(a)) and order_kind(o.token) == "support"]
    if not areas:
        yield Skip("no Support Order next to the embattled area")
    for area in areas:
        yield RemoveOrder(area)


house_card("stannis_baratheon_adwd", stannis_baratheon_adwd, when="on_reveal_immediately")


def jon_snow(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may move the Wildling threat one space up or down (never onto the space where
    the wildlings attack, ruling 375)."""
    if view.winner() != me.role:
        return
    threat = view.wildling_threat()
    options = []
    if threat + SPACE < view.wildling_attack_at():
        options.append(choice(me.card, option="up"))
    if threat >= SPACE:
        options.append(choice(me.card, option="down"))
    picked = pick_or_no(view, me, "move the Wildling threat one space 'up' or 'down', or 'no'", options)
    yield MoveWildlings(1 if picked.option == "up" else -1) if picked else Skip("declined")


house_card("jon_snow", jon_snow, when="after_victor_determined")


def melisandre_adwd(view: CombatView, me: Me) -> Iterator[Effect]:
    """After combat, you may take one card of your discard pile (Melisandre included) back into your
    hand by paying its printed combat strength in power."""
    power = view.power(me.house)
    cards = [c for c in view.discards(me.house) if CARDS.house_cards[c].strength <= power]
    if not cards:
        yield Skip("no discarded card that the available power pays for")
        return
    picked = pick_or_no(view, me, "take a card of your discard pile back for its strength in power "
                                  "('take back CARD'), or 'no'",
                        [choice(me.card, house_card=c) for c in cards])
    if not picked or not picked.house_card:
        yield Skip("declined")
        return
    cost = CARDS.house_cards[picked.house_card].strength
    if cost:
        yield LosePower(me.house, cost)
    yield ReturnToHand(picked.house_card)


house_card("melisandre_adwd", melisandre_adwd, when="after_combat")


def mance_rayder(view: CombatView, me: Me) -> Iterator[Effect]:
    """Your final combat strength is the Wildling threat."""
    yield FinalStrength(me.role, view.wildling_threat())


house_card("mance_rayder", mance_rayder, when="combat_strength")
