"""The Planning Phase (R112-R127): assign orders in secret, reveal them, use the Messenger Raven.

Every house with units answers one ``orders`` request, composed from its ``AssignOrder`` lines
(and ``LeaveUnordered`` when it is short of tokens): the newest line for an area wins. The
requests are simultaneous and secret (R115), or asked in turn order when a house is short of
order tokens (R122). Then all orders are revealed (R123) and the Messenger Raven holder may swap
an order or look at the top wildling card (R125, ruling 4).

The helpers on orders (``areas_needing_orders``, ``is_banned``, ``in_board_order`` ...) are
shared by the action phase.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ...game.board import Board, HouseId
from ...game.commands import (
    ORDER_TOKENS,
    SEA_ORDER_TOKENS,
    SPECIAL_TOKENS,
    AssignOrder,
    Command,
    LeaveUnordered,
    Raven,
    RavenKeep,
    order_kind,
)
from ...game.hooks import hooked
from ...game.state import GameState, Order
from ..core.context import (
    NOT_APPLICABLE,
    Ask,
    Composed,
    Context,
    PoolEntry,
    Request,
    Verdict,
)
from ..events import AnswerUnusable, AnswerUsed, Event, PhaseStarted, plural
from ..events.action import (
    OrdersPlaced,
    OrdersRevealed,
    OrdersWaiting,
    OrderSwapped,
    RavenLooked,
    RavenNotUsed,
    WildlingCardPlaced,
    WildlingCardSeen,
)

# The deadline filler takes tokens in this order (D13): passive ones first, specials last.
FILLER_ORDER: tuple[str, ...] = (
    "defense+1", "consolidate", "support+0", "raid", "march+0", "march-1",
    "defense+2", "consolidate*", "support+1", "raid*", "march+1",
)


# --- orders: shared queries -----------------------------------------------------------------


def in_board_order(board: Board, areas: Iterable[str]) -> list[str]:
    """Areas sorted as the board lists them: the fixed order every default uses.

    >>> in_board_order(Board.classic(), ["winterfell", "castle_black"])
    ['castle_black', 'winterfell']
    """
    index = _board_index(board)
    return sorted(areas, key=lambda a: index.get(a, len(index)))


_BOARD_INDEX: dict[int, tuple[Board, dict[str, int]]] = {}  # by id(board); each entry holds its board


def _board_index(board: Board) -> dict[str, int]:
    """Each area's place in the board's list, worked out once per board (the engine asks thousands of times)."""
    hit = _BOARD_INDEX.get(id(board))
    if hit is None or hit[0] is not board:
        if len(_BOARD_INDEX) >= 16:
            _BOARD_INDEX.clear()
        hit = _BOARD_INDEX[id(board)] = (board, {a: i for i, a in enumerate(board.areas)})
    return hit[1]


def areas_needing_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Every area (land, sea or port) holding the house's units, in board order (R115-R117)."""
    return in_board_order(board, {a for a, st in state.areas.items() if any(u.house == house for u in st.units)})


def is_banned(token: str, restrictions: Iterable[str]) -> bool:
    """True when this round's Westeros restrictions forbid the token (R120).

    A restriction names an order kind (``"defense"``) or one token (``"march+1"``).

    >>> is_banned("defense+2", ["defense"]), is_banned("march+0", ["march+1"])
    (True, False)
    """
    return any(r == token or r == order_kind(token) for r in restrictions)


def eligible_count(state: GameState, board: Board, house: HouseId) -> int:
    """How many orders the house can place this round: its tokens less bans, specials capped (R119, R120)."""
    owned = state.order_tokens(house)  # with the expansion, a player's sea orders too: none special (M114, ruling 206)
    regular = sum(n for t, n in owned.items() if t not in SPECIAL_TOKENS and not is_banned(t, state.restrictions))
    special = sum(n for t, n in owned.items() if t in SPECIAL_TOKENS and not is_banned(t, state.restrictions))
    return regular + min(special, state.stars(house, board))


def is_short(state: GameState, board: Board, house: HouseId, areas: list[str]) -> bool:
    """R122: the house has fewer eligible order tokens than areas to fill."""
    return eligible_count(state, board, house) < len(areas)


