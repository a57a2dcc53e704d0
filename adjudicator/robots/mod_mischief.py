"""Mother of Dragons' mischief of a robot: now and then a gift of power to another player (M121),
which the game makes or refuses (ruling 261). Registered at the ``robot_mischief`` hook point
(game/hooks.py), which :meth:`~adjudicator.robots.players.Robot.mischief` calls before its own.
"""

from __future__ import annotations

from random import Random

from ..game.commands import Command, Give
from ..game.hooks import register
from ..game.state import GameState


def gift(rng: Random, house: str, state: GameState) -> list[Command]:
    """One time in five, a gift of 1 or 2 power to another player; otherwise nothing."""
    if rng.random() >= 0.2:
        return []
    others = [h for h in state.players() if h != house]
    return [Give(power=1 + rng.randrange(2), to=rng.choice(others))]


register("robot_mischief", "gifts", gift)
