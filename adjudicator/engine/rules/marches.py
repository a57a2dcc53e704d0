"""Resolve March Orders (R141-R160), with neutral forces (R231-R235) and control (R240-R248).

In turn order each house resolves one march per cycle. A ``March`` answer names the order's area,
which units go where, and whether to leave a power token in the area it vacates. The checks
here decide whether the march is legal; the attack itself, if any, is handed to
``rules.combat.resolve_combat`` after every other unit of the march has moved (R148).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ...game.board import LAND_UNITS, UNIT_TYPES, Board, HouseId
from ...game.commands import Command, March, order_bonus, order_kind
from ...game.state import GameState, Unit
from ..core.common import (
    ControlChanged,
    after_control_change,
    transport_reach,
    within_supply,
)
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.vassals import family_area_problem, family_holder
from ..events.action import (
    AttackDeclared,
    MarchResolved,
    PowerTokenDiscarded,
    PowerTokenPlaced,
    UnitsMoved,
)
from .cycle import next_in_cycle
from .planning import in_board_order
from .ports import capture_port


def _name(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)


def march_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas holding the house's march orders, in board order."""
    return in_board_order(board, [a for a, st in state.areas.items()
                                  if st.order and st.order.house == house and order_kind(st.order.token) == "march"])


def hostile(state: GameState, board: Board, house: HouseId, area: str) -> str | None:
    """Who the house would fight on entering ``area``: a house, ``"neutral force"``, or ``None``.

    Another house's units (R147), a neutral force (R231) or another house's garrison in its home
    area (R155) mean a combat. A lone power token (R154) or an empty home area without its
    garrison (ruling 7) do not.
    """
    st = state.area(area)
    others = [u.house for u in st.units if u.house != house]
    if others:
        return others[0]
    if st.neutral_force is not None:
        return "neutral force"
    home = state.garrison_owner(area, board)  # the home house's, or a box's garrison elsewhere
    if home and home != house:
        return home
    return None


def unit_strength(unit: str, castle: bool, dragon: int = 0) -> int:
    """Attacking strength: a siege engine counts 4 only against a castle or stronghold (R187, R236); a
    Mother of Dragons dragon ``dragon``, the strength tokens in the box (M089)."""
    return {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 4 if castle else 0, "dragon": dragon}[unit]


def sure_strength(state: GameState, board: Board, house: HouseId, area: str, units: list[Unit], token: str) -> int:
    """Strength the marcher can count on against a neutral force (R232, Q1, ruling 5).

    Its marching units, the march modifier, and its own support orders next to the area
    (never from a port, R185); support other houses may give comes on top at the combat.
    """
    castle = state.effective_area(area, board).has_castle
    dragon = state.dragon_strength(board)
    total = sum(unit_strength(u.type, castle, dragon) for u in units) + order_bonus(token)
    for a in board.neighbours[area]:
        order = state.area(a).order
        if order and order.house == house and order_kind(order.token) == "support" and not board.area(a).is_port:
            helpers = [u for u in state.area(a).units if u.house == house and not u.routed]
            total += sum(unit_strength(u.type, castle, dragon) for u in helpers) + order_bonus(order.token)
    return total


@dataclass
class MarchPlan:
    """A legal march, worked out: the units going to each area and the one attack, if any."""

    moves: dict[str, list[Unit]] = field(default_factory=dict)
    attack: str | None = None
    vacates: bool = False


def plan_march(state: GameState, board: Board, house: HouseId, cmd: March) -> tuple[str | None, MarchPlan]:
    """Check a march answer; return (why it is illegal, or ``None``; the plan)."""
    plan = MarchPlan()
    if cmd.origin not in board.areas:
        return f"there is no area {cmd.origin!r}, so no march order there (R141)", plan
    here = state.area(cmd.origin)
    if not here.order or here.order.house != house or order_kind(here.order.token) != "march":
        return f"you have no march order in {_name(board, cmd.origin)} (never placed, or already resolved) (R141)", plan
    why = _take_units(state, board, house, cmd, plan)
    for d, units in plan.moves.items():
        why = why or _destination_problem(state, board, house, cmd.origin, d, units)
    if why:
        return why, plan
    foes = [d for d in in_board_order(board, plan.moves) if hostile(state, board, house, d)]
    if len(foes) > 1:
        return (f"one march may enter only one area held by another house or a neutral force, not "
                f"{', '.join(_name(board, d) for d in foes)} (R146, R234)"), plan
    plan.attack = foes[0] if foes else None
    if plan.attack and hostile(state, board, house, plan.attack) == "neutral force":
        need = state.area(plan.attack).neutral_force or 0
        have = sure_strength(state, board, house, plan.attack, plan.moves[plan.attack], here.order.token)
        if have < need:
            return (f"your strength against the neutral force in {_name(board, plan.attack)} is {have}, less than its "
                    f"{need}: counting your marching units, the march order and your own support (R231, ruling 5)"), plan
    delta = {cmd.origin: -sum(len(u) for u in plan.moves.values())}
    for d, units in plan.moves.items():
        delta[d] = delta.get(d, 0) + len(units)
    if plan.moves and not within_supply(state, board, house, delta):
        return "the march would leave your armies beyond your supply limit (R153, ruling 6)", plan
    plan.vacates = not any(u.house == house for u in here.units if not _moving(plan, u))
    if cmd.leave_power and not state.is_vassal(house):  # a vassal's token is never chosen (M068)
        return _power_token_problem(state, board, house, cmd.origin, plan.vacates), plan
    return None, plan


