"""The Braavos token follows control of Braavos (Mother of Dragons, M111, M113, ruling 257).

Its own module so that :func:`adjudicator.engine.core.common.after_control_change` can run it after
every change of control (the hook point ``control_changed``), as it runs Targaryen's loyalty
tokens: each march, combat, loan and card that may change control calls it, in the Action Phase
as in any other; the Iron Bank's other shared rules (``core/bank.py``) stand above ``common``.
"""

from __future__ import annotations

from ...game.hooks import register
from ..events.bank import BraavosTokenTaken
from .context import Context

BRAAVOS = "braavos"


def sync_braavos(ctx: Context) -> None:
    """M111, M113 (ruling 257): once its neutral force is defeated, the Braavos token is with the
    player controlling Braavos; while a vassal or no one controls it, it is set aside."""
    st, board = ctx.state, ctx.board
    if not st.loan_slots or BRAAVOS not in board.areas or st.area(BRAAVOS).neutral_force:
        return
    owner = st.controller(BRAAVOS, board)
    new = owner if owner is not None and not st.is_vassal(owner) else None
    if new != st.braavos_token:
        st.braavos_token = new
        ctx.emit(BraavosTokenTaken(house=new or ""))


register("control_changed", "iron_bank", sync_braavos)  # after any change of control (M113)
