"""The Action Phase (R128): raids, marches (with their combats), consolidate power, clean-up.

Each step is its own module (``raids``, ``marches``, ``consolidate``); clean-up (R167, R168) is
here, and ends the round: the next round's Westeros Phase, or the end of the game after round 10.
"""

from __future__ import annotations

from ...game.hooks import hooked
from ..core.context import Context
from ..events import PhaseStarted
from ..events.action import OrdersRemoved, RoundEnded, UnitsRallied
from .consolidate import resolve_next_consolidation
from .endgame import final_winner
from .marches import resolve_next_march
from .planning import in_board_order, orders_on_board
from .raids import resolve_next_raid

# The Action Phase's steps (R128): each resolves one order per call, so each order begins a segment.
RESOLVE = {"raids": resolve_next_raid, "marches": resolve_next_march, "consolidate": resolve_next_consolidation}
NEXT_STEP = {"raids": "marches", "marches": "consolidate"}


def run(ctx: Context) -> None:
    """One step of the Action Phase (R128): its start, or one order of the step in ``state.step``.

    When a step has no order left, the next step begins; after the last, the clean-up ends the round.
    """
    st = ctx.state
    if not st.step:
        ctx.emit(PhaseStarted(round=st.round, phase="action"))
        st.step = "raids"
    elif not RESOLVE[st.step](ctx):
        st.cycle_done = []
        if st.step in NEXT_STEP:
            st.step = NEXT_STEP[st.step]
        else:
            st.step = ""
            for after in hooked("action_ended", st.box):  # A Feast for Crows: supply, objectives, the draw (F040)
                after(ctx)
            clean_up(ctx)


def clean_up(ctx: Context) -> None:
    """R167: remove the orders left, rally routed units, refresh the raven and the blade; R168."""
    st, board = ctx.state, ctx.board
    left = orders_on_board(st, board)
    for area, _, _ in left:
        st.area_mut(area).order = None
    if left:
        ctx.emit(OrdersRemoved(orders=tuple(left)))
    rallied: list[tuple[str, str, int]] = []
    for area in in_board_order(board, st.areas):
        routed = [u for u in st.area(area).units if u.routed]
        for u in routed:
            u.routed = False
        if routed:
            rallied.append((area, routed[0].house, len(routed)))
    if rallied:
        ctx.emit(UnitsRallied(units=tuple(rallied)))
    st.blade_used = False
    st.raven_used = False
    last = st.round >= st.last_round()
    ctx.emit(RoundEnded(round=st.round, last=last))
    if not last:
        st.round += 1
        for moved in hooked("round_advanced", st.box):  # Mother of Dragons: a dragon strength token (M090)
            moved(ctx)
        st.phase = "westeros"
        return
    final_winner(ctx)  # R260: the winner at the end of the last round; the game ends (GameOver)
