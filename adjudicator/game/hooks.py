"""Named hook points where a box's own modules add what the base game does not have.

The base code calls a hook point and never tests a box: ``for decide in hooked("decisions_ahead",
state.box): ...``. A box's module registers its functions under a point and the feature they
belong to (``register("decisions_ahead", "vassals", decisions)``, called after the function as a
house card is registered); a box names its modules at each point in its ``box.toml`` (``[hooks]
decisions_ahead = ["adjudicator.engine.ahead_mod"]``), and they are imported the first time that
point is called for that box: the base modules never import a box's (its modules import the base
ones they build on), and a point loads only what it needs. A point gives the functions its box's
modules registered there for the features the box has, in the order they were registered.

>>> from adjudicator.game.boxes import box_named
>>> [f.__name__ for f in hooked("decisions_ahead", box_named("mother-of-dragons"))]
['decisions']
>>> hooked("decisions_ahead", box_named("classic"))
[]
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .boxes import FEATURES, Box

__all__ = ["POINTS", "hooked", "register"]

POINTS: dict[str, str] = {
    "decisions_ahead": "the decisions a house may answer before it is asked (engine/ahead.py upcoming)",
    "summary_lines": "lines of the state's summary after the tracks (reports/show.py summary)",
    "state_problems": "what a state breaks of the box's own limits (game/state.py GameState.check)",
    "state_written": "the box's own parts of a state, as keys of its state table (game/state.py GameState.to_dict)",
    "state_read": "the box's own parts of a state, read back from its state table (game/state.py GameState.from_dict)",
    "state_checked": "the keys of the box's state table checked before they are read (game/validation.py validate_dict)",
    "game_laid_out": "what a box deals at setup after the shuffles of the base decks (game/box_setup.py)",
    "round_start": "what happens first in each Westeros phase (engine/rules/westeros.py)",
    "westeros_card": "a Westeros card of the box's own, resolved (engine/rules/westeros.py resolve_card)",
    "planning_started": "what comes before the orders of a Planning Phase (engine/rules/planning.py)",
    "orders_asked": "the orders a player gives besides its own, each ask with what places them (engine/rules/planning.py)",
    "control_changed": "what follows any change of control, before the victory check (engine/core/common.py)",
    "victory_counted": "a victory the box counts otherwise than in castles (engine/core/common.py check_victory)",
    "action_ended": "what follows the last order of the Action Phase, before its clean-up (engine/rules/action.py)",
    "round_advanced": "what follows the round marker's move to the next round (engine/rules/action.py)",
    "robot_mischief": "a robot's wrong or odd answer of the box's own, tried first (robots/players.py mischief)",
}
"""Every hook point, and what its functions add."""

_HOOKS: dict[str, list[tuple[str, Callable[..., Any]]]] = {point: [] for point in POINTS}
_LOADED: set[str] = set()


def register(point: str, feature: str, fn: Callable[..., Any]) -> None:
    """Add ``fn`` at ``point`` for the boxes that have ``feature``.

    :raises ValueError: for an unknown point or feature, or a function registered twice.
    """
    if point not in POINTS or feature not in FEATURES:
        raise ValueError(f"unknown hook point {point!r} or feature {feature!r}")
    if any(f is fn for _, f in _HOOKS[point]):
        raise ValueError(f"{fn.__name__} registered twice at {point}")
    _HOOKS[point].append((feature, fn))


def hooked(point: str, box: Box) -> list[Callable[..., Any]]:
    """The functions the box's modules registered at ``point`` for the features it has (the modules
    imported first): module by module in the order the box names them, each module's in the order
    it registered them (whichever module a process happened to import first)."""
    modules = box.hooks.get(point, ())
    for module in modules:
        if module not in _LOADED:
            importlib.import_module(module)
            _LOADED.add(module)
    return [fn for module in modules for feature, fn in _HOOKS[point] if fn.__module__ == module and box.has(feature)]
