"""Mother of Dragons' vassals in the Planning phase: choosing who commands them (M032-M038) and
their orders (M039-M040).

At the start of every Planning phase the commands of the round before end, the sets of vassal
orders are dealt to the highest players, and in Iron Throne order each set holder takes a vassal
or passes the set down; the last player takes the rest. Then each commander orders its vassals in
the same secret round as its own orders (ruling 231): up to 2 tokens from the vassal's own set
(ruling 230), on areas with that vassal's units, written ``for tyrell: Highgarden: vassal march``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...game.board import Board, HouseId
from ...game.commands import (
    VASSAL_ORDER_TOKENS,
    AssignOrder,
    Command,
    CommandVassal,
    LeaveUnordered,
    order_kinds,
)
from ...game.hooks import register
from ...game.mod_setup import deal_vassal_sets
from ...game.state import GameState, Order
from ..core.context import NOT_APPLICABLE, Ask, Composed, Context, PoolEntry, Request, Verdict
from ..events import AnswerUnusable, AnswerUsed, Event, house_name
from ..events.vassals import VassalCommanded, VassalSetPassed

MAX_VASSAL_ORDERS = 2  # M039


def _never(cmd: Command) -> Verdict:
    return NOT_APPLICABLE


# --- choosing vassals (M032-M038) -------------------------------------------------------------


def choose_vassals(ctx: Context) -> None:
    """M032-M038: every command ends; the sets are dealt; each holder takes a vassal or passes."""
    st = ctx.state
    if not st.vassals:
        return
    st.commanders = {}  # M032
    players = [h for h in st.turn_order() if h not in st.vassals]
    st.vassal_sets = sorted(deal_vassal_sets(st), key=players.index)  # M033; in turn order (M034, M036)
    while st.vassal_sets:
        holder = st.vassal_sets[0]
        free = [v for v in st.turn_order() if v in st.vassals and v not in st.commanders]
        if holder == players[-1]:  # M037: the last player may not pass and takes the rest
            for v in free:
                st.commanders[v] = holder
                ctx.emit(VassalCommanded(vassal=v, commander=holder, rest=True))
            st.vassal_sets = []
            break
        cmd = ctx.ask(_choice_ask(ctx, holder, free))
        assert isinstance(cmd, CommandVassal)
        vassal = picked(cmd, free)
        if vassal is None:  # M035: the set goes to the next player below
            below = players[players.index(holder) + 1]
            st.vassal_sets = sorted([below, *st.vassal_sets[1:]], key=players.index)
            ctx.emit(VassalSetPassed(house=holder, to=below))
            continue
        st.commanders[vassal] = holder
        st.vassal_sets.pop(0)
        ctx.emit(VassalCommanded(vassal=vassal, commander=holder))


def picked(cmd: CommandVassal, free: list[HouseId]) -> HouseId | None:
    """The vassal a ``command`` line takes: its first pick still free, ``None`` to pass (ruling 296)."""
    return next((v for v in cmd.picks() if v is None or v in free), None)


def choice_problem(state: GameState, free: list[HouseId], cmd: Command) -> Verdict:
    """Why a ``command VASSAL`` answer cannot be used now, or ``None``."""
    if not isinstance(cmd, CommandVassal):
        return NOT_APPLICABLE
    if any(v is None or v in free for v in cmd.picks()):
        return None
    if cmd.otherwise or cmd.vassal is None:
        named = ", ".join(house_name(v) for v in cmd.picks() if v is not None)
        return (f"none of {named} is free now; choose one of {', '.join(house_name(v) for v in free)} "
                "or pass (M034, ruling 296)")
    if cmd.vassal not in state.vassals:
        listed = ", ".join(house_name(v) for v in free)
        return f"{house_name(cmd.vassal)} is not a vassal; the vassals nobody commands yet are {listed} (M034)"
    return (f"{house_name(cmd.vassal)} is commanded by {house_name(state.commanders[cmd.vassal])} already; "
            f"choose one of {', '.join(house_name(v) for v in free)} or pass (M034)")


def _choice_ask(ctx: Context, holder: HouseId, free: list[HouseId]) -> Ask:
    st = ctx.state
    options = (*(CommandVassal(vassal=v) for v in free), CommandVassal(vassal=None))
    req = Request(
        key=ctx.key("vassal_choice", holder), kind="vassal_choice", house=holder,
        prompt="with your set of vassal orders, command one of the vassals nobody commands yet, or pass it on",
        context={"vassals": list(free), "sets_left": len(st.vassal_sets)},
        options=options, default=CommandVassal(vassal=None),
    )
    return Ask(req, lambda c: choice_problem(st, free, c))


# --- ordering vassals (M039-M040) -------------------------------------------------------------


def vassal_areas(state: GameState, board: Board, vassal: HouseId) -> list[str]:
    """The areas holding the vassal's units, in board order (M040)."""
    return [a for a in board.areas if any(u.house == vassal for u in state.area(a).units)]


