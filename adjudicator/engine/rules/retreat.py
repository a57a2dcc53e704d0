"""Combat resolution step 3: retreats and routing, and the victorious attackers' advance (R207-R219).

A defeated attacker goes back where it marched from (R208); a defeated defender retreats to one
legal area of its choice (R209-R217). Routed units and siege engines cannot retreat and are
destroyed (R218, R219); retreated units are routed.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...game.commands import Command, Retreat, UnitSpec
from ...game.state import Unit
from ..core.common import destroy_units, transport_reach, within_supply
from ..core.context import NOT_APPLICABLE, Ask, Context, Request
from ..events.combat import AttackerAdvanced, AttackRepelled, Retreated
from .combat_state import CHEAP_FIRST, Combat, matches, pick_units, units_text

PORT_MAX = 3


def retreat_and_advance(ctx: Context, combat: Combat) -> None:
    """The loser retreats; a victorious attacker moves in unless a card holds it back.

    The cards whose text comes at the retreat (Robb Stark) have been resolved before (``combat.py``).
    """
    if combat.winner == "attacker":
        defender_retreats(ctx, combat)
        advance(ctx, combat)
    else:
        repel(ctx, combat)


# --- the defeated attacker (R208, Q9) --------------------------------------------------------------


def repel(ctx: Context, combat: Combat) -> None:
    """The attackers stay in their origin, routed; siege engines there cannot retreat (R218)."""
    st = ctx.state
    house = combat.attacker
    units = st.area(combat.origin).units
    engines = pick_units(units, house, [t for t in combat.attacking if t == "siege_engine"])
    destroy_units(ctx, combat.origin, engines, "siege engines cannot retreat (R218)", in_combat=True)
    combat.attacking = [t for t in combat.attacking if t != "siege_engine"]
    back = pick_units(st.area(combat.origin).units, house, combat.attacking)
    for u in back:
        u.routed = True
    shed_excess(ctx, combat, back, "over supply after the retreat (R213, Q9)")
    if combat.attacking:
        ctx.emit(AttackRepelled(house=house, area=combat.origin, units=units_text(combat.attacking)))


def shed_excess(ctx: Context, combat: Combat, units: list[Unit], cause: str) -> None:
    """Destroy returning attackers, cheapest first, until their house fits its supply (R238, Q9, ruling 58).

    The march was checked with the attackers in the embattled area (ruling 6); back in the area
    they marched from they may swell an army the supply track does not allow.
    """
    excess = sorted(units, key=lambda u: CHEAP_FIRST.index(u.type))
    while excess and not within_supply(ctx.state, ctx.board, combat.attacker):
        unit = excess.pop(0)
        destroy_units(ctx, combat.origin, [unit], cause, in_combat=True)
        combat.attacking.remove(unit.type)


def stay_home(ctx: Context, combat: Combat) -> None:
    """Attackers that did not get in stand in the area they marched from, within supply (ruling 58)."""
    home = pick_units(ctx.state.area(combat.origin).units, combat.attacker, combat.attacking)
    shed_excess(ctx, combat, home, "over supply back in the area they marched from (R238, ruling 58)")


def advance(ctx: Context, combat: Combat) -> None:
    """The surviving attackers enter the embattled area (R221), unless held back (Arianne Martell)."""
    st = ctx.state
    if combat.held:
        stay_home(ctx, combat)
        if combat.attacking:
            ctx.emit(AttackRepelled(house=combat.attacker, area=combat.origin, units=units_text(combat.attacking),
                                    routed=False))
        return
    moving = pick_units(st.area(combat.origin).units, combat.attacker, combat.attacking)
    origin = st.area_mut(combat.origin)
    for u in moving:
        origin.units.remove(u)
    st.area_mut(combat.area).units.extend(moving)
    combat.advanced = bool(moving)
    if moving:
        ctx.emit(AttackerAdvanced(house=combat.attacker, area=combat.area, units=units_text(combat.attacking)))


# --- the defeated defender (R209-R219, Q5, Q6, Q15) -------------------------------------------------


def retreating(ctx: Context, combat: Combat) -> list[Unit]:
    """The defender's units that can retreat: standing, and not siege engines."""
    house = combat.defender
    return [u for u in ctx.state.area(combat.area).units if u.house == house and not u.routed and u.type != "siege_engine"]


