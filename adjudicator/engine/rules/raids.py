"""Resolve Raid Orders (R129-R140): in turn order, one raid per house per cycle.

A ``Raid`` answer names the raid order's area and a preference list of targets; ``None`` in the
list means "no effect". The first listed target that still holds a raidable enemy order is
raided; a target that could never be raided from there (not adjacent, land raiding sea, ...)
makes the whole answer illegal, with the rule's reason.
"""

from __future__ import annotations

from ...game.board import Board, HouseId
from ...game.commands import VASSAL_KEPT_TOKENS, Command, Raid, order_kind
from ...game.state import GameState, Order
from ..core.common import gain_power, lose_power, transport_reach
from ..core.context import NOT_APPLICABLE, Ask, Context, Request, Verdict
from ..core.vassals import same_family
from ..events.action import RaidResolved
from .cycle import next_in_cycle
from .planning import in_board_order

# R130; march never (R139). Mother of Dragons' Iron Bank order too, with no pillage (M118, ruling 259).
RAIDABLE_KINDS = frozenset({"support", "raid", "consolidate", "iron_bank"})


def _name(board: Board, area: str) -> str:
    return board.area(area).name if area in board.areas else repr(area)


def raid_orders(state: GameState, board: Board, house: HouseId) -> list[str]:
    """Areas holding the house's raid orders (``raid`` or ``raid*``), in board order."""
    return in_board_order(board, [a for a, st in state.areas.items()
                                  if st.order and st.order.house == house and order_kind(st.order.token) == "raid"])


def reach_problem(state: GameState, board: Board, house: HouseId, origin: str, target: str) -> str | None:
    """Why a raid in ``origin`` could never hit ``target``, whatever lies there (R130, R132, R137, R138)."""
    if target not in board.areas:
        return f"there is no area {target!r} to raid (R130)"
    if target == origin:
        return "a raid cannot target its own area (R130)"
    o, t = board.area(origin), board.area(target)
    if not board.adjacent(origin, target):
        if o.is_land and target in transport_reach(state, board, house, origin):
            return f"{t.name} is not adjacent to {o.name}; ship transport never makes areas adjacent for a raid (R138)"
        return f"{t.name} is not adjacent to {o.name}; a raid reaches only an adjacent area (R130)"
    if o.is_port and not t.is_sea:
        return f"ships in {o.name} may raid only the sea area it opens onto (R137)"
    if o.is_land and t.is_sea:
        return f"a raid on a land area cannot raid the sea area {t.name} (R132)"
    if o.is_land and t.is_port:
        return f"units on land cannot raid {t.name}; only ships in its sea area can (R137)"
    return None


def target_problem(state: GameState, board: Board, house: HouseId, origin: str, target: str) -> str | None:
    """Why ``target`` cannot be raided from ``origin`` now, or ``None`` (R130, R133, R136, R139)."""
    why = reach_problem(state, board, house, origin, target)
    if why:
        return why
    order = state.area(target).order
    if order is None:
        return f"there is no order (left) in {_name(board, target)} to raid (R130, ruling 8)"
    if order.house == house:
        return f"the order in {_name(board, target)} is your own; raids remove enemy orders (R130)"
    if same_family(state, house, order.house):
        return (f"the order in {_name(board, target)} is {order.house.title()}'s, of the same family this round: a "
                "commander and the vassals it commands never raid one another's orders (M049, ruling 234)")
    kind = order_kind(order.token)
    if kind == "defense":
        if state.area(origin).order and state.area(origin).order.token == "raid*":  # type: ignore[union-attr]
            return None
        if order.token == "vassal_defense_muster":  # the expansion says it of this token itself
            return (f"only a special raid may remove the Defense 1/Muster order in {_name(board, target)}, a defense "
                    "order (M054, R136)")
        return f"only a special raid may remove the defense order in {_name(board, target)} (R139, R136)"
    if kind not in RAIDABLE_KINDS:
        return f"the {order.token} order in {_name(board, target)} cannot be raided (R139)"
    return None


def targets(state: GameState, board: Board, house: HouseId, origin: str) -> list[str]:
    """Every area a raid in ``origin`` could remove an order from now, in board order."""
    return [t for t in in_board_order(board, board.neighbours[origin]) if target_problem(state, board, house, origin, t) is None]


