"""The cycles of the Action Phase: raids, marches and consolidate power (R129, R141, R161).

In turn order, each house resolves one of its orders of the kind; the cycle goes round until none
is left. Each call resolves one order, so that every order begins a segment of its own (a position
can be written between any two). ``state.cycle_done`` lists the houses that have resolved an order
in the cycle going on. The turn order is read afresh before each order: when a combat moves a house
on the Iron Throne track (Doran Martell), the houses that have not yet resolved an order in this
cycle go on in the new order, and a house that already has waits for the next cycle (ruling 18).
"""

from __future__ import annotations

from collections.abc import Callable

from ...game.board import HouseId
from ..core.context import Context


def next_in_cycle(ctx: Context, has_orders: Callable[[HouseId], bool], resolve_one: Callable[[HouseId], None]) -> bool:
    """Resolve the next house's order of the cycle; ``False`` when no order of the kind is left."""
    st = ctx.state
    order = st.turn_order()
    waiting = [h for h in order if h not in st.cycle_done and has_orders(h)]
    if not waiting:
        st.cycle_done = []  # a new cycle, or the end
        waiting = [h for h in order if has_orders(h)]
    if not waiting:
        return False
    resolve_one(waiting[0])
    st.cycle_done = [*st.cycle_done, waiting[0]]
    return True
