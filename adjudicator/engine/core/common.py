"""Rules shared by every phase: supply, power, control, ports, ship transport, victory.

Each function is a small, pure query or a change to ``ctx.state`` with the events it causes.
"""

from __future__ import annotations

from collections import Counter

from ...game.board import Board, HouseId
from ...game.hooks import hooked
from ...game.state import GameState, Unit
from ..events.common import ControlChanged as ControlChanged  # the events of these rules, kept with the others
from ..events.common import GameWon as GameWon
from ..events.common import PowerChanged as PowerChanged
from ..events.common import UnitsDestroyed as UnitsDestroyed
from .context import Context, GameOver

UNIT_STRENGTH = {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 0}


# --- supply (R058-R066, R238) ----------------------------------------------------------------


def army_sizes(state: GameState, house: HouseId, delta: dict[str, int] | None = None) -> list[int]:
    """Sizes of the house's armies (2+ units in one area), after adding ``delta`` per area."""
    counts: Counter[str] = Counter()
    for area, st in state.areas.items():
        n = sum(1 for u in st.units if u.house == house)
        if n:
            counts[area] = n
    for area, d in (delta or {}).items():
        counts[area] += d
    return sorted((n for n in counts.values() if n >= 2), reverse=True)


def fits_supply(sizes: list[int], limits: tuple[int, ...]) -> bool:
    """True when every army fits a column of the supply track (R059, R061)."""
    if len(sizes) > len(limits):
        return False
    return all(s <= lim for s, lim in zip(sorted(sizes, reverse=True), limits))


def within_supply(state: GameState, board: Board, house: HouseId, delta: dict[str, int] | None = None) -> bool:
    """Would the house's armies fit its current supply level after ``delta`` (R064, R238)?"""
    return fits_supply(army_sizes(state, house, delta), board.supply_limits(state.houses[house].supply))


def supply_count(state: GameState, board: Board, house: HouseId) -> int:
    """Barrels in the land areas the house controls, at most 6 (R058)."""
    total = sum(a.supply for a in state.land_areas(board) if state.controller(a.id, board) == house)
    return min(total, int(board.constants["supply_track_max"]))


# --- power (R008, R009, Q11) -----------------------------------------------------------------


def gain_power(ctx: Context, house: HouseId, amount: int, cause: str) -> int:
    """Take power from the pool; a house has 20 tokens in all, so it may get fewer (Q11).

    A Mother of Dragons vassal never collects power (M067): it gets none.
    """
    st = ctx.state
    if st.vassals and st.is_vassal(house):
        return 0
    room = ctx.board.power_cap(house) - st.houses[house].power - st.power_on_board(house)
    got = max(0, min(amount, room))
    st.houses[house].power += got
    if got or amount:
        ctx.emit(PowerChanged(house=house, amount=got, cause=cause, power=st.houses[house].power, asked=amount))
    return got


def lose_power(ctx: Context, house: HouseId, amount: int, cause: str) -> int:
    """Discard available power to the pool, as much as the house has."""
    st = ctx.state
    lost = max(0, min(amount, st.houses[house].power))
    st.houses[house].power -= lost
    ctx.emit(PowerChanged(house=house, amount=-lost, cause=cause, power=st.houses[house].power, asked=-amount))
    return lost


# --- units ------------------------------------------------------------------------------------


def destroy_units(
    ctx: Context, area: str, units: list[Unit], cause: str, *, reported_in: str | None = None, in_combat: bool = False
) -> None:
    """Remove units from the board (they go back to their house's supply, R010).

    ``reported_in`` names the area the event reports: an attacker's casualties stand in their
    origin until the combat ends, but a player reads them as lost in the embattled area.
    An order left without units goes with them, except ``in_combat``: there an order leaves the
    board when its combat is over (R220, R221, ruling 50), so a Defense or March order still
    counts after its last unit fell to Mace Tyrell or a casualty.
    """
    if not units:
        return
    st = ctx.state.area_mut(area)
    for u in units:
        st.units.remove(u)
    if not st.units and not in_combat:
        st.order = None if st.order and st.order.house == units[0].house else st.order
    ctx.emit(UnitsDestroyed(house=units[0].house, area=reported_in or area, units=tuple(u.type for u in units),
                            cause=cause))