def why_not_area(ctx: Context, combat: Combat, dest: str) -> str | None:
    """Why the defender's army cannot retreat into ``dest`` at all (supply aside), or None."""
    st, board = ctx.state, ctx.board
    house = str(combat.defender)
    a = board.area(dest)
    ships = board.area(combat.area).is_sea
    name = a.name
    if dest == combat.area:
        return f"the army must leave {name} (R207)"
    if ships:
        if a.is_land:
            return "ships never retreat to a land area (R215)"
        if not board.adjacent(combat.area, dest):
            return f"{name} is not next to {board.area(combat.area).name} (R210)"
        if a.is_port:
            if st.controller(str(a.port_of), board) != house:
                return f"{name} is not your own port (ruling 55)"
            if len(st.area(dest).units) + len(retreating(ctx, combat)) > PORT_MAX:
                return f"{name} would hold more than {PORT_MAX} ships (R250, ruling 55)"
    else:
        if not a.is_land:
            return "footmen and knights never retreat to a sea area or a port (R215)"
        if not board.adjacent(combat.area, dest) and dest not in transport_reach(st, board, house, combat.area):
            return f"{name} is neither next to {board.area(combat.area).name} nor reachable by your ships (R210, R217)"
    if dest == combat.origin:
        return f"{name} is the area the attackers marched from (R212)"
    if dest in st.impassable:
        return f"{name} cannot be entered in this game (R235)"
    there = st.area(dest)
    enemies = sorted({u.house for u in there.units if u.house != house})
    if enemies:
        return f"{name} holds units of {enemies[0].title()} (R210)"
    if there.neutral_force:
        return f"{name} holds a neutral force (ruling 56)"
    if there.power_token and there.power_token != house:
        return f"{name} holds a {there.power_token.title()} Power token (R216)"
    owner = st.controller(dest, board)
    if a.home_of and owner and owner != house:
        return f"{name} is the home area of {owner.title()}, who controls it (ruling 56)"
    return None


def _to_destroy(ctx: Context, combat: Combat, dest: str, n: int) -> int:
    """How many retreating units must be destroyed first to fit the supply limit there (R213).

    None of the defender's units stay in the embattled area: those that cannot retreat (routed
    units, siege engines) are destroyed, so they are counted as gone even before they are.
    """
    house = str(combat.defender)
    here = sum(1 for u in ctx.state.area(combat.area).units if u.house == house)
    for k in range(n + 1):
        if within_supply(ctx.state, ctx.board, house, {combat.area: -here, dest: n - k}):
            return k
    return n


def legal_retreats(ctx: Context, combat: Combat) -> dict[str, int]:
    """Legal retreat areas and the units each needs destroyed first (R210-R217).

    Areas within supply come first: an area that needs losses is legal only when no area
    needs none (R213). An area where the whole army would be lost is no retreat at all.
    """
    n = len(retreating(ctx, combat))
    if not n:
        return {}
    board = ctx.board
    near = set(board.neighbours[combat.area]) | (
        set() if board.area(combat.area).is_sea else transport_reach(ctx.state, board, str(combat.defender), combat.area))
    costs = {a: _to_destroy(ctx, combat, a, n) for a in sorted(near) if why_not_area(ctx, combat, a) is None}
    costs = {a: k for a, k in costs.items() if k < n}
    if any(k == 0 for k in costs.values()):
        return {a: 0 for a, k in costs.items() if k == 0}
    return costs


def defender_retreats(ctx: Context, combat: Combat) -> None:
    """Destroy what cannot retreat, then move the rest to one legal area, routed (R209-R219)."""
    st = ctx.state
    house = combat.defender
    if house is None:
        return
    here = st.area(combat.area).units
    routed = [u for u in here if u.house == house and u.routed]
    destroy_units(ctx, combat.area, routed, "routed units cannot retreat (R219)", in_combat=True)
    engines = [u for u in st.area(combat.area).units if u.house == house and u.type == "siege_engine"]
    destroy_units(ctx, combat.area, engines, "siege engines cannot retreat (R218)", in_combat=True)
    units = retreating(ctx, combat)
    if not units:
        return
    legal = legal_retreats(ctx, combat)
    if combat.forced_retreat in legal:
        legal = {str(combat.forced_retreat): legal[str(combat.forced_retreat)]}
    if not legal:
        destroy_units(ctx, combat.area, units, "no legal area to retreat to (R214)", in_combat=True)
        _settle(ctx, combat, str(house), "there was no legal area to retreat to, so the retreating units were "
                                         "destroyed (R214)")
        return
    cmd = _ask(ctx, combat, legal, units)
    dest = next(a for a in cmd.areas if a in legal)
    lost = pick_units(units, str(house), [s.unit for s in cmd.destroy for _ in range(s.count)])
    destroy_units(ctx, combat.area, lost, "retreat over the supply limit (R213)", in_combat=True)
    moving = retreating(ctx, combat)
    for u in moving:
        st.area_mut(combat.area).units.remove(u)
        u.routed = True
    st.area_mut(dest).units.extend(moving)
    combat.retreated_to = dest if moving else None
    ctx.emit(Retreated(house=str(house), from_area=combat.area, to_area=dest, units=units_text([u.type for u in moving])))


