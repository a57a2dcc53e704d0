"""Supply: moving the Supply token and reconciling armies to its limits (R058-R066, R238, R239).

Resolving Supply, each house in turn order counts its barrels and moves its token; then every
house over its limits says at once which units it destroys, and the removals apply in turn order
(ruling 63). Nothing is lost by asking together: a reconciliation destroys the fewest units that
fit, which never empties an area (an army is cut to one unit at most), so it cannot change who
controls an area, and so what a later house counts.

A house over its limits answers a ``reconcile`` request with :class:`~adjudicator.game.commands.Reconcile`:
the units it destroys, exactly as many as needed and no more (ruling 64). The deadline default
keeps its largest armies, trims each to its column and cuts the rest to one unit, cheapest units
first (footman, ship, siege engine, knight).

>>> from adjudicator.game.board import Board
>>> minimum_removals([4, 3, 2, 2], Board.classic().supply_limits(3))
2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import product

from ...game.board import Board, HouseId
from ...game.commands import Command, Located, Reconcile
from ...game.state import GameState, Unit
from ..events.westeros import SupplyTrackMoved
from .common import (
    after_control_change,
    destroy_units,
    fits_supply,
    supply_count,
    within_supply,
)
from .context import NOT_APPLICABLE, Ask, Context, Request, Verdict

# Which units a default removal takes first: the cheapest to muster again.
CHEAP_FIRST = ("footman", "ship", "siege_engine", "knight", "dragon")  # Mother of Dragons' dragon last
_ENUMERATION_LIMIT = 4000  # per-area count vectors tried when looking for a forced reconciliation


def update_supply(ctx: Context, houses: Iterable[HouseId], cause: str = "Supply") -> None:
    """Each house in the given (turn) order counts its barrels and moves its token; then the
    houses over their limits reconcile (R058, R060)."""
    houses = list(houses)
    for house in houses:
        move_supply(ctx, house, supply_count(ctx.state, ctx.board, house), cause)
    reconcile(ctx, houses)


def move_supply(ctx: Context, house: HouseId, level: int, cause: str) -> None:
    """Put a house's Supply token on ``level``, kept within 0-6 (R058)."""
    hs = ctx.state.houses[house]
    old, hs.supply = hs.supply, max(0, min(level, ctx.board.constants["supply_track_max"]))
    ctx.emit(SupplyTrackMoved(house=house, old=old, new=hs.supply, cause=cause))


def set_supply(ctx: Context, house: HouseId, level: int, cause: str) -> None:
    """Move one house's Supply token, then make its armies fit (R060, R063)."""
    move_supply(ctx, house, level, cause)
    reconcile(ctx, [house])


# --- reconciling ----------------------------------------------------------------------------


def armies(state: GameState, house: HouseId) -> dict[str, int]:
    """The house's armies: area -> number of units, for areas holding two or more (R007)."""
    counts = Counter(a for a, _ in state.units_of(house))
    return {a: n for a, n in sorted(counts.items()) if n >= 2}


def minimum_removals(sizes: list[int], limits: tuple[int, ...]) -> int:
    """The fewest units whose removal makes armies of ``sizes`` fit ``limits`` (R059).

    The largest armies keep the largest columns (every column holds at least 2); the others
    are cut to a single unit.
    """
    sizes = sorted(sizes, reverse=True)
    limits = tuple(sorted(limits, reverse=True))
    kept = sum(max(0, s - lim) for s, lim in zip(sizes, limits))
    return kept + sum(s - 1 for s in sizes[len(limits):])


def need_to_remove(state: GameState, board: Board, house: HouseId) -> int:
    """How many units the house must destroy to fit its current supply level."""
    return minimum_removals(list(armies(state, house).values()), board.supply_limits(state.houses[house].supply))


def check_reconcile(state: GameState, board: Board, house: HouseId, cmd: Command) -> Verdict | object:
    """``None`` when ``cmd`` destroys exactly enough of the house's units to fit its supply.

    >>> from adjudicator.game.setup import new_game
    >>> s = new_game(["stark", "lannister", "baratheon"], seed="doc")
    >>> s.area_mut("winterfell").units.append(Unit("stark", "footman"))
    >>> s.houses["stark"].supply = 0
    >>> check_reconcile(s, Board.classic(), "stark", Reconcile(removals=()))
    'your armies (3) are over supply 0 (2, 2): destroy 1 unit (R060)'
    >>> check_reconcile(s, Board.classic(), "stark", Reconcile(removals=(Located("winterfell", "footman"),))) is None
    True
    """
    if not isinstance(cmd, Reconcile):
        return NOT_APPLICABLE
    need = need_to_remove(state, board, house)
    removed, reason = _take(state, house, cmd.removals)
    if reason:
        return reason
    after = state.trial_copy()
    for area, units in removed.items():
        for u in units:
            after.area_mut(area).units.remove(u)
    if not within_supply(after, board, house):
        sizes = ", ".join(str(n) for n in sorted(armies(after, house).values(), reverse=True))
        limits = ", ".join(str(n) for n in board.supply_limits(state.houses[house].supply))
        return (f"your armies ({sizes}) are over supply {state.houses[house].supply} ({limits}): "
                f"destroy {need} unit{'s' if need != 1 else ''} (R060)")
    count = sum(len(u) for u in removed.values())
    if count != need:
        return f"destroy exactly {need} unit{'s' if need != 1 else ''}, the fewest that fit your supply, not {count} (ruling 64)"
    return None


