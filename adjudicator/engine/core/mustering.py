"""Mustering: new units from castles and strongholds (R067-R080).

A castle gives 1 mustering point, a stronghold 2. A footman costs 1, a knight or siege engine 2,
or 1 to upgrade a footman already in the area; a ship costs 1 and goes into the area's port or an
adjacent sea holding no enemy ship (the port is allowed even then, R076), never more than 3 in a
port. The box and the supply limits bound everything; points left over are lost.

The actions of one area are applied in the order given; each is checked against the board as the
earlier ones left it, so a check and its application can never disagree (ruling 72). The same two functions
serve the Mustering card, A Throne of Blades, The Horde Descends and the special Consolidate Power
order.

>>> from adjudicator.game.board import Board
>>> from adjudicator.game.commands import MusterAction
>>> from adjudicator.game.setup import new_game
>>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
>>> check_muster(s, Board.classic(), "lannister", "lannisport", (MusterAction(unit="knight"),), 2) is None
True
>>> check_muster(s, Board.classic(), "lannister", "lannisport", (MusterAction(unit="knight"), MusterAction(unit="footman")), 2)
'mustering this in Lannisport costs 3 points; it gives 2 (R068, R069)'
"""

from __future__ import annotations

import copy

from ...game.board import Board, HouseId
from ...game.commands import Command, Muster, MusterAction
from ...game.state import AreaState, GameState, Unit
from ..events.westeros import UnitsMustered
from .common import available_units, enemy_ships, within_supply
from .context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from .vassals import vassal_area_problem

COST = {"footman": 1, "knight": 2, "siege_engine": 2, "ship": 1}
UPGRADE_COST = 1
UPGRADES = ("knight", "siege_engine")


def cost(actions: tuple[MusterAction, ...]) -> int:
    """Mustering points a list of actions spends (R069)."""
    return sum(UPGRADE_COST if a.upgrade else COST.get(a.unit, 0) for a in actions)