def orders_on_board(state: GameState, board: Board) -> list[tuple[str, str, str]]:
    """Every order on the board as (area, house, token), in board order."""
    return [(a, o.house, o.token) for a in in_board_order(board, state.areas) if (o := state.area(a).order)]


def _area_text(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)


def _names(board: Board, areas: Iterable[str]) -> str:
    return ", ".join(_area_text(board, a) for a in areas)


# --- checking one house's orders ------------------------------------------------------------


def order_line_problem(state: GameState, board: Board, house: HouseId, areas: list[str], short: bool, cmd: Command) -> Verdict:
    """Why one ``AssignOrder``/``LeaveUnordered`` line cannot be used, or ``None``."""
    if not isinstance(cmd, (AssignOrder, LeaveUnordered)):
        return NOT_APPLICABLE
    if cmd.area not in board.areas:
        return f"there is no area {cmd.area!r} (R115)"
    if cmd.area not in areas:
        st = state.area(cmd.area)
        if st.units:
            return f"the units in {_area_text(board, cmd.area)} are not yours; orders go only on your own units (R115)"
        if st.garrison or st.power_token:
            return f"{_area_text(board, cmd.area)} holds no units, only a garrison or power token, and takes no order (R117)"
        return f"you have no units in {_area_text(board, cmd.area)}; orders go only on areas with your units (R115)"
    if isinstance(cmd, LeaveUnordered):
        if not short:
            return "only a house short of order tokens may leave an area without an order (R122, R121)"
        return None
    owned = state.order_tokens(house)
    if cmd.token not in owned:
        return f"there is no order token {cmd.token!r}; the tokens are {', '.join(owned)} (R112{', M114' if owned is not ORDER_TOKENS else ''})"
    if is_banned(cmd.token, state.restrictions):
        return f"no {cmd.token} order may be placed this round: a Westeros card forbids it (R120)"
    return None


def order_set_problem(state: GameState, board: Board, house: HouseId, areas: list[str], short: bool,
                      parts: dict[str, Command]) -> str | None:
    """Why a house's whole set of orders cannot be taken yet (token copies, stars, missing areas)."""
    tokens = [p.token for p in parts.values() if isinstance(p, AssignOrder)]
    for token, copies in state.order_tokens(house).items():
        if tokens.count(token) > copies:
            return f"you placed {tokens.count(token)} {token} orders but own only {copies} ({'M114' if token in SEA_ORDER_TOKENS else 'R112'})"
    stars = state.stars(house, board)
    specials = sum(1 for t in tokens if t in SPECIAL_TOKENS)
    if specials > stars:
        return (f"you placed {specials} special order{'s' if specials != 1 else ''} but your King's Court "
                f"position allows {stars} (R119)")
    missing = [a for a in areas if a not in parts]
    if not short:
        if missing:
            return f"no order yet for {_names(board, missing)}: every area with your units needs exactly one (R121, R115)"
        return None
    can_place = eligible_count(state, board, house)
    if len(tokens) < can_place:
        if missing:
            return (f"no order yet for {_names(board, missing)}: a house short of tokens must still place "
                    f"every order it can ({can_place}) (R122)")
        return f"you placed {len(tokens)} orders but must place every order you can ({can_place}) (R122)"
    return None


