"""House Baratheon's card abilities (Brienne of Tarth and Melisandre have icons only)."""

from __future__ import annotations

from collections.abc import Iterator

from .registry import (
    ROLES,
    Bonus,
    CombatView,
    DiscardFromHand,
    Effect,
    Icons,
    Me,
    Skip,
    UnitValue,
    Upgrade,
    choice,
    house_card,
    pick_or_no,
)


def stannis_baratheon(view: CombatView, me: Me) -> Iterator[Effect]:
    """+1 strength if the opponent is above you on the Iron Throne track."""
    opponent = view.house(me.opponent)
    if opponent and view.position("iron_throne", opponent) < view.position("iron_throne", me.house):
        yield Bonus(me.role, 1)


house_card("stannis_baratheon", stannis_baratheon, when="combat_strength")


def renly_baratheon(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you win, you may upgrade one of your footmen in the combat (or supporting you) to a knight."""
    if view.winner() != me.role:
        return
    areas = sorted({f.area for f in view.fighters()
                    if f.house == me.house and f.type == "footman" and f.side == me.role and not f.routed})
    if me.attacking and view.origin in areas:
        areas.insert(0, view.area)  # attacking footmen are named by the area they fight in, or came from
    if not areas or view.knights_available(me.house) < 1:
        yield Skip("no footman to upgrade, or no knight left in the supply")
        return
    picked = pick_or_no(view, me, "upgrade a footman to a knight (name its area), or 'no'",
                        [choice(me.card, area=a) for a in areas])
    yield Upgrade(picked.area) if picked and picked.area else Skip("declined")


house_card("renly_baratheon", renly_baratheon, when="after_victor_determined")


def ser_davos_seaworth(view: CombatView, me: Me) -> Iterator[Effect]:
    """If Stannis Baratheon is in your discard pile: +1 strength and a sword."""
    if "stannis_baratheon" in view.discards(me.house):
        yield Bonus(me.role, 1)
        yield Icons(swords=1)


house_card("ser_davos_seaworth", ser_davos_seaworth, when="combat_strength")


def salladhor_saan(view: CombatView, me: Me) -> Iterator[Effect]:
    """If you are supported, every ship but Baratheon's counts 0 in this combat, on both sides."""
    if view.supported(me.role):
        yield UnitValue("ship", 0, ROLES, except_house=me.house)


house_card("salladhor_saan", salladhor_saan, when="combat_strength")


def patchface(view: CombatView, me: Me) -> Iterator[Effect]:
    """After the combat you may look at the opponent's hand and discard one card of your choice."""
    opponent = view.house(me.opponent)
    hand = view.hand(opponent) if opponent else ()
    if not opponent or not hand:
        yield Skip("the opponent's hand is empty")
        return
    picked = pick_or_no(view, me, f"discard one card from {opponent.title()}'s hand (name it), or 'no'",
                        [choice(me.card, house_card=c) for c in hand])
    yield DiscardFromHand(opponent, picked.house_card) if picked and picked.house_card else Skip("declined")


house_card("patchface", patchface, when="after_combat")