def raid_problem(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict:
    """Why a ``Raid`` answer cannot be used now, or ``None``."""
    if not isinstance(cmd, Raid):
        return NOT_APPLICABLE
    if cmd.origin not in board.areas:
        return f"there is no area {cmd.origin!r}, so no raid order there (R129)"
    order = state.area(cmd.origin).order
    if not order or order.house != house or order_kind(order.token) != "raid":
        return f"you have no raid order in {_name(board, cmd.origin)} (never placed, or already removed) (R129, R140)"
    listed = cmd.targets or (None,)
    for t in listed:
        if t is not None and (why := reach_problem(state, board, house, cmd.origin, t)):
            return why
    if chosen_target(state, board, house, cmd) is not None or None in listed:
        return None
    first = next(t for t in listed if t is not None)
    return str(target_problem(state, board, house, cmd.origin, first))


def chosen_target(state: GameState, board: Board, house: HouseId, cmd: Raid) -> str | None:
    """The first listed target that can be raided now; ``None`` for no effect."""
    for t in cmd.targets:
        if t is None:
            return None
        if target_problem(state, board, house, cmd.origin, t) is None:
            return t
    return None


def resolve_next_raid(ctx: Context) -> bool:
    """R129: the next raid of the cycle through the turn order; ``False`` when none is left."""
    st, board = ctx.state, ctx.board

    def one(house: HouseId) -> None:
        origins = raid_orders(st, board, house)  # R140: a raided raid is no longer there
        resolve_raid(ctx, house, ctx.ask(_raid_ask(ctx, house, origins)))

    return next_in_cycle(ctx, lambda h: bool(raid_orders(st, board, h)), one)


def _raid_ask(ctx: Context, house: HouseId, origins: list[str]) -> Ask:
    st, board = ctx.state, ctx.board
    reach = {o: targets(st, board, house, o) for o in origins}
    options = tuple(Raid(origin=o, targets=(t,)) for o in origins for t in [*reach[o], None])
    none_first = Raid(origin=origins[0], targets=(None,))
    prompt = "resolve one of your raid orders: name the order and its target, or no effect"
    if any(st.area(o).order.token in VASSAL_KEPT_TOKENS for o in origins):  # type: ignore[union-attr]
        prompt = "raid with your Raid/Support order: name its target, or none to keep it as a support order (M047)"
    req = Request(
        key=ctx.key("raid", house), kind="raid", house=house, prompt=prompt,
        context={"raid_orders": {o: st.area(o).order.token for o in origins}, "targets": reach},  # type: ignore[union-attr]
        options=options, default=none_first,
    )
    # With no target for any of its raids, every choice is the same: remove one with no effect.
    only = none_first if not any(reach.values()) else None
    return Ask(req, lambda c: raid_problem(st, board, house, c), only=only)


def resolve_raid(ctx: Context, house: HouseId, cmd: Raid) -> None:
    """Remove the raid and its target; pillage a consolidate power order (R130, R131)."""
    st, board = ctx.state, ctx.board
    target = chosen_target(st, board, house, cmd)
    own = st.area_mut(cmd.origin)
    assert own.order is not None
    token, own.order = own.order.token, None
    if target is None and token == "vassal_raid_support":
        # M047, ruling 232: a vassal that does not raid keeps the token as a support order.
        from ..events.vassals import VassalRaidKept  # here: only a vassal's order keeps one (start-up)

        own.order = Order(house, VASSAL_KEPT_TOKENS[token])
        ctx.emit(VassalRaidKept(vassal=house, area=cmd.origin))
        return
    if target is None:
        ctx.emit(RaidResolved(house=house, origin=cmd.origin, token=token))
        return
    victim_area = st.area_mut(target)
    victim = victim_area.order
    assert victim is not None
    victim_area.order = None
    ctx.emit(RaidResolved(house=house, origin=cmd.origin, token=token, target=target,
                          target_house=victim.house, target_token=victim.token))
    if order_kind(victim.token) == "consolidate":
        # R131: the raider gains even when the victim has nothing to lose.
        gain_power(ctx, house, 1, f"pillaging {board.area(target).name}")
        if st.houses[victim.house].power > 0:
            lose_power(ctx, victim.house, 1, f"pillaged in {board.area(target).name}")