def compose_orders(state: GameState, board: Board, house: HouseId, areas: list[str], short: bool,
                   decision: str, entries: list[PoolEntry]) -> Composed:
    """One house's orders from its answer lines: the newest line per area wins (D13, D14).

    Valid lines stand (ruling 121): a refused line leaves its area open, and the others wait
    for the missing ones instead of being thrown out with them. Within the token copies (R112)
    and the stars (R119) the newest lines stand; an older line over the limit is refused.
    """
    events: list[Event] = []
    chosen: dict[str, PoolEntry] = {}
    for e in entries:
        why = order_line_problem(state, board, house, areas, short, e.command)
        if why is NOT_APPLICABLE:
            continue
        if why:
            events.append(AnswerUnusable(house=house, answer=e.text, reason=str(why), ids=(e.id,)))
            continue
        area = e.command.area  # type: ignore[attr-defined]
        if area in chosen:
            events.append(AnswerUnusable(
                house=house, answer=chosen[area].text, ids=(chosen[area].id,),
                reason=f"replaced by a later line for {_area_text(board, area)}: an area takes one order (R115)"))
        chosen[area] = e
    stand = _within_limits(state, board, house, len(areas), chosen, entries, events)
    parts = {a: stand[a].command for a in areas if a in stand}
    why = order_set_problem(state, board, house, areas, short, parts)
    texts = "; ".join(stand[a].text for a in areas if a in stand)
    ids = tuple(stand[a].id for a in areas if a in stand)
    if why:
        open_areas = tuple(a for a in areas if a not in parts)
        if stand:
            events.append(OrdersWaiting(house=house, standing=tuple(stand[a].text for a in areas if a in stand),
                                        open_areas=open_areas, reason=why))
        return Composed(None, events, [stand[a] for a in areas if a in stand])  # what stands, kept waiting
    events.append(AnswerUsed(house=house, decision=decision, answer=texts, ids=ids))
    full = tuple(parts.get(a) or LeaveUnordered(area=a) for a in areas)
    return Composed(full, events, list(entries))


def _within_limits(state: GameState, board: Board, house: HouseId, n_areas: int, chosen: dict[str, PoolEntry],
                   entries: list[PoolEntry], events: list[Event]) -> dict[str, PoolEntry]:
    """The chosen lines that stand within the token copies and the stars, newest first (ruling 121).

    An older line that a token's copies (R112) or the stars (R119) leave no room for is refused,
    with the areas of the later lines that took them; its area stays open. So is an older "no
    order" line beyond the areas a house short of tokens may leave without one (R122): what
    stands can then always be completed to a legal set by the deadline default.
    """
    place = {id(e): i for i, e in enumerate(entries)}
    stars = state.stars(house, board)
    owned = state.order_tokens(house)  # with the expansion, a player's sea orders or a vassal's set too
    may_leave = max(0, n_areas - eligible_count(state, board, house))
    taken: dict[str, list[str]] = {}
    specials: list[str] = []
    left: list[str] = []
    stand: dict[str, PoolEntry] = {}
    for e in sorted(chosen.values(), key=lambda x: place[id(x)], reverse=True):
        cmd = e.command
        if isinstance(cmd, AssignOrder) and cmd.token in owned:
            have = taken.setdefault(cmd.token, [])
            if len(have) >= owned[cmd.token]:
                rule = "M114" if cmd.token in SEA_ORDER_TOKENS else "R112"
                events.append(AnswerUnusable(house=house, answer=e.text, reason=(
                    f"you own only {owned[cmd.token]} {cmd.token} order{'s' if owned[cmd.token] != 1 else ''}, "
                    f"placed by later lines in {_names(board, in_board_order(board, have))} ({rule})"), ids=(e.id,)))
                continue
            if cmd.token in SPECIAL_TOKENS and len(specials) >= stars:
                events.append(AnswerUnusable(house=house, answer=e.text, reason=(
                    f"your King's Court position allows {stars} special order{'s' if stars != 1 else ''}"
                    + (f", placed by later lines in {_names(board, in_board_order(board, specials))}" if specials else "") + " (R119)"),
                    ids=(e.id,)))
                continue
            have.append(cmd.area)
            if cmd.token in SPECIAL_TOKENS:
                specials.append(cmd.area)
        elif isinstance(cmd, LeaveUnordered):
            if len(left) >= may_leave:
                events.append(AnswerUnusable(house=house, answer=e.text, ids=(e.id,), reason=(
                    f"you must place every order you can and may leave {plural(may_leave, 'area')} without one"
                    + (f", left by later lines: {_names(board, in_board_order(board, left))}" if left else "") + " (R122)")))
                continue
            left.append(cmd.area)
        stand[cmd.area] = e  # type: ignore[attr-defined]
    return stand


