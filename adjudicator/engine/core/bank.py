"""What the Iron Bank's rules and its loans share (Mother of Dragons, M103-M121): loan costs,
improvement tokens and placing a loan's units.

Everything here is a query or a small change to ``ctx.state`` with its events; the Iron Bank order,
the slots and interest are the phase's (``engine/rules/iron_bank.py``), each loan's ability is a
card's (``engine/cards/loans.py``).
"""

from __future__ import annotations

from ...game.board import Board, HouseId
from ...game.mod_board import MOD
from ...game.state import GameState, Unit
from ..events.bank import ImprovementPlaced, UnitsPlaced
from .common import available_units, within_supply
from .context import Context
from .vassals import vassal_area_problem


def bank_in_play(state: GameState) -> bool:
    """M103: the Iron Bank is in play only with Targaryen (its slots are laid at setup, M024)."""
    return bool(state.loan_slots)


def slot_costs() -> list[int]:
    """M105: the cost printed above each slot, left to right."""
    return [int(c) for c in MOD.iron_bank["slot_costs_left_to_right"]]


def loan_cost(state: GameState, board: Board, house: HouseId, slot: int) -> int:
    """What the loan in ``slot`` (0-based) costs ``house``: the slot's cost, 1 less for the Braavos
    token's holder, never below 0 (M105, M112, ruling 255)."""
    cost = slot_costs()[slot]
    if state.braavos_token == house:
        cost -= int(MOD.iron_bank["braavos_discount"])
    return max(0, cost)


# --- improvement and degradation tokens (M119, M120, ruling 260) --------------------------------


def improvement_tokens_left(state: GameState, board: Board) -> int:
    """The box's 15 two-sided tokens less those on the board."""
    total = int(MOD.constants["area_improvement_tokens"])
    return total - sum(len(s.improvements) for s in state.areas.values())


def place_improvement(ctx: Context, area: str, token: str, cause: str) -> None:
    """Put one improvement or degradation token on an area, if the box has one left (else the
    improvement is lost, ruling 260)."""
    if improvement_tokens_left(ctx.state, ctx.board) <= 0:
        return
    ctx.state.area_mut(area).improvements.append(token)
    ctx.emit(ImprovementPlaced(area=area, token=token, cause=cause))


def has_castle_only(state: GameState, board: Board, area: str) -> bool:
    """The area counts now as having a castle, not a stronghold (Master-at-Arms, Pyromancer, ruling 219)."""
    return board.areas[area].kind == "land" and state.effective_area(area, board).fortification == "castle"


# --- placing a loan's units (ruling 219) -------------------------------------------------------


def placement_problem(state: GameState, board: Board, house: HouseId, area: str, unit: str) -> str | None:
    """Why ``house`` cannot place one ``unit`` from a loan in ``area`` now, or ``None`` (ruling 219).

    Land units go into land areas the house controls; ships into sea areas where it has ships, or the
    port of a land area it controls (3 ships at most, R250). Never where another house has units, nor
    into an area its vassal controls (M069); unit limits (R011) and supply (R238) apply.
    """
    if area not in board.areas:
        return f"there is no area {area!r} (ruling 219)"
    a = board.areas[area]
    name = a.name
    if why := vassal_area_problem(state, board, house, area):  # an area of one's vassal (M069, ruling 243)
        return why
    here = state.area(area).units
    if any(u.house != house for u in here):
        return f"{name} holds another house's units; a loan's units go only where no other house is (ruling 219)"
    if unit == "ship":
        if a.kind == "sea":
            if not any(u.house == house and u.type == "ship" for u in here):
                return f"a loan's ship goes into a sea area where you already have ships, and {name} has none of yours (ruling 219)"
        elif a.kind == "port":
            if state.controller(a.port_of or "", board) != house:
                return f"{name} is the port of an area you do not control (ruling 219)"
            if len(here) >= 3:
                return f"{name} already holds 3 ships, the most a port holds (R250)"
        else:
            return f"a ship cannot be placed on the land area {name} (ruling 219)"
    else:
        if a.kind != "land":
            return f"a {unit.replace('_', ' ')} goes on land, not into {name} (ruling 219)"
        if state.controller(area, board) != house:
            return f"you do not control {name}; a loan's units go only into areas you control or have units in (ruling 219)"
    if available_units(state, board, house, unit) <= 0:
        return f"you have no {unit.replace('_', ' ')} left to place (R011)"
    if not within_supply(state, board, house, {area: 1}):
        return f"a {unit.replace('_', ' ')} more in {name} would exceed your supply (R238)"
    return None


def place_unit(ctx: Context, house: HouseId, area: str, unit: str, cause: str) -> None:
    ctx.state.area_mut(area).units.append(Unit(house, unit))
    ctx.emit(UnitsPlaced(house=house, area=area, units=(unit,), cause=cause))

