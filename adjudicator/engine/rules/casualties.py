"""Combat resolution step 2: casualties from swords, then from Tides of Battle skulls (R203-R206, R272).

Only attacking and defending units standing in the combat can be lost: never supporting units,
never routed ones (R205). Each casualty is one unit, whatever its strength (R206). The house hit
chooses, unless the only choice is obvious.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...game.commands import Casualties, Command, UnitSpec
from ..cards.registry import ROLES, DestroyOwnUnit, Role, other
from ..cards.tides import tides_card
from ..core.common import destroy_units
from ..core.context import NOT_APPLICABLE, Ask, Context, Request
from ..events import card_name
from ..events.combat import CardAbility, CasualtiesDue
from .combat_state import CHEAP_FIRST, Combat, fighters, iron_throne_roles, matches, pick_units
from .combat_view import no_casualties, passive_effects
from .strength import icons

DOOMED_FIRST = ("siege_engine", "footman", "ship", "knight", "dragon")  # a defeated army's siege engines are lost anyway (R218)


def take_casualties(ctx: Context, combat: Combat) -> None:
    """The loser loses a unit per sword of the victor beyond its fortifications; then each skull hits."""
    assert combat.winner is not None
    winner, loser = combat.winner, other(combat.winner)
    swords = icons(combat, winner, passive_effects(ctx, combat))[0]
    forts = icons(combat, loser, passive_effects(ctx, combat))[1]
    hit: set[Role] = set()
    if swords:
        hit.add(loser)
        _lose(ctx, combat, loser, max(0, swords - forts), CasualtiesDue(
            house=str(combat.house(loser)), area=combat.area, count=max(0, swords - forts), swords=swords,
            fortifications=forts))
    for role in ROLES:
        tides = combat.sides[role].tides
        if tides and tides_card(tides).skull:
            hit.add(other(role))
            _lose(ctx, combat, other(role), 1, CasualtiesDue(house=str(combat.house(other(role))), area=combat.area,
                                                             count=1, skulls=1))
    for role in ROLES:  # a side no casualty reached: its casualty answers for this combat are told why
        if role not in hit and combat.house(role):
            why = "the victor takes none" if role == winner else "the victor's House card shows no sword"
            _settle(ctx, combat, str(combat.house(role)), f"no casualty was due: {why} (R203)")


def after_casualties(ctx: Context, combat: Combat) -> None:
    """Texts that cost a side one more unit once the casualties are taken (Beric Dondarrion), in Iron
    Throne order (R194)."""
    for role in iron_throne_roles(ctx.state, combat):
        for card, effect in passive_effects(ctx, combat)[role]:
            if isinstance(effect, DestroyOwnUnit):
                lose_one_more(ctx, combat, effect.side, card)


def lose_one_more(ctx: Context, combat: Combat, role: Role, card: str) -> None:
    """A card's text makes a side lose one more of its units in the combat after the casualties, its
    house choosing which (Beric Dondarrion)."""
    house = str(combat.house(role))
    pool = standing(ctx, combat, role)
    if not pool:
        ctx.emit(CardAbility(house=house, card=card, area=combat.area, effect="no effect: no unit of its own is left"))
        return
    chosen = _ask(ctx, combat, role, 1, pool, skull=False)
    area = combat.origin if role == "attacker" else combat.area
    lost = pick_units(ctx.state.area(area).units, house, chosen)
    if role == "attacker":
        combat.attacking.remove(chosen[0])
    destroy_units(ctx, area, lost, card_name(card), reported_in=combat.area, in_combat=True)


def standing(ctx: Context, combat: Combat, role: Role) -> list[str]:
    """The unit types a side may lose as casualties: its attacking or defending units, not routed."""
    return [f.type for f in fighters(ctx.state, combat) if f.side == role and not f.supporting and not f.routed]


def _lose(ctx: Context, combat: Combat, role: Role, count: int, due: CasualtiesDue) -> None:
    house = str(combat.house(role))
    blocker = no_casualties(ctx, combat, role)
    if blocker:
        ctx.emit(CasualtiesDue(house=house, area=combat.area, count=0, swords=due.swords,
                               fortifications=due.fortifications, skulls=due.skulls, prevented_by=blocker))
        _settle(ctx, combat, house, f"no casualty was due: {card_name(blocker)} spares this side every casualty (R193)")
        return
    pool = standing(ctx, combat, role)
    count = min(count, len(pool))  # a house loses at most what stands in the combat
    ctx.emit(CasualtiesDue(house=house, area=combat.area, count=count, swords=due.swords,
                           fortifications=due.fortifications, skulls=due.skulls))
    if not count:
        _settle(ctx, combat, house, "no casualty was due: the victor's swords did not outnumber the fortifications, "
                                    "or no unit of yours stood in the combat (R203)")
        return
    chosen = _ask(ctx, combat, role, count, pool, skull=bool(due.skulls))
    area = combat.origin if role == "attacker" else combat.area
    lost = pick_units(ctx.state.area(area).units, house, chosen)
    if role == "attacker":
        for unit in chosen:
            combat.attacking.remove(unit)
    cause = "a Tides of Battle skull (R272)" if due.skulls else "casualties of the combat (R203)"
    destroy_units(ctx, area, lost, cause, reported_in=combat.area, in_combat=True)


def _settle(ctx: Context, combat: Combat, house: str, reason: str) -> None:
    """The house's casualty answers meet a combat where none is due: refused, with the reason; those
    naming this combat are used up, the others wait for a later combat."""
    ctx.settle("casualties", [house], lambda c: isinstance(c, Casualties) and matches(c.when, combat, house), reason,
               only_this=lambda c: isinstance(c, Casualties) and c.when is not None)


def _ask(ctx: Context, combat: Combat, role: Role, count: int, pool: list[str], *, skull: bool) -> list[str]:
    """Which units go: the house's answer, or at once when only one choice is possible (R204)."""
    house = str(combat.house(role))
    have = Counter(pool)
    default = _cheapest(pool, count, doomed=role != combat.winner)
    obvious = count == len(pool) or len(have) == 1
    req = Request(
        key=ctx.key("casualties", house), kind="casualties", house=house,
        prompt=f"choose {count} casualt{'y' if count == 1 else 'ies'} in {ctx.board.area(combat.area).name}"
               + (" (Tides of Battle skull)" if skull else ""),
        context={"combat_area": combat.area, "count": count, "units": dict(sorted(have.items()))},
        default=_spec(default),
    )

    def check(cmd: Command) -> Any:
        if not isinstance(cmd, Casualties) or not matches(cmd.when, combat, house):
            return NOT_APPLICABLE
        return why_not(ctx, combat, role, cmd, count, have)

    cmd = ctx.ask(Ask(req, check, only=_spec(default) if obvious else None))
    assert isinstance(cmd, Casualties)
    return [s.unit for s in cmd.units for _ in range(s.count)]