def complete_orders(state: GameState, board: Board, house: HouseId, areas: list[str], short: bool,
                    parts: dict[str, Command]) -> tuple[Command, ...]:
    """The deadline default of a house whose orders partly stand: its lines, and the filler of
    :func:`default_orders` for the open areas from the tokens left (ruling 121).

    When the lines that stand cannot be completed to a legal set (a house short of tokens that left
    too many areas without an order), the whole filler is the default.
    """
    if not parts:
        return default_orders(state, board, house, areas)
    used = [p.token for p in parts.values() if isinstance(p, AssignOrder)]
    specials_left = state.stars(house, board) - sum(1 for t in used if t in SPECIAL_TOKENS)
    tokens: list[str] = []
    owned = state.order_tokens(house)  # the sea orders last, as in default_orders (M114)
    for token in (*FILLER_ORDER, *(t for t in owned if t not in FILLER_ORDER)):
        if is_banned(token, state.restrictions):
            continue
        for _ in range(owned.get(token, 0) - used.count(token)):
            if token in SPECIAL_TOKENS:
                if specials_left <= 0:
                    break
                specials_left -= 1
            tokens.append(token)
    fill = iter(tokens)
    full = {a: parts.get(a) or (AssignOrder(area=a, token=t) if (t := next(fill, None)) else LeaveUnordered(area=a))
            for a in areas}
    if order_set_problem(state, board, house, areas, short, full):
        return default_orders(state, board, house, areas)
    return tuple(full[a] for a in areas)


def default_orders(state: GameState, board: Board, house: HouseId, areas: list[str]) -> tuple[Command, ...]:
    """D13/D14: a legal filler, tokens in :data:`FILLER_ORDER` over the areas in board order.

    A house short of tokens leaves its last areas without an order.
    """
    specials_left = state.stars(house, board)
    tokens: list[str] = []
    owned = state.order_tokens(house)  # with the expansion the sea orders come last (M114)
    for token in (*FILLER_ORDER, *(t for t in owned if t not in FILLER_ORDER)):
        if is_banned(token, state.restrictions):
            continue
        for _ in range(owned.get(token, 0)):
            if token in SPECIAL_TOKENS:
                if specials_left == 0:
                    break
                specials_left -= 1
            tokens.append(token)
    return tuple(AssignOrder(area=a, token=tokens[i]) if i < len(tokens) else LeaveUnordered(area=a)
                 for i, a in enumerate(areas))


def _never(cmd: Command) -> Verdict:
    return NOT_APPLICABLE


def _orders_ask(ctx: Context, house: HouseId, areas: list[str], short: bool) -> Ask:
    st, board = ctx.state, ctx.board
    prompt = "assign one order to every area with your units"
    if short:
        prompt = "assign your orders in turn order; you are short of tokens and choose which areas go without"
    allowed = {t: n for t, n in st.order_tokens(house).items() if not is_banned(t, st.restrictions)}
    key = ctx.key("orders", house)
    context = {"areas": list(areas), "tokens": allowed, "special_orders_allowed": st.stars(house, board),
               "banned": list(st.restrictions), "short": short,
               "orders_to_place": min(len(areas), eligible_count(st, board, house))}
    if key in ctx.segment.decisions:  # taken earlier in this phase: replayed as recorded
        return Ask(Request(key=key, kind="orders", house=house, prompt=prompt, context=context, secret=True), _never)
    got = compose_orders(st, board, house, areas, short, prompt, ctx.entries(house, "orders"))
    standing = {e.command.area: e for e in got.used} if got.parts is None else {}  # type: ignore[attr-defined]
    if standing:  # ruling 121: the lines that stand are kept, and the deadline default completes them
        context |= {"orders_standing": {a: e.command.token if isinstance(e.command, AssignOrder) else "no order"
                                        for a, e in standing.items()},
                    "areas_open": [a for a in areas if a not in standing]}
    default = complete_orders(st, board, house, areas, short, {a: e.command for a, e in standing.items()})
    req = Request(key=key, kind="orders", house=house, prompt=prompt, context=context, default=default, secret=True,
                  uses=tuple(e.id for e in standing.values() if e.command in default))  # the default uses them
    return Ask(req, _never, compose=lambda entries: got)


def _place(state: GameState, house: HouseId, parts: tuple[Command, ...]) -> None:
    for p in parts:
        if isinstance(p, AssignOrder):
            state.area_mut(p.area).order = Order(house, p.token)


# --- the phase ------------------------------------------------------------------------------


