"""A Feast for Crows' line of the state's summary and of every report's board: the objectives each
house has scored (public, F043) and how many it holds (its hand stays hidden, F032).

Registered at the ``summary_lines`` hook point (game/hooks.py).

>>> from adjudicator.game.variants import variant
>>> s = variant("a-feast-for-crows").setup(["stark", "lannister", "baratheon", "arryn"], seed="doc")
>>> s.objectives_scored["lannister"] = ["hold_court"]
>>> s.victory_points["lannister"] = 3
>>> objective_lines(s, s.board())[2]
'              Lannister 3 points, holds 5: Hold Court'
"""

from __future__ import annotations

from ..engine.events import house_name
from ..engine.events.objectives import objective_name
from ..game.board import Board
from ..game.hooks import register
from ..game.state import GameState


def objective_lines(state: GameState, board: Board | None = None) -> list[str]:
    """Each house's points, the objectives it holds (a count) and those it scored, turn order."""
    out = [f"{'Objectives:':<14}victory at {state.victory_target(board or state.board())} points"]
    for h in state.turn_order():
        scored = ", ".join(objective_name(o) for o in state.objectives_scored.get(h, [])) or "none scored"
        n = state.victory_points.get(h, 0)
        out.append(f"{'':<14}{house_name(h)} {n} point{'' if n == 1 else 's'}, holds "
                   f"{len(state.objectives.get(h, []))}: {scored}")
    return out


register("summary_lines", "objectives", objective_lines)
