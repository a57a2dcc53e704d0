"""A Feast for Crows' decisions coming up (the ``decisions_ahead`` hook of :func:`.ahead.upcoming`):
the objective a house scores after this round's Action Phase (F042), which it may answer from the
Planning Phase on, as the position stands now; the answer waits for its step (ruling 410).
"""

from __future__ import annotations

from ..game.board import Board, HouseId
from ..game.commands import ScoreObjective
from ..game.hooks import register
from ..game.state import GameState
from .ahead import Upcoming
from .core.context import Request
from .rules.objective_conditions import OBJECTIVES, met


def decisions(state: GameState, board: Board, house: HouseId, asked: list[Request], orders: dict[str, str] | None,
              commanded: dict[str, dict[str, str]] | None) -> list[Upcoming]:
    """The objective to score, when the house holds objectives and is not asked it yet."""
    hand = state.objectives.get(house, [])
    if state.phase not in ("planning", "action") or not hand or any(r.kind == "objective" for r in asked):
        return []
    can = [o for o in hand if met(state, board, house, OBJECTIVES[o])]
    req = Request(key=f"ahead.objective.{house}", kind="objective", house=house, secret=True,
                  prompt="score one objective of your hand that you meet after the Action Phase, or none",
                  context={"objectives": list(hand), "met": can},
                  options=(*(ScoreObjective(objective=o) for o in can), ScoreObjective(objective=None)),
                  default=ScoreObjective(objective=None))
    return [Upcoming(req, "after this round's Action Phase, as the board will stand then (F042)")]


register("decisions_ahead", "objectives", decisions)
