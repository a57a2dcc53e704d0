"""The vassal house cards of Mother of Dragons: one shared deck of 7 (docs/rules-mother-of-dragons.md
section 9.5, M058). "This vassal" is the vassal that played the card; its commander makes every
choice the card asks of it (M030). Janos Slynt has icons only.
"""

from __future__ import annotations

from collections.abc import Iterator

from .registry import (
    ROLES,
    CombatView,
    DestroyOwnUnit,
    Effect,
    LosePower,
    Me,
    MoveToTop,
    PlaceUnit,
    PrintedStrength,
    RandomCard,
    Skip,
    UnitValue,
    choice,
    house_card,
    pick_or_no,
)

BRONN_COST = 2


def bronn(view: CombatView, me: Me) -> Iterator[Effect]:
    """The opponent, a player with 2 available power, may discard them to make Bronn's strength 0; a
    vassal opponent holds no power and cannot (ruling 212)."""
    opponent = view.house(me.opponent)
    if not opponent or view.is_vassal(opponent):
        yield Skip("a vassal holds no power to pay (ruling 212)" if opponent else "no house to pay")
        return
    if view.power(opponent) < BRONN_COST:
        yield Skip(f"{opponent.title()} has fewer than {BRONN_COST} available power")
        return
    options = [choice(me.card, option="pay"), choice(me.card, option="no")]
    picked = view.choose(me, f"discard {BRONN_COST} power to make Bronn's strength 0? ('pay' or 'no')", options,
                         default=options[-1], house=opponent)
    if picked.option != "pay":
        yield Skip(f"{opponent.title()} declined to pay")
        return
    yield LosePower(opponent, BRONN_COST)
    yield PrintedStrength(me.role, 0)


house_card("bronn", bronn, when="on_reveal_immediately")


def beric_dondarrion(view: CombatView, me: Me) -> Iterator[Effect]:
    """If this vassal wins, after the casualties it loses one of its own units in the combat."""
    if view.winner() == me.role:
        yield DestroyOwnUnit(me.role)


house_card("beric_dondarrion", beric_dondarrion, when="casualties")


def jon_connington(view: CombatView, me: Me) -> Iterator[Effect]:
    """If this vassal loses with a knight in its reserves, the commander may place one where its army
    retreated to, or in its home area if it controls it, within supply (ruling 281)."""
    if view.winner() != me.opponent:
        return
    if view.knights_available(me.house) < 1:
        yield Skip("no knight left in the reserves")
        return
    retreated = view.origin if me.attacking else view.retreated_to()
    if retreated and not any(u.house == me.house for u in view.units_in(retreated)):
        retreated = None  # no army of this vassal stands there any more
    home = view.home(me.house)
    areas = [a for a in (retreated, home if home and view.controls(me.house, home) else None) if a]
    areas = [a for a in dict.fromkeys(areas) if view.is_land(a) and view.fits_supply(me.house, a)]  # a knight: land only
    if not areas:
        yield Skip("no area to place a knight in within supply")
        return
    picked = pick_or_no(view, me, "place a knight (name its area), or 'no'", [choice(me.card, area=a) for a in areas])
    yield PlaceUnit(me.house, "knight", picked.area) if picked and picked.area else Skip("declined")


house_card("jon_connington", jon_connington, when="after_combat")


def jaqen_hghar(view: CombatView, me: Me) -> Iterator[Effect]:
    """The opponent's card goes back to its hand, and one picked at random from that hand is its card
    for this combat (ruling 280)."""
    if view.card(me.opponent) is None:
        yield Skip("the opponent plays no House card")
        return
    yield RandomCard(me.opponent)


house_card("jaqen_hghar", jaqen_hghar, when="on_reveal_cancel")


def syrio_forel(view: CombatView, me: Me) -> Iterator[Effect]:
    """If this vassal defends, every footman that is not a vassal's counts 0, attacking, defending or
    supporting (ruling 213)."""
    if not me.defending:
        return
    houses = sorted({f.house for f in view.fighters() if f.type == "footman" and not view.is_vassal(f.house)})
    for house in houses:
        yield UnitValue("footman", 0, ROLES, house=house)


house_card("syrio_forel", syrio_forel, when="combat_strength")


def varys(view: CombatView, me: Me) -> Iterator[Effect]:
    """This vassal moves to position 1 of the Fiefdoms track; the Blade stays with the highest player
    (M065, ruling 240)."""
    yield MoveToTop(me.house, "fiefdoms")


house_card("varys", varys, when="after_combat")
