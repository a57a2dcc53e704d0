"""A Feast for Crows' mischief of a robot: now and then an objective claimed that it does not hold,
or two kept where three are asked, which the game refuses with the rule (F033, F042). Registered at
the ``robot_mischief`` hook point (game/hooks.py), which :meth:`~adjudicator.robots.players.Robot.mischief`
calls before its own.
"""

from __future__ import annotations

from random import Random

from ..game.commands import Command, KeepObjectives, ScoreObjective
from ..game.hooks import register
from ..game.objective_cards import OBJECTIVES
from ..game.state import GameState


def wrong_objective(rng: Random, house: str, state: GameState) -> list[Command]:
    """One time in five: a claim of an objective another house holds or nobody does, or (while the
    five dealt wait) only two of them kept."""
    if rng.random() >= 0.2:
        return []
    hand = state.objectives.get(house, [])
    if len(hand) > 3:
        return [KeepObjectives(objectives=tuple(hand[:2]))]
    others = sorted(set(OBJECTIVES) - set(hand))
    return [ScoreObjective(objective=rng.choice(others))]


register("robot_mischief", "objectives", wrong_objective)