def available_units(state: GameState, board: Board, house: HouseId, unit: str) -> int:
    """Units of a type still in the house's box (R011, R079)."""
    return board.unit_limit(unit, house) - sum(1 for _, u in state.units_of(house) if u.type == unit)


# --- movement helpers -------------------------------------------------------------------------


def transport_reach(state: GameState, board: Board, house: HouseId, origin: str) -> set[str]:
    """Land areas reachable from ``origin`` by ship transport over the house's own ships (R157).

    Routed ships transport too (R158); ports never carry. The origin itself is not included.
    """
    seas = {a for a in board.neighbours[origin] if board.area(a).is_sea and _friendly_ships(state, house, a)}
    seen = set(seas)
    frontier = list(seas)
    while frontier:
        sea = frontier.pop()
        for n in board.neighbours[sea]:
            if board.area(n).is_sea and n not in seen and _friendly_ships(state, house, n):
                seen.add(n)
                frontier.append(n)
    reach = {n for s in seen for n in board.neighbours[s] if board.area(n).is_land}
    reach.discard(origin)
    return reach


def _friendly_ships(state: GameState, house: HouseId, area: str) -> bool:
    return any(u.house == house and u.type == "ship" for u in state.area(area).units)


def enemy_ships(state: GameState, house: HouseId, area: str) -> bool:
    return any(u.house != house and u.type == "ship" for u in state.area(area).units)


# --- control, ports and victory (R036, R240-R248) ---------------------------------------------


def check_ports(ctx: Context, cause: str = "their port's land area is held by another house") -> None:
    """Ships in a port whose land area another house controls are removed (R246, R249).

    Runs after every change of control; a conqueror's chance to replace them (R246) is taken by
    the combat before this runs.
    """
    st, board = ctx.state, ctx.board
    for port in board.ports():
        ships = st.area(port.id).units
        if not ships:
            continue
        owner = st.controller(port.port_of or "", board)
        if owner is not None and owner != ships[0].house:
            destroy_units(ctx, port.id, list(ships), cause)


def check_victory(ctx: Context) -> None:
    """Seven castles or strongholds win at once (R036, R262); Targaryen wins on space 7 of the
    victory track instead, which castles never give it (M076, M080).

    :raises GameOver: when a house has won; the state records the winner.
    """
    st, board = ctx.state, ctx.board
    if st.box.has("objectives"):  # points of objectives win, after the Action Phase; castles never (F045)
        return
    need = st.victory_target(board)
    held = Counter(st.controller(a.id, board) for a in st.land_areas(board) if a.has_castle)  # castles(h) for all h at once
    # A box's own count: the houses castles never win for, and who wins by it (Mother of Dragons: Targaryen
    # counts its own track, M076, M080).
    counted = [count(st, board) for count in hooked("victory_counted", st.box)]
    apart = {h for houses, _ in counted for h in houses}
    # A vassal holding seven castles wins nothing (M070).
    winners = [h for h in st.turn_order() if held[h] >= need and h not in apart and not st.is_vassal(h)]
    reason = f"{need} castles and strongholds"
    for _, won in counted:
        if not winners and won is not None:
            winners, reason = [won[0]], won[1]
    if winners:
        win = winners[0]
        st.winner = win
        st.phase = "game_over"
        ctx.emit(GameWon(winner=win, round=st.round, reason=reason))
        raise GameOver


def after_control_change(ctx: Context) -> None:
    """What must be re-checked whenever control of an area may have changed: ports, a box's own parts
    (Mother of Dragons: Targaryen's loyalty tokens and Pentos, before the victory check, ruling 246;
    the Braavos token, M113), victory."""
    check_ports(ctx)
    for follow in hooked("control_changed", ctx.state.box):
        follow(ctx)
    check_victory(ctx)
