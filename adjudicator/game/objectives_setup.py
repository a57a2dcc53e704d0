"""A Feast for Crows' objectives at setup and in the state: the deal of five (F033) and the limits a
state keeps (every objective card in one place, F030).

Registered at the ``game_laid_out`` hook point (game/box_setup.py) for the boxes with objectives: the
deck is shuffled after the base game's decks, so a seed deals the same Westeros and wildling decks
in every box, and dealt again the same way when the audit shuffles a revealed seed afresh.

>>> from adjudicator.game.variants import variant
>>> s = variant("a-feast-for-crows").setup(["stark", "lannister", "baratheon", "arryn"], seed="doc")
>>> [len(s.objectives[h]) for h in s.turn_order()], len(s.objective_deck), problems(s, s.board())
([5, 5, 5, 5], 8, [])
"""

from __future__ import annotations

from .board import Board
from .box_setup import draw_shuffle
from .hooks import register
from .objective_cards import OBJECTIVES, objective_deck
from .state import GameState

DEALT = 5  # each house is dealt five and keeps three (F033)
KEPT = 3


def deal_objectives(state: GameState) -> None:
    """Shuffle every objective card of the game (the whole deck at setup) and deal five to each house
    in turn order; nothing is scored yet."""
    order = objective_deck()
    cards = sorted([*state.objective_deck, *(o for h in state.objectives.values() for o in h)], key=order.index) \
        or order
    deck = draw_shuffle(state, cards)
    state.objectives = {}
    for house in state.turn_order():
        state.objectives[house], deck = deck[:DEALT], deck[DEALT:]
    state.objective_deck = deck
    state.objectives_scored = {h: [] for h in state.turn_order()}
    state.victory_points = dict.fromkeys(state.turn_order(), 0)


register("game_laid_out", "objectives", deal_objectives)


def problems(state: GameState, board: Board) -> list[str]:
    """What a state breaks of the objectives' limits: each of the 28 cards in one place."""
    places = [*state.objective_deck, *(o for h in state.objectives.values() for o in h),
              *(o for h in state.objectives_scored.values() for o in h)]
    out = []
    missing = sorted(set(OBJECTIVES) - set(places))
    twice = sorted({o for o in places if places.count(o) > 1})
    if missing or twice:
        out.append(f"the objective cards are not each in one place (missing: {', '.join(missing) or 'none'}; "
                   f"in two places: {', '.join(twice) or 'none'})")
    return out


register("state_problems", "objectives", problems)
