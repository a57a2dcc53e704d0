"""The cycles of the Action Phase: raids, marches and consolidate power (R129, R141, R161).

In turn order, each house resolves one of its orders of the kind; the cycle goes round until none
is left. The turn order is read afresh before each resolution: when a combat moves a house on the
Iron Throne track (Doran Martell), the houses that have not yet resolved an order in this cycle go
on in the new order, and a house that already has waits for the next cycle (ruling 18).
"""

from __future__ import annotations

from collections.abc import Callable

from ...game.board import HouseId
from ..core.context import Context


def cycle(ctx: Context, has_orders: Callable[[HouseId], bool], resolve_one: Callable[[HouseId], None]) -> None:
    """Resolve one order per house per cycle, in the current turn order, until none are left."""
    acted: list[HouseId] = []
    while True:
        order = ctx.state.turn_order()
        waiting = [h for h in order if h not in acted and has_orders(h)]
        if waiting:
            resolve_one(waiting[0])
            acted.append(waiting[0])
        elif any(has_orders(h) for h in order):
            acted = []  # a new cycle
        else:
            return