def run(ctx: Context) -> None:
    """Assign and reveal orders (step ""), then use the Messenger Raven ("raven") (R114); then the Action Phase."""
    st = ctx.state
    if st.step == "raven":
        messenger_raven(ctx)
        if st.box.has("sea_orders"):
            remove_sea_orders_on_land(ctx)  # M116: after the raven, before any order resolves
        st.restrictions = []  # R057: the Westeros bans last for this Planning Phase only
        st.step, st.phase = "", "action"
        return
    assign_orders(ctx)
    st.step = "raven"


def assign_orders(ctx: Context) -> None:
    """Every house places its orders in secret, or in turn order when one is short of tokens; all are revealed."""
    st, board = ctx.state, ctx.board
    ctx.emit(PhaseStarted(round=st.round, phase="planning"))
    for first in hooked("planning_started", st.box):  # A Feast for Crows: three objectives kept of five (F033);
        first(ctx)  # Mother of Dragons: who commands which vassal (M032-M038)
    # Vassals are ordered by their commanders from their own tokens (M039): after the players' own.
    needs = {h: areas_needing_orders(st, board, h) for h in st.turn_order() if not st.is_vassal(h)}
    houses = [h for h in st.turn_order() if needs.get(h)]
    if any(is_short(st, board, h, needs[h]) for h in houses):
        # R122: everyone assigns in turn order; where each house placed is seen by the next, what
        # it placed is not: the tokens go on the board only at the reveal (R124).
        placed = []
        for h in houses:
            parts = ctx.ask(_orders_ask(ctx, h, needs[h], is_short(st, board, h, needs[h])))
            placed.append((h, parts))
            ctx.emit(OrdersPlaced(house=h, areas=tuple(p.area for p in parts if isinstance(p, AssignOrder)),
                                  unordered=tuple(p.area for p in parts if isinstance(p, LeaveUnordered))))
        for h, parts in placed:
            _place(st, h, parts)
        if besides := orders_besides(ctx):
            for (_, place), parts in zip(besides, ctx.ask_all([ask for ask, _ in besides])):
                place(parts)
    else:
        asks = [_orders_ask(ctx, h, needs[h], False) for h in houses]
        besides = orders_besides(ctx)
        taken = ctx.ask_all(asks + [ask for ask, _ in besides])
        for h, parts in zip(houses, taken):
            _place(st, h, parts)
        for (_, place), parts in zip(besides, taken[len(asks):]):
            place(parts)
    ctx.emit(OrdersRevealed(orders=tuple(orders_on_board(st, board))))


def orders_besides(ctx: Context) -> list[tuple[Ask, Callable[[tuple[Command, ...]], None]]]:
    """The orders the players give besides their own, in the same secret round (Mother of Dragons:
    their vassals', M039, ruling 231), each ask with what places its answer."""
    return [pair for more in hooked("orders_asked", ctx.state.box) for pair in more(ctx)]


# --- the Messenger Raven (R125-R127) --------------------------------------------------------


def raven_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why a ``Raven`` answer cannot be used by the raven holder, or ``None``."""
    if not isinstance(cmd, Raven):
        return NOT_APPLICABLE
    if cmd.action == "pass":
        return None
    if cmd.action == "look":
        return None if state.wildling_deck else "the wildling deck is empty (R125)"
    if not cmd.area or not cmd.token:
        return "a raven swap names the area and the unused order to put there (R125)"
    order = state.area(cmd.area).order if cmd.area in board.areas else None
    if order is not None and state.is_vassal(order.house):
        return "the Messenger Raven never swaps a vassal's order (M042, ruling 270)"
    if order is None or order.house != house:
        return f"you have no order in {_area_text(board, cmd.area)} to replace (R125)"
    owned = state.order_tokens(house)
    if cmd.token not in owned:
        return f"there is no order token {cmd.token!r} (R112)"
    placed = state.orders_placed(house)
    if placed.count(cmd.token) >= owned[cmd.token]:
        return f"{cmd.token} is not among your unused orders (R125)"
    if is_banned(cmd.token, state.restrictions):
        return f"no {cmd.token} order may be placed this round, by the raven either (R126, ruling 3)"
    specials = sum(1 for t in placed if t in SPECIAL_TOKENS) - (order.token in SPECIAL_TOKENS) + (cmd.token in SPECIAL_TOKENS)
    if specials > state.stars(house, board):
        return (f"the swap would give you {specials} special order{'s' if specials != 1 else ''} but your "
                f"King's Court position allows {state.stars(house, board)} (R126, R119, ruling 3)")
    return None


def unused_tokens(state: GameState, house: HouseId) -> list[str]:
    """The house's order tokens not on the board (hidden from the others, R263)."""
    placed = state.orders_placed(house)
    return [t for t, n in state.order_tokens(house).items() for _ in range(n - placed.count(t))]


