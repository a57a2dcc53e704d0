"""Positions for the Iron Bank's tests: an expansion game with Targaryen and known loans."""

from __future__ import annotations

from typing import Any

from rules.helpers import at_action

from adjudicator.engine.core.context import Context, PoolEntry
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.state import GameState, Segment

FOUR_T = ["stark", "lannister", "baratheon", "targaryen"]


def bank_game(houses: list[str] = FOUR_T, *, bare: bool = True) -> GameState:
    """An expansion game with Targaryen (so the Iron Bank is in play), emptied of units when ``bare``."""
    s = new_mod_game(houses, seed="bank")
    if bare:
        for st in s.areas.values():
            st.units.clear()
        s.tidy()
    s.loan_slots = ["spymaster", "full_host", "customs_officer"]
    s.loan_deck = ["vanguard_cavalry", "sea_raiders"]
    return s


def ctx_for(s: GameState, *entries: dict[str, Any], deadline: bool = False) -> Context:
    pool = [PoolEntry.from_dict(e) for e in entries]
    return Context(s, s.board(), Segment("test", {}), pool, deadline)


def at_consolidate(s: GameState) -> GameState:
    at_action(s)
    s.step = "consolidate"
    return s