def _take(state: GameState, house: HouseId, removals: tuple[Located, ...]) -> tuple[dict[str, list[Unit]], str]:
    """The units a list of removals names, or why it names units the house does not have."""
    wanted: Counter[tuple[str, str]] = Counter()
    for loc in removals:
        if loc.count < 1:
            return {}, f"a removal must name at least one unit, not {loc.count} (R060)"
        wanted[(loc.area, loc.unit)] += loc.count
    taken: dict[str, list[Unit]] = {}
    for (area, unit), n in sorted(wanted.items()):
        have = [u for u in state.area(area).units if u.house == house and u.type == unit]
        if len(have) < n:
            where = area.replace("_", " ")
            return {}, f"you have {len(have)} {unit.replace('_', ' ')}(s) in {where}, not {n} (R060)"
        taken.setdefault(area, []).extend(have[:n])
    return taken, ""


def default_removals(state: GameState, board: Board, house: HouseId) -> tuple[Located, ...]:
    """The deadline default: keep the largest armies, trim to the columns, cheapest units first."""
    sized = sorted(armies(state, house).items(), key=lambda kv: (-kv[1], kv[0]))
    limits = sorted(board.supply_limits(state.houses[house].supply), reverse=True)
    out: list[Located] = []
    for i, (area, size) in enumerate(sized):
        target = min(size, limits[i]) if i < len(limits) else 1
        out.extend(cheapest(state, house, area, size - target))
    return tuple(out)


def cheapest(state: GameState, house: HouseId, area: str, n: int) -> list[Located]:
    """``n`` of the house's units in ``area``, cheapest first, as removals."""
    types = sorted((u.type for u in state.area(area).units if u.house == house), key=CHEAP_FIRST.index)[:n]
    return [Located(area=area, unit=t, count=c) for t, c in sorted(Counter(types).items(), key=lambda kv: CHEAP_FIRST.index(kv[0]))]


def forced_removals(state: GameState, board: Board, house: HouseId) -> Reconcile | None:
    """The only legal reconciliation, when there is exactly one (else ``None``)."""
    sized = armies(state, house)
    need = need_to_remove(state, board, house)
    areas = list(sized)
    ranges = [range(sized[a] + 1) for a in areas]
    total = 1
    for r in ranges:
        total *= len(r)
    if total > _ENUMERATION_LIMIT:
        return None
    limits = board.supply_limits(state.houses[house].supply)
    fits = [cut for cut in product(*ranges) if sum(cut) == need
            and fits_supply(sorted((sized[a] - c for a, c in zip(areas, cut) if sized[a] - c >= 2), reverse=True), limits)]
    if len(fits) != 1:
        return None
    removals: list[Located] = []
    for area, n in zip(areas, fits[0]):
        kinds = {u.type for u in state.area(area).units if u.house == house}
        if n and n < sized[area] and len(kinds) > 1:
            return None  # the house still chooses which units go
        removals.extend(cheapest(state, house, area, n))
    return Reconcile(removals=tuple(removals))


def reconcile(ctx: Context, houses: list[HouseId]) -> None:
    """Every listed house over its supply limits says which units it destroys (R060).

    The houses answer together; the removals apply in the order given (turn order).
    """
    st, board = ctx.state, ctx.board
    over = [h for h in houses if not within_supply(st, board, h)]
    asks = []
    for house in over:
        need = need_to_remove(st, board, house)
        req = Request(
            key=ctx.key("reconcile", house), kind="reconcile", house=house,
            prompt=f"destroy {need} unit{'s' if need != 1 else ''} to fit your supply",
            context={"supply": st.houses[house].supply, "limits": list(board.supply_limits(st.houses[house].supply)),
                     "armies": armies(st, house), "units_to_destroy": need},
            default=Reconcile(removals=default_removals(st, board, house)),
        )
        check = (lambda h: lambda c: check_reconcile(st, board, h, c))(house)
        asks.append(Ask(req, check, only=forced_removals(st, board, house)))
    for house, cmd in zip(over, ctx.ask_all(asks)):
        assert isinstance(cmd, Reconcile)
        removed, _ = _take(st, house, cmd.removals)
        for area, units in removed.items():
            destroy_units(ctx, area, units, "over its supply limit")
    if over:
        after_control_change(ctx)
