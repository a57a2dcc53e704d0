"""Taking a port (R246, R249; rulings 2 and 20): the new owner of a port's land area may replace the
enemy ships in the port with its own.

Only the house controlling a port's land area may use the port (R249). When a march takes the land
area, by a won combat or by entering it without one (an area held by a lone power token, or by no
one), the marching house may at once put its own available ships in the place of the enemy ships
there, as many as it has, wants and its supply allows; the rest are removed. Ships in a port whose
land area changes hands in any other way are simply removed (``core.common.check_ports``).
"""

from __future__ import annotations

from typing import Any

from ...game.commands import Command, PortShips
from ...game.state import Unit
from ..core.common import available_units, destroy_units, within_supply
from ..core.context import NOT_APPLICABLE, Ask, Context, Request


def capture_port(ctx: Context, house: str, land: str, *, supply_delta: dict[str, int] | None = None) -> None:
    """Offer ``house``, which has just taken ``land`` with a march, the enemy ships in its port.

    ``supply_delta`` moves units for the supply check: an attacking army counts where it attacks
    (ruling 6) while it still stands in the area it marched from.
    """
    st, board = ctx.state, ctx.board
    port = board.area(land).port
    if not port or st.controller(land, board) != house:
        return
    enemy = [u for u in st.area(port).units if u.house != house]
    if not enemy:
        return
    delta = dict(supply_delta or {})
    most = min(len(enemy), available_units(st, board, house, "ship"))
    while most and not within_supply(st, board, house, {**delta, port: delta.get(port, 0) + most}):
        most -= 1
    count = most
    if most:
        options = tuple(PortShips(port=port, count=n) for n in range(most, -1, -1))
        req = Request(key=ctx.key("port_ships", house), kind="port_ships", house=house,
                      prompt=f"replace the {len(enemy)} enemy ship(s) in {board.area(port).name} with up to {most} of yours",
                      context={"port": port, "enemy_ships": len(enemy), "most": most}, options=options, default=options[0])

        def check(cmd: Command) -> Any:
            if not isinstance(cmd, PortShips) or cmd.port != port:
                return NOT_APPLICABLE
            if not 0 <= cmd.count <= most:
                return f"you may place 0 to {most} ships in {board.area(port).name} (available ships and supply, R246)"
            return None

        cmd = ctx.ask(Ask(req, check))
        assert isinstance(cmd, PortShips)
        count = cmd.count
    else:
        ctx.settle("port_ships", [house], lambda c: isinstance(c, PortShips) and c.port == port,
                   f"you had no ship to place in {board.area(port).name}: none left in your supply, or none the "
                   "supply limit allowed (R246)")
    from ..events.combat import PortCaptured  # here: the combat's events, only once a march takes a port (start-up)

    old = enemy[0].house
    destroy_units(ctx, port, enemy, "the port's land area was taken (R246)")
    st.area_mut(port).units.extend(Unit(house, "ship") for _ in range(count))
    ctx.emit(PortCaptured(port=port, house=house, old_house=old, replaced=count, removed=len(enemy)))