def _take_units(state: GameState, board: Board, house: HouseId, cmd: March, plan: MarchPlan) -> str | None:
    """Pick the units each move names from the march's area into ``plan.moves`` (R142, R143, R152)."""
    here = state.area(cmd.origin)
    free = {t: [u for u in here.units if u.house == house and u.type == t and not u.routed] for t in UNIT_TYPES}
    wanted: dict[str, int] = {}
    for move in cmd.moves:
        if move.destination not in board.areas:
            return f"there is no area {move.destination!r} to march to (R144)"
        if move.destination == cmd.origin:
            return f"units that stay in {_name(board, cmd.origin)} need no move (R143)"
        for spec in move.units:
            if spec.unit not in UNIT_TYPES or spec.count < 1:
                return f"'{spec.count} {spec.unit}' is not a number of units (R142)"
            wanted[spec.unit] = wanted.get(spec.unit, 0) + spec.count
    for unit, n in wanted.items():
        if n > len(free[unit]):
            mine = sum(1 for u in here.units if u.house == house and u.type == unit)
            if mine >= n:
                return "routed units cannot march (R152)"
            return f"you have only {mine} {unit.replace('_', ' ')}(s) in {_name(board, cmd.origin)} (R142)"
    for move in cmd.moves:
        for spec in move.units:
            plan.moves.setdefault(move.destination, []).extend(free[spec.unit].pop(0) for _ in range(spec.count))
    return None


def _moving(plan: MarchPlan, unit: Unit) -> bool:
    return any(unit is u for units in plan.moves.values() for u in units)


def _destination_problem(state: GameState, board: Board, house: HouseId, origin: str, dest: str, units: list[Unit]) -> str | None:
    d = board.area(dest)
    if dest in state.impassable:
        return f"{d.name} is impassable all game (R235)"
    why = None if all(u.type == "dragon" for u in units) else family_entry_problem(state, board, house, dest)
    if why:  # a dragon's own refusal follows (ruling 249)
        return why
    if any(u.type == "ship" for u in units):
        if any(u.type != "ship" for u in units):
            return f"ships and land units cannot go to the same area ({d.name}) (R145)"
        if d.is_land:
            return f"ships never move onto land ({d.name}) (R145)"
        if not board.adjacent(origin, dest):
            return f"{d.name} is not adjacent to {_name(board, origin)}; ships are never transported (R144, R158)"
        if d.is_port:
            if state.controller(dest, board) != house:
                return f"ships may enter only a port whose land area you control, not {d.name} (R145, R253)"
            if len(state.area(dest).units) + len(units) > board.constants["port_max_ships"]:
                return f"{d.name} would hold more than {board.constants['port_max_ships']} ships (R250)"
        return None
    assert all(u.type in LAND_UNITS for u in units)
    flying = all(u.type == "dragon" for u in units)
    if not d.is_land:
        if flying:
            return f"a dragon flies only to a land area, never to a sea or a port ({d.name}) (M091, ruling 249)"
        return f"footmen, knights and siege engines never enter sea areas or ports ({d.name}) (R145)"
    if flying:
        if kin := family_holder(state, board, house, dest):  # a dragon flies to any other land area (M091)
            return (f"a dragon never flies into {d.name}: {kin.title()}, a vassal you command this round, controls it "
                    "(M069, ruling 249)")  # only Targaryen has dragons, and it is never a vassal (M075)
        return None
    if not board.adjacent(origin, dest) and dest not in transport_reach(state, board, house, origin):
        dragons = " (only dragons fly, M093)" if any(u.type == "dragon" for u in state.area(origin).units) else ""
        return (f"{d.name} is not adjacent to {_name(board, origin)} and no chain of your ships links them "
                f"(R144, R157, R159){dragons}")
    return None


