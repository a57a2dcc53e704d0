"""House Targaryen's card abilities (Mother of Dragons): set A, the standard game's, and set B, the
alternate game's (docs/rules-mother-of-dragons.md sections 9.2 and 9.3).

Arstan Whitebeard, Ser Jorah Mormont, Daario Naharis, Grey Worm and Strong Belwas have icons only.
Three cards leave the game after their combat (:func:`removed_after_combat`): Khal Drogo always,
Viserys when Targaryen loses (ruling 226), Illyrio when Targaryen ends it with 5 or more power.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...game.cards import CARDS
from .registry import (
    Bonus,
    CombatView,
    DiscardFromHand,
    Effect,
    GainPower,
    Icons,
    LosePower,
    Me,
    RemoveFromGame,
    ReturnToHand,
    Skip,
    UnitValue,
    choice,
    house_card,
    pick_or_no,
    removed_after_combat,
)


def _in_the_area(view: CombatView, role: str, unit: str, house: str | None = None, *, standing: bool = False) -> int:
    """Units of a type attacking or defending on one side (supporters are not in the area); with
    ``standing``, only those that are not routed."""
    return sum(1 for f in view.fighters()
               if f.side == role and not f.supporting and f.type == unit and (house is None or f.house == house)
               and not (standing and f.routed))


# --- set A ----------------------------------------------------------------------------------------


def khal_drogo(view: CombatView, me: Me) -> Iterator[Effect]:
    """+1 strength and a sword per Targaryen knight attacking or defending in the embattled area; a
    routed knight provides no combat strength (R186), so it adds neither (ruling 352)."""
    knights = _in_the_area(view, me.role, "knight", me.house, standing=True)
    if knights:
        yield Bonus(me.role, knights)
        yield Icons(swords=knights)


house_card("khal_drogo", khal_drogo, when="combat_strength")


def khal_drogo_leaves(view: CombatView, me: Me) -> bool:
    """After the combat Khal Drogo is removed from the game, win or lose."""
    return True


removed_after_combat("khal_drogo", khal_drogo_leaves)


def xaro_xhoan_daxos(view: CombatView, me: Me) -> Iterator[Effect]:
    """With more ships than the opponent in the embattled area, each of your ships there counts 2."""
    mine = _in_the_area(view, me.role, "ship", me.house)
    if mine > _in_the_area(view, me.opponent, "ship"):
        yield UnitValue("ship", 2, (me.role,), house=me.house, supporting=False)


house_card("xaro_xhoan_daxos", xaro_xhoan_daxos, when="combat_strength")


def daenerys_targaryen_a(view: CombatView, me: Me) -> Iterator[Effect]:
    """+2 strength if a dragon of either side attacks or defends in the embattled area (ruling 214)."""
    if _in_the_area(view, "attacker", "dragon") + _in_the_area(view, "defender", "dragon"):
        yield Bonus(me.role, 2)


house_card("daenerys_targaryen_a", daenerys_targaryen_a, when="combat_strength")


def viserys_targaryen(view: CombatView, me: Me) -> Iterator[Effect]:
    """You may discard one other card from your hand and add its printed strength to yours (ruling 226)."""
    hand = list(view.hand(me.house))
    if not hand:
        yield Skip("no other card in hand")
        return
    picked = pick_or_no(view, me, "discard another card from your hand to add its printed strength (name it), or 'no'",
                        [choice(me.card, house_card=c) for c in hand])
    if not picked or not picked.house_card:
        yield Skip("declined")
        return
    yield DiscardFromHand(me.house, picked.house_card)
    yield Bonus(me.role, CARDS.house_cards[picked.house_card].strength)


house_card("viserys_targaryen", viserys_targaryen, when="on_reveal_immediately")


def viserys_leaves(view: CombatView, me: Me) -> bool:
    """If Targaryen loses, Viserys is removed from the game, his text used or not (ruling 226)."""
    return view.winner() == me.opponent


removed_after_combat("viserys_targaryen", viserys_leaves)


def illyrio_mopatis(view: CombatView, me: Me) -> Iterator[Effect]:
    """Take power equal to the difference of the final strengths; then, with 5 or more, leave the game."""
    gap = abs(view.final_strength("attacker") - view.final_strength("defender"))
    if gap:
        yield GainPower(gap)
    if view.power(me.house) + gap >= 5:
        yield RemoveFromGame()


house_card("illyrio_mopatis", illyrio_mopatis, when="after_combat")


# --- set B ----------------------------------------------------------------------------------------


def daenerys_targaryen_b(view: CombatView, me: Me) -> Iterator[Effect]:
    """The opponent discards available power equal to the difference of the final strengths."""
    opponent = view.house(me.opponent)
    gap = abs(view.final_strength("attacker") - view.final_strength("defender"))
    if not opponent or not gap:
        yield Skip("no difference to pay" if opponent else "no house to pay")
        return
    yield LosePower(opponent, gap)


house_card("daenerys_targaryen_b", daenerys_targaryen_b, when="after_combat")


def captain_groleo(view: CombatView, me: Me) -> Iterator[Effect]:
    """Attacking a land area reached by ship transport: +1 per Targaryen ship in the areas beside it."""
    if not me.attacking or not view.is_land(view.area) or view.area in view.adjacent(view.origin):
        return
    if _in_the_area(view, me.role, "dragon") == sum(1 for f in view.fighters() if f.side == me.role and not f.supporting):
        return  # only dragons came: they flew, no ship carried them (M091)
    ships = sum(1 for a in view.adjacent(view.area) for u in view.units_in(a) if u.house == me.house and u.type == "ship")
    if ships:
        yield Bonus(me.role, ships)


house_card("captain_groleo", captain_groleo, when="combat_strength")


def rakharo(view: CombatView, me: Me) -> Iterator[Effect]:
    """In a land area without castle or stronghold, each of your knights there counts 4."""
    if view.is_land(view.area) and not view.has_castle(view.area):
        yield UnitValue("knight", 4, (me.role,), house=me.house, supporting=False)


house_card("rakharo", rakharo, when="combat_strength")


def missandei(view: CombatView, me: Me) -> Iterator[Effect]:
    """Losing by 2 or less, you may take one other card from your discard pile back into your hand."""
    gap = abs(view.final_strength("attacker") - view.final_strength("defender"))
    pile = [c for c in view.discards(me.house) if c != me.card]
    if view.winner() != me.opponent or gap > 2 or not pile:
        yield Skip("Targaryen did not lose by 2 or less" if pile else "no other card in the discard pile")
        return
    picked = pick_or_no(view, me, "take a card back from your discard pile (name it), or 'no'",
                        [choice(me.card, house_card=c) for c in pile])
    yield ReturnToHand(picked.house_card) if picked and picked.house_card else Skip("declined")


house_card("missandei", missandei, when="after_victor_determined")
