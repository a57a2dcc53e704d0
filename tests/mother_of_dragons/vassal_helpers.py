"""Positions for the vassal tests: an expansion game with its units cleared, answers for a vassal."""

from __future__ import annotations

from typing import Any

from rules.helpers import entry

from adjudicator.game.commands import Command, ForVassal
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState

THREE = ["stark", "lannister", "baratheon"]  # vassals: greyjoy, tyrell, martell, arryn


def mod_game(houses: list[str] = THREE, *, seed: str = "vassals", bare: bool = True) -> GameState:
    """A new expansion game; ``bare`` takes every unit off the board (garrisons and neutral forces stay)."""
    state = new_mod_game(houses, seed=seed)
    if bare:
        for st in state.areas.values():
            st.units.clear()
        state.tidy()
    return state


def for_vassal(commander: str, vassal: str, cmd: Command) -> dict[str, Any]:
    """One answer a commander sends for its vassal (``for tyrell: ...``)."""
    return entry(commander, ForVassal(vassal=vassal, command=cmd))