def family_entry_problem(state: GameState, board: Board, house: HouseId, dest: str) -> str | None:
    """Mother of Dragons: why ``house`` may never enter ``dest`` this round, or ``None``. A vassal never
    marches into a port (M044, ruling 273), nor into an area its commander or a fellow vassal controls
    (M045); a commander never enters an area one of its vassals controls (M069, rulings 234, 243)."""
    if not state.vassals:
        return None
    d = board.area(dest)
    vassal = state.is_vassal(house)
    if vassal and d.is_port:
        return f"a vassal never marches into a port, not even its own ({d.name}) (M044, ruling 273)"
    return family_area_problem(state, board, house, dest)


def vassal_keeps_control(state: GameState, board: Board, house: HouseId, origin: str, plan: MarchPlan) -> bool:
    """M068, ruling 242: a vassal's march that leaves a land area empty puts one of the vassal's own
    power tokens from the pool there, unasked: not in its home area (held anyway, ruling 11), nor
    when the area has its token already or the vassal has none left in the pool (Q11)."""
    if not (state.is_vassal(house) and plan.vacates and plan.moves and board.area(origin).is_land):
        return False
    if state.area(origin).power_token == house or board.area(origin).home_of == house:
        return False
    room = board.power_cap(house) - state.houses[house].power - state.power_on_board(house)
    return room > 0


def _power_token_problem(state: GameState, board: Board, house: HouseId, origin: str, vacates: bool) -> str | None:
    a = board.area(origin)
    if not a.is_land:
        return f"power tokens are left only on land areas, not {a.name} (R241)"
    if not vacates:
        return f"your units do not all leave {a.name}, so no power token is placed there (R241)"
    if state.area(origin).power_token == house or a.home_of == house:
        return None  # ruling 11: control is already kept; no second token
    if state.houses[house].power < 1:
        return f"you have no available power to leave a token in {a.name} (R244)"
    return None