def is_banned_vassal(token: str, restrictions: list[str]) -> bool:
    """Ruling 233: a ban on either half of a two-faced vassal token forbids it."""
    return any(r == token or r in order_kinds(token) for r in restrictions)


def vassal_line_problem(state: GameState, board: Board, vassal: HouseId, areas: list[str], cmd: Command) -> Verdict:
    """Why one order line for a vassal cannot be used, or ``None``."""
    if not isinstance(cmd, (AssignOrder, LeaveUnordered)):
        return NOT_APPLICABLE
    if cmd.area not in areas:
        where = board.area(cmd.area).name if cmd.area in board.areas else repr(cmd.area)
        return f"{house_name(vassal)} has no units in {where}; a vassal order goes only on its own units (M040)"
    if isinstance(cmd, LeaveUnordered):
        return None
    if cmd.token not in VASSAL_ORDER_TOKENS:
        return ("a vassal is ordered only with its vassal order tokens: vassal march, vassal raid support, "
                "vassal defense muster, vassal defense 3 (M039, ruling 230)")
    if is_banned_vassal(cmd.token, state.restrictions):
        return "a Westeros card forbids an order this token is this round (ruling 233, M046, M050)"
    return None


def compose_vassal_orders(state: GameState, board: Board, vassal: HouseId, areas: list[str], decision: str,
                          entries: list[PoolEntry]) -> Composed:
    """A vassal's orders from its commander's ``for VASSAL:`` lines: the newest per area (M039)."""
    events: list[Event] = []
    chosen: dict[str, PoolEntry] = {}
    for e in entries:
        why = vassal_line_problem(state, board, vassal, areas, e.command)
        if why is NOT_APPLICABLE:
            continue
        if why:
            events.append(AnswerUnusable(house=vassal, answer=e.text, reason=str(why), ids=(e.id,)))
            continue
        chosen[e.command.area] = e  # type: ignore[attr-defined]
    if not chosen:
        return Composed(None, events, [])
    tokens = [e.command.token for e in chosen.values() if isinstance(e.command, AssignOrder)]
    texts = "; ".join(e.text for e in chosen.values())
    ids = tuple(e.id for e in chosen.values())
    why = None
    if len(tokens) > MAX_VASSAL_ORDERS:
        why = f"a vassal takes at most {MAX_VASSAL_ORDERS} orders a round, not {len(tokens)} (M039)"
    elif len(set(tokens)) < len(tokens):
        why = "a vassal's set holds one token of each kind (M039, ruling 230)"
    if why:
        events.append(AnswerUnusable(house=vassal, answer=texts, reason=why, ids=ids))
        return Composed(None, events, [])
    events.append(AnswerUsed(house=vassal, decision=decision, answer=texts, ids=ids))
    parts = tuple(chosen[a].command for a in areas if a in chosen and isinstance(chosen[a].command, AssignOrder))
    return Composed(parts, events, list(entries))


def vassal_order_asks(ctx: Context) -> list[Ask]:
    """One secret orders decision per vassal with units, for its commander (M039, ruling 231);
    the deadline default is no order at all (MD3)."""
    st, board = ctx.state, ctx.board
    asks = []
    for v in st.turn_order():
        areas = vassal_areas(st, board, v) if v in st.vassals else []
        if not areas:
            continue
        prompt = "assign up to 2 of your vassal's order tokens to areas with its units, or none"
        allowed = {t: n for t, n in VASSAL_ORDER_TOKENS.items() if not is_banned_vassal(t, st.restrictions)}
        req = Request(key=ctx.key("orders", v), kind="orders", house=v, prompt=prompt,
                      context={"areas": areas, "tokens": allowed, "max_orders": MAX_VASSAL_ORDERS}, default=(),
                      secret=True)  # fmt: skip
        asks.append(Ask(req, _never, compose=partial(compose_vassal_orders, st, board, v, areas, prompt)))
    return asks


def place_vassal_orders(state: GameState, vassal: HouseId, parts: tuple[Command, ...]) -> None:
    for p in parts:
        if isinstance(p, AssignOrder):
            state.area_mut(p.area).order = Order(vassal, p.token)


def orders_asked(ctx: Context) -> list[tuple[Ask, Callable[[tuple[Command, ...]], None]]]:
    """The vassals' orders decisions (M039, ruling 231), each with what places its answer on the board."""
    return [(ask, partial(place_vassal_orders, ctx.state, ask.request.house)) for ask in vassal_order_asks(ctx)]


register("planning_started", "vassals", choose_vassals)  # M032-M038: who commands whom, before any order
register("orders_asked", "vassals", orders_asked)  # in the players' own secret round (M039, ruling 231)