def mustering_areas(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas with a castle or stronghold the house controls, by units or a power token (R067, R080)."""
    return sorted(a.id for a in state.land_areas(board) if a.has_castle and state.controller(a.id, board) == house)


def westeros_mustering_areas(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Where a Westeros card lets a house muster: its castle areas; a Mother of Dragons vassal only
    in its home area, and only while it controls it (M074, ruling 245)."""
    areas = mustering_areas(state, board, house)
    if state.vassals and state.is_vassal(house):
        return [a for a in areas if a == board.home_area(house)]
    return areas


def ship_places(state: GameState, board: Board, house: HouseId, area: str) -> list[str]:
    """Where a ship mustered by ``area`` may go now: its port, adjacent seas without enemy ships (R075-R077)."""
    a = board.area(area)
    places = []
    if a.port and a.port not in state.impassable \
            and sum(1 for u in state.area(a.port).units if u.type == "ship") < board.constants["port_max_ships"]:
        places.append(a.port)
    places += sorted(n for n in board.neighbours[area]  # a sea a setup blocked is out of play (ruling 444)
                     if board.area(n).is_sea and n not in state.impassable and not enemy_ships(state, house, n))
    return places


def check_muster(
    state: GameState, board: Board, house: HouseId, area: str, actions: tuple[MusterAction, ...], points: int
) -> str | None:
    """``None`` when the house may muster ``actions`` with ``points`` in ``area``, else why not."""
    a = state.effective_area(area, board)
    if not a.is_land or not a.has_castle:
        return f"{a.name} has no castle or stronghold to muster in (R068)"
    if state.controller(area, board) != house:
        return vassal_area_problem(state, board, house, area) or f"you do not control {a.name} (R067)"
    spent = cost(actions)
    if spent > points:
        return f"mustering this in {a.name} costs {spent} points; it gives {points} (R068, R069)"
    scratch = _scratch(state, board, area)
    for action in actions:
        reason, _ = _apply(scratch, board, house, area, action)
        if reason:
            return reason
    return None


def _scratch(state: GameState, board: Board, area: str) -> GameState:
    """A copy to try a muster in ``area`` on: only the areas it can change are copied.

    Mustering there changes only the area itself, its port and the seas next to it (R070, R075);
    copying those few instead of the whole board keeps the many legality checks cheap.
    """
    scratch = copy.copy(state)
    scratch.areas = dict(state.areas)
    port = board.area(area).port
    for touched in (area, *([port] if port else []), *board.neighbours[area]):
        st = state.areas.get(touched)
        if st is not None:
            scratch.areas[touched] = AreaState([Unit(u.house, u.type, u.routed) for u in st.units], st.order,
                                               st.power_token, st.garrison, st.neutral_force)  # fmt: skip
    return scratch


def mustered(state: GameState, board: Board, house: HouseId, area: str, actions: tuple[MusterAction, ...]) -> GameState:
    """A copy of the position with a legal muster carried out (for a player trying several areas)."""
    scratch = _scratch(state, board, area)
    for action in actions:
        _apply(scratch, board, house, area, action)
    return scratch


def _apply(state: GameState, board: Board, house: HouseId, area: str, action: MusterAction) -> tuple[str | None, str]:
    """Carry out one action on ``state``: (None, where the unit went), or (why not, "").

    After a refusal ``state`` may be half changed: callers apply to a scratch copy first.
    """
    unit, name = action.unit, board.area(area).name
    if unit == "dragon":
        return "dragons are never mustered: Targaryen has its three from the start (M087)", ""
    if unit not in COST:
        return f"{unit!r} is not a unit that can be mustered (R069)", ""
    if available_units(state, board, house, unit) < 1:
        return f"you have no {unit.replace('_', ' ')} left to muster (R079)", ""
    if action.upgrade:
        if unit not in UPGRADES:
            return f"only a knight or a siege engine can replace a footman, not a {unit.replace('_', ' ')} (R071)", ""
        units = state.area_mut(area).units
        # A standing footman first; a routed one may be upgraded too, and its knight stays routed (ruling 80).
        footman = min((u for u in units if u.house == house and u.type == "footman"), key=lambda u: u.routed, default=None)
        if footman is None:
            return f"there is no footman of yours in {name} to upgrade (R071)", ""
        units[units.index(footman)] = Unit(house, unit, routed=footman.routed)
        return None, area
    if unit == "ship":
        places = ship_places(state, board, house, area)
        dest = action.to if action.to is not None else (places[0] if len(places) == 1 else None)
        if dest is None:
            return f"say where the ship from {name} goes: {_names(board, places) or 'nowhere is open'} (R075)", ""
        if dest not in places:
            return _ship_refusal(state, board, house, area, dest), ""
    else:
        if action.to not in (None, area):
            return f"footmen, knights and siege engines are mustered into {name} itself, never elsewhere (R070, R078)", ""
        dest = area
    state.area_mut(dest).units.append(Unit(house, unit))
    if not within_supply(state, board, house):
        return f"a {unit.replace('_', ' ')} in {board.area(dest).name} would exceed your supply limit (R072)", ""
    return None, dest


def _ship_refusal(state: GameState, board: Board, house: HouseId, area: str, dest: str) -> str:
    a, d = board.area(area), board.area(dest) if dest in board.areas else None
    if d is None:
        return f"{dest!r} is not an area (R075)"
    if dest == a.port:
        if dest in state.impassable:
            return f"{d.name} cannot be used in this game (ruling 100)"
        return f"{d.name} already holds 3 ships (R077)"
    if d.is_sea and board.adjacent(area, dest) and dest in state.impassable:
        return f"{d.name} is out of play in this game (ruling 444)"
    if d.is_sea and board.adjacent(area, dest):
        return vassal_area_problem(state, board, house, dest) or \
            f"{d.name} holds enemy ships; no ship can be mustered there (R075)"
    return f"a ship from {a.name} goes into its own port or an adjacent sea, not {d.name} (R075)"


def _names(board: Board, areas: list[str]) -> str:
    return " or ".join(board.area(a).name for a in areas)


def muster(ctx: Context, house: HouseId, area: str, actions: tuple[MusterAction, ...], points: int) -> None:
    """Muster ``actions`` in ``area`` and say so publicly.

    :raises ValueError: when the actions are illegal (the caller must check first).
    """
    st, board = ctx.state, ctx.board
    reason = check_muster(st, board, house, area, actions, points)
    if reason:
        raise ValueError(reason)
    placed: list[tuple[str, str]] = []
    upgraded: list[str] = []
    for action in actions:
        _, dest = _apply(st, board, house, area, action)
        if action.upgrade:
            upgraded.append(action.unit)
        else:
            placed.append((action.unit, dest))
    ctx.emit(UnitsMustered(house=house, area=area, placed=tuple(placed), upgraded=tuple(upgraded)))


# --- asking ---------------------------------------------------------------------------------


def legal_single_actions(state: GameState, board: Board, house: HouseId, area: str, points: int) -> list[MusterAction]:
    """Every one-action muster that is legal now: what the request offers and the pass test."""
    candidates = [MusterAction(unit=u) for u in ("footman", "knight", "siege_engine")]
    candidates += [MusterAction(unit=u, upgrade=True) for u in UPGRADES]
    candidates += [MusterAction(unit="ship", to=p) for p in ship_places(state, board, house, area)]
    return [c for c in candidates if check_muster(state, board, house, area, (c,), points) is None]


def muster_request(board: Board, key: str, house: HouseId, area: str, points: int, singles: list[MusterAction],
                   others: tuple[str, ...] = ()) -> Request:
    """The request for one area's mustering, its options described by the legal single actions."""
    return Request(
        key=key, kind="muster", house=house,
        prompt=f"muster in {board.area(area).name} ({points} point{'s' if points != 1 else ''})",
        context={
            "area": area, "points": points,
            "units": sorted({a.unit for a in singles if not a.upgrade and a.unit != "ship"}),
            "upgrades": sorted({a.unit for a in singles if a.upgrade}),
            "ship_to": [a.to for a in singles if a.unit == "ship" and a.to],
            "then": list(others),
        },
        default=Muster(area=area),
    )


def ask_muster(ctx: Context, house: HouseId, area: str, points: int, *, others: tuple[str, ...] = (),
                refuse_elsewhere: bool = False) -> Muster:
    """Ask what the house musters in one area (a pass when nothing can be mustered there).

    ``others`` are the house's areas still to come. With ``refuse_elsewhere`` an answer for an
    area where the house cannot muster at all is refused with the reason, not left unread.
    """
    st, board = ctx.state, ctx.board
    key = ctx.key("muster", house)
    # A decision taken earlier in this phase is replayed as recorded: its options are not needed again.
    replayed = key in ctx.segment.decisions
    singles = [] if replayed else legal_single_actions(st, board, house, area, points)
    req = muster_request(board, key, house, area, points, singles, others)

    def check(c: Command) -> Verdict | object:
        if not isinstance(c, Muster) or (c.area != area and not refuse_elsewhere):
            return NOT_APPLICABLE
        if c.area != area:
            if c.area in others or c.area not in board.areas:
                return NOT_APPLICABLE if c.area in others else f"{c.area!r} is not an area (R067)"
            why = check_muster(st, board, house, c.area, (), 0)
            if why is None and st.vassals and st.is_vassal(house):
                return (f"a Westeros card musters for a vassal only in its home area, {board.area(area).name}, "
                        f"not in {board.area(c.area).name} (M074, ruling 245)")
            return why or NOT_APPLICABLE
        return first_muster(st, board, house, area, c, points)[1]

    cmd = ctx.ask(Ask(req, check, only=Muster(area=area) if not singles and not replayed else None))
    assert isinstance(cmd, Muster)
    if cmd.otherwise:  # the first of its fall-backs that can be mustered (ruling 357)
        cmd = Muster(area=area, actions=first_muster(st, board, house, area, cmd, points)[0])
    return cmd


def first_muster(state: GameState, board: Board, house: HouseId, area: str, cmd: Muster,
                 points: int) -> tuple[tuple[MusterAction, ...], str | None]:
    """The first of a muster's choices that is legal now (ruling 357) and ``None``; or, when none is, the
    first choice and why it cannot be (with every choice's reason when it has fall-backs)."""
    reasons = []
    for actions in cmd.choices():
        why = check_muster(state, board, house, area, actions, points)
        if why is None:
            return actions, None
        reasons.append(why)
    if len(reasons) == 1:
        return cmd.actions, reasons[0]
    return cmd.actions, "no choice of this line can be mustered: " + "; ".join(reasons)


def run_mustering(ctx: Context) -> None:
    """Every house in turn order musters in each of its areas, finishing before the next (R067, R074);
    a vassal, for which its commander answers, in its home area only (M074)."""
    for house in ctx.state.turn_order():
        areas = westeros_mustering_areas(ctx.state, ctx.board, house)
        for i, area in enumerate(areas):
            points = ctx.state.effective_area(area, ctx.board).muster_points
            cmd = ask_muster(ctx, house, area, points, others=tuple(areas[i + 1:]), refuse_elsewhere=i == 0)
            muster(ctx, house, area, cmd.actions, points)