def why_not(ctx: Context, combat: Combat, role: Role, cmd: Casualties, count: int, have: Counter[str]) -> Any:
    """Why a casualty choice cannot stand, or None (R203-R206)."""
    total = sum(s.count for s in cmd.units)
    if total != count:
        return f"{count} casualt{'y' if count == 1 else 'ies'} must be chosen, not {total} (R203, R206)"
    want: Counter[str] = Counter()
    for s in cmd.units:
        want[s.unit] += s.count
    for unit, n in want.items():
        if n <= have[unit]:
            continue
        others = [f for f in fighters(ctx.state, combat) if f.side == role and f.type == unit]
        if any(f.routed and not f.supporting for f in others):
            return f"routed units can never be chosen as casualties: you have {have[unit]} standing {unit}(s) here (R205)"
        if any(f.supporting for f in others):
            return f"supporting units are never casualties: you have {have[unit]} {unit}(s) in the combat itself (R205)"
        return f"you have {have[unit]} {unit}(s) in the combat, not {n} (R204)"
    return None


def _cheapest(pool: list[str], count: int, *, doomed: bool) -> list[str]:
    """The default casualties: the cheapest units, but first the siege engines of a defeated army,
    which cannot retreat and would be destroyed anyway (R218, ruling 48)."""
    order = DOOMED_FIRST if doomed else CHEAP_FIRST
    return sorted(pool, key=order.index)[:count]


def _spec(units: list[str]) -> Casualties:
    c = Counter(units)
    return Casualties(units=tuple(UnitSpec(u, n) for u, n in sorted(c.items(), key=lambda x: CHEAP_FIRST.index(x[0]))))
