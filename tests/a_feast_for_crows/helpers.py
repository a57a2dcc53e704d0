"""A Feast for Crows positions for the objective tests: the scenario's setup, or a board cleared of
units and Power tokens, with units put where a test wants them."""

from __future__ import annotations

from adjudicator.game.state import AreaState, GameState, Unit
from adjudicator.game.variants import variant

AFFC = "a-feast-for-crows"
FOUR = ["stark", "lannister", "baratheon", "arryn"]


def setup(seed: str = "crows") -> GameState:
    return variant(AFFC).setup(FOUR, seed=seed)


def cleared() -> GameState:
    """The scenario's setup with every unit and Power token taken off (the garrisons stay)."""
    state = setup()
    state.areas = {a: AreaState(garrison=s.garrison, garrison_house=s.garrison_house)
                   for a, s in state.areas.items() if s.garrison}
    return state


def put(state: GameState, house: str, area: str, unit: str = "footman", count: int = 1) -> GameState:
    state.area_mut(area).units.extend(Unit(house, unit) for _ in range(count))
    return state


def token(state: GameState, house: str, *areas: str) -> GameState:
    for a in areas:
        state.area_mut(a).power_token = house
    return state
