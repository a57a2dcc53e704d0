"""Resolve Consolidate Power Orders (R161-R166): in turn order, one per house per cycle.

A ``Consolidate`` answer names the order's area; ``muster`` set means a special order
(``consolidate*``) musters in its own castle or stronghold area instead of taking power (R165).
Mustering itself is the mustering module's (``engine/core/mustering.py``).

Mother of Dragons: a vassal's Defense 1/Muster order is resolved in this step too, at the vassal's
place in turn order (M051, M056): its commander musters with it (``for tyrell: consolidate in
Highgarden: muster footman``) or keeps it as a defense order (``for tyrell: consolidate in
Highgarden``, the default). It is never offered in a port or an area without a castle (M052, M053).
"""

from __future__ import annotations

from types import ModuleType

from ...game.board import Board, HouseId
from ...game.commands import VASSAL_KEPT_TOKENS, Command, Consolidate, IronBank, order_kind
from ...game.state import GameState, Order
from ..core.common import enemy_ships, gain_power
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..events.action import ConsolidateResolved
from ..events.vassals import VassalMusterDeclined, VassalMustered
from .cycle import next_in_cycle
from .iron_bank import iron_bank_orders, resolve_iron_bank, with_iron_bank
from .planning import in_board_order


def _mustering() -> ModuleType | None:
    """The mustering rules, when that module is present."""
    try:
        from ..core import mustering
    except ImportError:
        return None
    return mustering


def _name(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)


def consolidate_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas holding the house's consolidate power orders, in board order."""
    return in_board_order(board, [a for a, st in state.areas.items()
                                  if st.order and st.order.house == house and order_kind(st.order.token) == "consolidate"])


def defense_muster_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas where the house's Defense 1/Muster order may still muster (M051-M053), in board order."""
    if not state.vassals:
        return []
    return in_board_order(board, [a for a, st in state.areas.items()
                                  if st.order and st.order == Order(house, "vassal_defense_muster")
                                  and defense_muster_problem(state, board, a) is None])


def defense_muster_problem(state: GameState, board: Board, area: str) -> str | None:
    """Why a Defense 1/Muster order in ``area`` can never muster, or ``None`` (M052, M053)."""
    a = state.effective_area(area, board)
    if a.is_port:
        return f"a Defense 1/Muster order in a port ({a.name}) has no effect at all (M053, ruling 271)"
    if not a.is_land or not a.has_castle:
        return (f"{a.name} has no castle or stronghold, and the Defense 1/Muster order gives it none: nothing can be "
                "mustered there (M052)")
    if _mustering() is None:
        return "mustering is not available yet: the mustering rules are missing (M051)"
    return None


def vassal_muster_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why a vassal's ``Consolidate`` answer cannot be used now, or ``None`` (M051-M053, ruling 272)."""
    if not isinstance(cmd, Consolidate):
        return NOT_APPLICABLE
    if cmd.area not in board.areas:
        return f"there is no area {cmd.area!r}, so no Defense 1/Muster order there (M051)"
    if state.area(cmd.area).order != Order(house, "vassal_defense_muster"):
        return (f"{house.title()} has no Defense 1/Muster order left in {_name(board, cmd.area)} to muster with "
                "(M051, ruling 272)")
    why = defense_muster_problem(state, board, cmd.area)
    if why or cmd.muster is None:
        return why
    mustering = _mustering()
    assert mustering is not None
    verdict: str | None = mustering.check_muster(state, board, house, cmd.area, cmd.muster,
                                                    state.effective_area(cmd.area, board).muster_points)
    return f"{verdict} (M051, ruling 272)" if verdict else None


def can_muster(state: GameState, board: Board, house: HouseId, area: str) -> str | None:
    """Why the order in ``area`` cannot muster, or ``None`` (R165)."""
    order = state.area(area).order
    a = state.effective_area(area, board)
    if not order or order.token != "consolidate*":
        return f"only a special consolidate power order can muster; {a.name} holds {order.token if order else 'none'} (R165)"
    if a.is_port:
        return f"a special consolidate power order in {a.name} cannot muster, only take power (R165)"
    if not a.has_castle:
        return f"{a.name} has no castle or stronghold, so nothing can be mustered there (R165)"
    if _mustering() is None:
        return "special mustering is not available yet: the mustering rules are missing (R165)"
    return None


