"""A player leaving between rounds (M124, M125, ruling 262)."""

from __future__ import annotations

import pytest

from adjudicator.engine.invariants import check_invariants
from adjudicator.engine.rules.leaving import LeavingRefused, player_leaves
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState

SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "targaryen"]


def between_rounds(houses: list[str] = SIX) -> GameState:
    s = new_mod_game(houses, seed="leave")
    s.round, s.phase, s.step = 3, "westeros", ""
    s.dragon_tokens = [r for r in s.dragon_tokens if r > s.round]  # rounds 2 and 3 began (M090, ruling 274)
    s.pending = [{"key": "r3.westeros.stand-in", "kind": "westeros_choice", "house": "stark", "prompt": "..."}]
    return s


def test_M124_a_leaving_players_house_becomes_a_vassal_with_all_its_units():
    s = between_rounds()
    s.houses["stark"].power, s.houses["stark"].loans = 6, ["customs_officer"]
    s.loan_slots = [x if x != "customs_officer" else "" for x in s.loan_slots]
    s.loan_deck = [x for x in s.loan_deck if x != "customs_officer"]
    units = s.units_of("stark")
    t, events = player_leaves(s, "stark")
    assert "stark" in t.vassals and "stark" not in t.players()
    assert t.units_of("stark") == units and t.houses["stark"].loans == ["customs_officer"]
    assert (t.houses["stark"].power, t.houses["stark"].hand) == (0, []) and events[0].power_returned == 6
    assert t.tracks == s.tracks and len(t.vassal_sets) == len(t.vassals)
    assert check_invariants(t) == [] and "stark" not in s.vassals  # the position given is left alone


def test_M124_ruling_262_only_between_rounds_and_while_three_westerosi_players_stay():
    s = between_rounds()
    s.phase = "planning"
    with pytest.raises(LeavingRefused, match="between two rounds"):
        player_leaves(s, "stark")
    s = between_rounds(["stark", "lannister", "baratheon", "targaryen"])
    with pytest.raises(LeavingRefused, match="ruling 262"):
        player_leaves(s, "stark")


def test_M125_targaryens_player_cannot_leave_that_way():
    with pytest.raises(LeavingRefused, match="M125"):
        player_leaves(between_rounds(), "targaryen")
