"""What phases and cards ask about Mother of Dragons' vassals: who commands whom, and who is one
family with whom this round (M030, ruling 234). Empty answers in a game without vassals.

>>> from adjudicator.game.mod_setup import new_mod_game
>>> s = new_mod_game(["stark", "lannister", "baratheon"], seed="doc")
>>> s.commanders = {"tyrell": "stark", "arryn": "stark"}
>>> head(s, "tyrell"), same_family(s, "arryn", "tyrell"), same_family(s, "stark", "greyjoy")
('stark', True, False)
"""

from __future__ import annotations

from ...game.board import Board, HouseId
from ...game.state import GameState


def head(state: GameState, house: HouseId) -> HouseId:
    """The player a house answers to this round: its commander, or itself."""
    return state.commanders.get(house, house)


def same_family(state: GameState, a: HouseId, b: HouseId) -> bool:
    """Two different houses of one family: they never raid, march into or support against each other
    (M045, M049, M069, ruling 234)."""
    return a != b and bool(state.vassals) and head(state, a) == head(state, b)


def family_holder(state: GameState, board: Board, house: HouseId, area: str) -> HouseId | None:
    """The other house of ``house``'s family that controls ``area`` this round, or ``None``: a
    commander never enters an area its vassal controls (M069, ruling 243), nor a dragon flies there
    (ruling 249)."""
    if not state.vassals:
        return None
    holder = state.controller(area, board)
    return holder if holder is not None and same_family(state, house, holder) else None


def family_area_problem(state: GameState, board: Board, house: HouseId, area: str) -> str | None:
    """Why ``house`` may not enter ``area`` because its family holds it, or ``None``: a vassal never
    marches into an area its commander or a fellow vassal controls (M045); for a commander, see
    :func:`vassal_area_problem`."""
    owner = family_holder(state, board, house, area)
    if owner is None or not state.is_vassal(house):
        return vassal_area_problem(state, board, house, area)
    return (f"{board.area(area).name} is controlled by {owner.title()}: a vassal never marches into an area its "
            "commander or another vassal of the same commander controls (M045, ruling 234)")


def vassal_area_problem(state: GameState, board: Board, commander: HouseId, area: str) -> str | None:
    """Why ``commander`` may not enter or put a unit in ``area``, held by one of its vassals this round,
    or ``None``: not by a march, a retreat, mustering, a loan or a card (M069, rulings 243, 284)."""
    owner = family_holder(state, board, commander, area)
    if owner is None or state.is_vassal(commander):
        return None
    return (f"{board.area(area).name} is controlled by {owner.title()}, your vassal this round: a commander never "
            "enters an area its vassal controls (M069, ruling 243)")