def march_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why a ``March`` answer cannot be used now, or ``None``."""
    if not isinstance(cmd, March):
        return NOT_APPLICABLE
    return plan_march(state, board, house, cmd)[0]


def destinations(state: GameState, board: Board, house: HouseId, origin: str) -> list[str]:
    """Areas the units of a march in ``origin`` could reach (for the request's context)."""
    units = {u.type for u in state.area(origin).units if u.house == house and not u.routed}
    out: set[str] = set()
    if "ship" in units:
        out |= {n for n in board.neighbours[origin] if board.area(n).is_sea
                or (board.area(n).is_port and state.controller(n, board) == house)}
    if units & LAND_UNITS:
        out |= {n for n in board.neighbours[origin] if board.area(n).is_land} | transport_reach(state, board, house, origin)
    if "dragon" in units:  # a dragon flies to any land area but its family's (M091, ruling 249)
        out |= {a.id for a in board.land_areas() if not family_holder(state, board, house, a.id)} - {origin}
    if state.vassals:  # M044, M045, M069
        out = {d for d in out if family_entry_problem(state, board, house, d) is None}
    return in_board_order(board, out - set(state.impassable))


def resolve_next_march(ctx: Context) -> bool:
    """R141: the next march of the cycle through the turn order; ``False`` when none is left."""
    st, board = ctx.state, ctx.board

    def one(house: HouseId) -> None:
        origins = march_orders(st, board, house)  # an order lost in a combat is gone
        resolve_march(ctx, house, ctx.ask(_march_ask(ctx, house, origins)))

    return next_in_cycle(ctx, lambda h: bool(march_orders(st, board, h)), one)


_MARCH_PROMPT = "resolve one of your march orders: which units go where, and whether to leave a power token"
# A vassal is never asked about its power token: one is left by itself where it is needed (M068, ruling 242).
_MARCH_PROMPT_VASSAL = ("resolve one of your march orders: which units go where (a land area it leaves empty "
                        "keeps a power token of its own, unasked, M068)")


def _march_ask(ctx: Context, house: HouseId, origins: list[str]) -> Ask:
    st, board = ctx.state, ctx.board
    movable = {o: [u.type for u in st.area(o).units if u.house == house and not u.routed] for o in origins}
    stay = March(origin=origins[0])
    req = Request(
        key=ctx.key("march", house), kind="march", house=house,
        prompt=_MARCH_PROMPT_VASSAL if st.is_vassal(house) else _MARCH_PROMPT,
        context={"march_orders": {o: st.area(o).order.token for o in origins},  # type: ignore[union-attr]
                 "units": movable, "destinations": {o: destinations(st, board, house, o) for o in origins}},
        default=stay,
    )
    # Routed units never move (R152): with nothing that can move, the march is simply removed.
    only = stay if not any(movable.values()) else None
    return Ask(req, lambda c: march_problem(st, board, house, c), only=only)


def resolve_march(ctx: Context, house: HouseId, cmd: March) -> None:
    """Move the units, settle the power token, then hand the attack to the combat (R148, R243)."""
    st, board = ctx.state, ctx.board
    why, plan = plan_march(st, board, house, cmd)
    assert why is None, why
    origin = st.area_mut(cmd.origin)
    assert origin.order is not None
    token = origin.order.token
    watched = [cmd.origin, *plan.moves]
    before = {a: st.controller(a, board) for a in watched}
    for dest in in_board_order(board, plan.moves):
        if dest != plan.attack:
            _enter(ctx, house, cmd.origin, dest, plan.moves[dest])
    if vassal_keeps_control(st, board, house, cmd.origin, plan):  # M068: no decision, no power spent
        from ..events.vassals import VassalTokenPlaced  # here: only a vassal's march places one (start-up)

        origin.power_token = house
        ctx.emit(VassalTokenPlaced(vassal=house, area=cmd.origin))
    elif cmd.leave_power and not st.is_vassal(house) and origin.power_token != house \
            and board.area(cmd.origin).home_of != house:
        st.houses[house].power -= 1
        origin.power_token = house
        ctx.emit(PowerTokenPlaced(house=house, area=cmd.origin))
    if plan.attack is None:
        origin.order = None
        ctx.emit(MarchResolved(house=house, origin=cmd.origin, token=token, moved=bool(plan.moves)))
    attackers = plan.moves[plan.attack] if plan.attack is not None else []
    _note_control(ctx, before)
    for dest in in_board_order(board, plan.moves):
        if dest != plan.attack:  # the attacking army counts where it attacks (ruling 6)
            capture_port(ctx, house, dest, supply_delta={cmd.origin: -len(attackers), plan.attack or dest: len(attackers)})
    after_control_change(ctx)
    if plan.attack is not None:
        ctx.emit(AttackDeclared(house=house, origin=cmd.origin, area=plan.attack, units=tuple(u.type for u in attackers),
                                token=token, defender=hostile(st, board, house, plan.attack) or ""))
        before = {a: st.controller(a, board) for a in watched}
        with _away(st, cmd.origin, attackers):  # the area the attackers left (ruling 19)
            _note_control(ctx, before)
            after_control_change(ctx)
            before = {a: st.controller(a, board) for a in watched}
        _hand_to_combat(ctx, area=plan.attack, attacker=house, origin=cmd.origin, units=attackers, march_token=token)
        _note_control(ctx, before)
        after_control_change(ctx)


def _away_steps(state: GameState, origin: str, attackers: list[Unit]) -> Iterator[None]:
    """Judge control as it stands while the attackers are away fighting (R148, R243, ruling 19).

    The engine keeps the attacking units in the area they marched from until their combat ends;
    for the rulebook they have left it, and an area they leave empty without a power token is
    lost before the combat: an enemy home area goes back to its house at once (R247), which may
    win by it (R036), and the marching house's ships in its port are removed (ruling 2).
    """
    units = state.area_mut(origin).units
    kept = list(units)
    units[:] = [u for u in kept if all(u is not a for a in attackers)]
    try:
        yield
    finally:
        units[:] = kept


_away = contextmanager(_away_steps)  # not a decorator: make mutate skips decorated functions


def _enter(ctx: Context, house: HouseId, origin: str, dest: str, units: list[Unit]) -> None:
    """Move units into an area without a combat; a lone enemy power token there is discarded (R154)."""
    st = ctx.state
    src = st.area_mut(origin)
    for u in units:
        src.units.remove(u)
    there = st.area_mut(dest)
    if there.power_token and there.power_token != house:
        ctx.emit(PowerTokenDiscarded(house=there.power_token, area=dest, by=house))
        there.power_token = None
    there.units.extend(units)
    ctx.emit(UnitsMoved(house=house, origin=origin, destination=dest, units=tuple(u.type for u in units)))


def _note_control(ctx: Context, before: dict[str, str | None]) -> None:
    for area, old in before.items():
        new = ctx.state.controller(area, ctx.board)
        if new != old and ctx.board.area(area).is_land:
            ctx.emit(ControlChanged(area=area, old=old or "", new=new or ""))


def _hand_to_combat(ctx: Context, **attack: object) -> None:
    # Looked up at call time: the combat lives in its own module (and tests may stand in for it).
    from . import combat
    from .combat_state import Attack

    combat.resolve_combat(ctx, Attack(**attack))  # type: ignore[arg-type]
