"""A Feast for Crows' objectives at setup and in the state: the deal of five (F033), the box's table
of the state file (``[a_feast_for_crows]``: the deck, the hidden hands, the scored cards, the
points; ruling 341's mechanism), and the limits a state keeps (every objective card in one place, F030).

Registered at the ``game_laid_out`` hook point (game/box_setup.py) for the boxes with objectives: the
deck is shuffled after the base game's decks, so a seed deals the same Westeros and wildling decks
in every box, and dealt again the same way when the audit shuffles a revealed seed afresh.

>>> from adjudicator.game.variants import variant
>>> s = variant("a-feast-for-crows").setup(["stark", "lannister", "baratheon", "arryn"], seed="doc")
>>> [len(s.objectives[h]) for h in s.turn_order()], len(s.objective_deck), problems(s, s.board())
([5, 5, 5, 5], 8, [])
>>> sorted(s.to_dict()["a_feast_for_crows"]), GameState.from_toml(s.to_toml()) == s
(['objective_deck', 'objectives', 'objectives_scored', 'victory_points'], True)
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .hooks import register
from .state import GameState
from .validation import Shape

DEALT = 5  # each house is dealt five and keeps three (F033)
KEPT = 3
# The cards' data (objective_cards) is read by the functions below, which only a box with objectives
# calls: a base game's every step imports this module for KEPT and its hooks (so does the setup's shuffle).


def deal_objectives(state: GameState) -> None:
    """Shuffle every objective card of the game (the whole deck at setup) and deal five to each house
    in turn order; nothing is scored yet."""
    from .box_setup import draw_shuffle  # the setup's shuffle, as the cards: only a box with objectives deals them
    from .objective_cards import objective_deck

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
    from .objective_cards import OBJECTIVES

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


# --- the box's table of the state file ---------------------------------------------------------------


def objectives_written(state: GameState) -> dict[str, Any]:
    return {"objective_deck": list(state.objective_deck),
            "objectives": {h: list(o) for h, o in state.objectives.items()},
            "objectives_scored": {h: list(o) for h, o in state.objectives_scored.items()},
            "victory_points": dict(state.victory_points)}


def objectives_read(state: GameState, table: dict[str, Any]) -> None:
    state.objective_deck = list(table.get("objective_deck", []))
    state.objectives = {h: list(o) for h, o in table.get("objectives", {}).items()}
    state.objectives_scored = {h: list(o) for h, o in table.get("objectives_scored", {}).items()}
    state.victory_points = dict(table.get("victory_points", {}))


def objectives_checked(sh: Shape, table: dict[str, Any], path: str, in_play: list[str], board: Board) -> None:
    """Every card one of the 28 and in one place at most, every house one in play, points whole."""
    from .objective_cards import OBJECTIVES

    seen = sh.names(table, "objective_deck", path, OBJECTIVES, "an objective card")
    for part in ("objectives", "objectives_scored"):
        for h, cards in sh.table(table, part, path).items():
            if h not in in_play:
                sh.fail(f"{path}{part}.{h}", "not a house in play")
            seen += sh.names({h: cards}, h, f"{path}{part}.", OBJECTIVES, "an objective card")
    for h in sh.table(table, "victory_points", path):
        if h not in in_play:
            sh.fail(f"{path}victory_points.{h}", "not a house in play")
        sh.number(table["victory_points"], h, f"{path}victory_points.", 0)
    twice = sorted({o for o in seen if seen.count(o) > 1})
    if twice:
        sh.fail(f"{path}objectives", f"{sh.show(twice[0])} lies in two places: each objective card is in one")


register("state_written", "objectives", objectives_written)
register("state_read", "objectives", objectives_read)
register("state_checked", "objectives", objectives_checked)
