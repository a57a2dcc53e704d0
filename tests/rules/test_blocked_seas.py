"""A sea a setup blocks is out of play like a blocked land area (ruling 444, docs/setups.md)."""

from __future__ import annotations

from adjudicator.engine.core.mustering import ship_places
from adjudicator.game.setup_file import setup_named


def test_ruling_444_no_ship_is_mustered_into_a_blocked_sea():
    state = setup_named("rumble-in-the-south").new_game(None, seed="s")
    board = state.board()
    assert "ironmans_bay" in board.neighbours["riverrun"]
    assert "ironmans_bay" not in ship_places(state, board, "lannister", "riverrun")
    assert "the_golden_sound" in ship_places(state, board, "lannister", "riverrun")