def remove_sea_orders_on_land(ctx: Context) -> None:
    """M116 (ruling 258): every sea order on a land area leaves the board without effect."""
    from ..events.bank import SeaOrdersRemoved  # here: only a box with sea orders has them (start-up)

    st, board = ctx.state, ctx.board
    gone = [(a, h, t) for a, h, t in orders_on_board(st, board) if t in SEA_ORDER_TOKENS and board.area(a).is_land]
    for a, _, _ in gone:
        st.area_mut(a).order = None
    if gone:
        ctx.emit(SeaOrdersRemoved(orders=tuple(gone)))


def messenger_raven(ctx: Context) -> None:
    """R125: the holder swaps an order, looks at the top wildling card, or passes (D15)."""
    st, board = ctx.state, ctx.board
    holder = st.holder("kings_court")
    if st.raven_used:
        return
    options: tuple[Command, ...] = (Raven(action="pass"), Raven(action="look")) if st.wildling_deck else (Raven(action="pass"),)
    mine = {a: t for a, h, t in orders_on_board(st, board) if h == holder}
    req = Request(
        key=ctx.key("raven", holder), kind="raven", house=holder,
        prompt="use the Messenger Raven: swap one of your orders, look at the top wildling card, or pass",
        context={"orders": mine, "unused_tokens": unused_tokens(st, holder),
                 "special_orders_allowed": st.stars(holder, board), "banned": list(st.restrictions)},
        options=options, default=Raven(action="pass"),
    )
    cmd = _holders_decision(ctx, Ask(req, lambda c: raven_problem(st, board, holder, c)), ("raven", "raven_wildling"))
    assert isinstance(cmd, Raven)
    if cmd.action == "pass":
        ctx.emit(RavenNotUsed(house=holder))
        return
    st.raven_used = True
    if cmd.action == "swap":
        assert cmd.area and cmd.token
        order = st.area_mut(cmd.area).order
        assert order is not None
        ctx.emit(OrderSwapped(house=holder, area=cmd.area, old=order.token, new=cmd.token))
        order.token = cmd.token
        return
    ctx.emit(RavenLooked(house=holder))
    ctx.emit(WildlingCardSeen(house=holder, card=st.wildling_deck[0]))
    keep_req = Request(
        key=ctx.key("raven_wildling", holder), kind="raven_wildling", house=holder,
        prompt="leave the wildling card you saw on top of the deck, or place it at the bottom",
        options=(RavenKeep(choice="top"), RavenKeep(choice="bottom")), default=RavenKeep(choice="top"),
    )
    keep = _holders_decision(ctx, Ask(keep_req, lambda c: None if isinstance(c, RavenKeep) else NOT_APPLICABLE),
                             ("raven_wildling",))
    assert isinstance(keep, RavenKeep)
    where = keep.for_card(st.wildling_deck[0])  # a conditional sent ahead decides by the card seen (ruling 123)
    if where == "bottom":
        st.wildling_deck.append(st.wildling_deck.pop(0))
    ctx.emit(WildlingCardPlaced(house=holder, where=where))


def _holders_decision(ctx: Context, ask: Ask, kinds: tuple[str, ...]) -> Command:
    """Take the raven holder's decision; the same kinds of answer from any other house are refused
    and used up (:meth:`Context.ask_refusing`)."""
    holder = ask.request.house
    strays = [e for h in ctx.state.houses_in_play if h != holder for k in kinds for e in ctx.entries(h, k)]
    reason = f"only the holder of the Messenger Raven ({holder.title()}) uses it (R096, R125)"
    cmd = ctx.ask_refusing(ask, strays, lambda e: reason)
    assert isinstance(cmd, Command)
    return cmd