def _settle(ctx: Context, combat: Combat, house: str, reason: str) -> None:
    """The house's retreat answers meet a retreat with nothing to choose: refused, with the reason;
    those naming this combat are used up, the others wait for a later retreat."""
    ctx.settle("retreat", [house], lambda c: isinstance(c, Retreat) and matches(c.when, combat, house), reason,
               only_this=lambda c: isinstance(c, Retreat) and c.when is not None)


def _ask(ctx: Context, combat: Combat, legal: dict[str, int], units: list[Unit]) -> Retreat:
    house = str(combat.defender)
    have = Counter(u.type for u in units)
    pool = sorted((u.type for u in units), key=CHEAP_FIRST.index)

    def option(area: str) -> Retreat:
        return Retreat(areas=(area,), destroy=_spec(pool[: legal[area]]))

    options = tuple(option(a) for a in sorted(legal))
    forced = ""
    if combat.forced_retreat in legal:
        forced = f" ({ctx.board.area(str(combat.forced_retreat)).name}, chosen by Robb Stark)"
    req = Request(
        key=ctx.key("retreat", house), kind="retreat", house=house,
        prompt=f"retreat from {ctx.board.area(combat.area).name}{forced}",
        context={"combat_area": combat.area, "legal_areas": sorted(legal), "destroy_first": dict(sorted(legal.items())),
                 "units": dict(sorted(have.items()))},
        options=options, default=options[0],
    )

    def check(cmd: Command) -> Any:
        if not isinstance(cmd, Retreat) or not matches(cmd.when, combat, house):
            return NOT_APPLICABLE
        dest = next((a for a in cmd.areas if a in legal), None)
        if dest is None:
            return _why_none(ctx, combat, cmd, legal)
        need = legal[dest]
        named = Counter({s.unit: 0 for s in cmd.destroy})
        for s in cmd.destroy:
            named[s.unit] += s.count
        if sum(named.values()) != need:
            return (f"retreating to {ctx.board.area(dest).name} needs {need} unit(s) destroyed first to stay within "
                    f"supply, not {sum(named.values())} (R213)")
        for unit, n in named.items():
            if n > have[unit]:
                return f"you have {have[unit]} {unit}(s) able to retreat, not {n} (R213)"
        return None

    only = options[0] if len(options) == 1 and (legal[sorted(legal)[0]] == 0 or len(have) == 1) else None
    cmd = ctx.ask(Ask(req, check, only=only))
    assert isinstance(cmd, Retreat)
    return cmd


def _why_none(ctx: Context, combat: Combat, cmd: Retreat, legal: dict[str, int]) -> str:
    if not cmd.areas:
        return "name an area to retreat to (R209)"
    first = cmd.areas[0]
    if first not in ctx.board.areas:
        return f"there is no area {first!r} to retreat to (R210)"
    if combat.forced_retreat in legal:
        return (f"Robb Stark's owner chose {ctx.board.area(str(combat.forced_retreat)).name} for this retreat, as the "
                "card's text allows (R193)")
    reason = why_not_area(ctx, combat, first)
    if reason:
        return reason
    n = len(retreating(ctx, combat))
    if _to_destroy(ctx, combat, first, n) >= n:
        return f"the whole army would exceed your supply in {ctx.board.area(first).name} (R213)"
    return f"{ctx.board.area(first).name} would exceed your supply while another area would not (R213)"


def _spec(units: list[str]) -> tuple[UnitSpec, ...]:
    c = Counter(units)
    return tuple(UnitSpec(u, n) for u, n in sorted(c.items(), key=lambda x: CHEAP_FIRST.index(x[0])))