def consolidate_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why a ``Consolidate`` answer cannot be used now, or ``None``."""
    if not isinstance(cmd, Consolidate):
        return NOT_APPLICABLE
    if cmd.area not in board.areas:
        return f"there is no area {cmd.area!r}, so no consolidate power order there (R161)"
    order = state.area(cmd.area).order
    if not order or order.house != house or order_kind(order.token) != "consolidate":
        return f"you have no consolidate power order in {_name(board, cmd.area)} (never placed, or raided) (R161, R166)"
    if cmd.muster is None:
        return None
    why = can_muster(state, board, house, cmd.area)
    if why:
        return why
    mustering = _mustering()
    assert mustering is not None
    verdict: str | None = mustering.check_muster(state, board, house, cmd.area, cmd.muster,
                                                    state.effective_area(cmd.area, board).muster_points)
    return verdict


def resolve_next_consolidation(ctx: Context) -> bool:
    """R161: the next consolidate power order of the cycle; ``False`` when none is left."""
    st, board = ctx.state, ctx.board

    def one(house: HouseId) -> None:
        if defense_muster_orders(st, board, house):  # a vassal holds no other order of this step
            resolve_defense_muster(ctx, house, ctx.ask(_defense_muster_ask(ctx, house)))
            return
        areas = consolidate_orders(st, board, house)
        banks = iron_bank_orders(st, board, house)  # Mother of Dragons: resolved in this cycle too (M117)
        base = _consolidate_ask(ctx, house, areas) if areas else None
        ask = with_iron_bank(ctx, house, banks, base) if banks else base
        assert ask is not None
        cmd = ctx.ask(ask)
        if isinstance(cmd, IronBank):
            resolve_iron_bank(ctx, house, cmd)
        else:
            resolve_consolidate(ctx, house, cmd)

    return next_in_cycle(ctx, lambda h: bool(consolidate_orders(st, board, h) or iron_bank_orders(st, board, h)
                                             or defense_muster_orders(st, board, h)), one)


def _defense_muster_ask(ctx: Context, house: HouseId) -> Ask:
    """M051: muster with the vassal's Defense 1/Muster order, or keep it as a defense order (the default)."""
    st, board = ctx.state, ctx.board
    area = defense_muster_orders(st, board, house)[0]
    points = st.effective_area(area, board).muster_points
    mustering = _mustering()
    assert mustering is not None
    singles = mustering.legal_single_actions(st, board, house, area, points)
    keep = Consolidate(area=area)
    req = Request(
        key=ctx.key("consolidate", house), kind="consolidate", house=house,
        prompt=(f"muster with your Defense 1/Muster order in {board.area(area).name} ({points} point"
                f"{'s' if points != 1 else ''}), or keep it as a defense order (M051)"),
        context={"defense_muster": area, "points": points, "may_muster": {area: points}},
        options=(*(Consolidate(area=area, muster=(a,)) for a in singles), keep), default=keep,
    )
    return Ask(req, lambda c: vassal_muster_problem(st, board, house, c), only=None if singles else keep)


def resolve_defense_muster(ctx: Context, house: HouseId, cmd: Consolidate) -> None:
    """M051: muster and remove the token; or keep it on the board as a defense order (ruling 272)."""
    st, board = ctx.state, ctx.board
    here = st.area_mut(cmd.area)
    if cmd.muster is None:
        here.order = Order(house, VASSAL_KEPT_TOKENS["vassal_defense_muster"])
        ctx.emit(VassalMusterDeclined(vassal=house, area=cmd.area))
        return
    here.order = None
    mustering = _mustering()
    assert mustering is not None
    ctx.emit(VassalMustered(vassal=house, area=cmd.area))
    mustering.muster(ctx, house, cmd.area, cmd.muster, st.effective_area(cmd.area, board).muster_points)


def _consolidate_ask(ctx: Context, house: HouseId, areas: list[str]) -> Ask:
    st, board = ctx.state, ctx.board
    musters = [a for a in areas if can_muster(st, board, house, a) is None]
    first = Consolidate(area=areas[0])
    req = Request(
        key=ctx.key("consolidate", house), kind="consolidate", house=house,
        prompt="resolve one of your consolidate power orders (a special one may muster instead)",
        context={"consolidate_orders": {a: st.area(a).order.token for a in areas},  # type: ignore[union-attr]
                 "may_muster": {a: st.effective_area(a, board).muster_points for a in musters}},
        options=tuple(Consolidate(area=a) for a in areas), default=first,
    )
    # The choice matters only for mustering, or for a port whose sea may still fill with enemy ships.
    matters = musters or (len(areas) > 1 and any(board.area(a).is_port for a in areas))
    return Ask(req, lambda c: consolidate_problem(st, board, house, c), only=None if matters else first)


def resolve_consolidate(ctx: Context, house: HouseId, cmd: Consolidate) -> None:
    """Take power (R162-R164) or muster (R165); the order is removed either way."""
    st, board = ctx.state, ctx.board
    here = st.area_mut(cmd.area)
    assert here.order is not None
    token, here.order = here.order.token, None
    a = st.effective_area(cmd.area, board)
    if cmd.muster is not None:
        mustering = _mustering()
        assert mustering is not None
        ctx.emit(ConsolidateResolved(house=house, area=cmd.area, token=token, result="muster"))
        mustering.muster(ctx, house, cmd.area, cmd.muster, a.muster_points)
        return
    if a.is_sea:
        ctx.emit(ConsolidateResolved(house=house, area=cmd.area, token=token, result="no effect: orders at sea gather nothing (R163)"))
        return
    if a.is_port and a.opens_onto and enemy_ships(st, house, a.opens_onto):
        ctx.emit(ConsolidateResolved(house=house, area=cmd.area, token=token,
                                     result=f"no effect: enemy ships are in {_name(board, a.opens_onto)} (R164)"))
        return
    got = gain_power(ctx, house, 1 + a.power, f"consolidate power in {a.name}")
    ctx.emit(ConsolidateResolved(house=house, area=cmd.area, token=token, result="power", gained=got))
