"""A Feast for Crows' The Burden of Power comes up ahead as A Throne of Blades does (ruling 124): while its
holder may still choose to muster, every house may send its mustering with the same mail."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.engine.ahead import cards_to_come, upcoming
from adjudicator.engine.core.context import Request
from adjudicator.game.state import GameState
from adjudicator.robots.simulate import simulate

AFFC = "a-feast-for-crows"


def _states_where(keep: Callable[[GameState, list[Request]], bool]) -> list[GameState]:
    """The steps that ``keep`` (a step and what it asks) picks, of the first robot game of the scenario,
    seeds 1-11, that has any."""
    for seed in range(1, 12):
        seen: list[GameState] = []
        simulate(4, seed, rounds=6, text=False, chaos=0.0, expansion=AFFC, on_step=seen.append)
        found = [state for state in seen if keep(state, [Request.from_dict(p) for p in state.pending])]
        if found:
            return found
    return []


def _states_with(card: str, *, now: bool) -> list[GameState]:
    """Steps where ``card`` resolves now (or later) in a Westeros phase and nobody is asked to muster yet."""

    def keep(state: GameState, asked: list[Request]) -> bool:
        first, later = cards_to_come(state)
        return (first == card if now else card in later) and not any(r.kind == "muster" for r in asked)

    return _states_where(keep)


def _muster_whys(state: GameState) -> set[str]:
    asked = [Request.from_dict(p) for p in state.pending]
    return {u.why for house in state.houses_in_play for u in upcoming(state, house, asked)
            if u.request.kind == "muster"}


def test_F042_the_burden_of_power_offers_the_musters_while_its_holder_may_still_choose_them():
    states = _states_with("the_burden_of_power", now=True)
    assert states, "no robot game of seeds 1-11 revealed The Burden of Power"
    chosen = [s for s in states if any(r["kind"] == "westeros_choice" for r in s.pending)]
    assert chosen, "The Burden of Power asks its holder first"
    for state in chosen:
        assert "if the holder of the Iron Throne chooses mustering for The Burden of Power: you may send yours now" \
            in _muster_whys(state)


def test_ruling_405_rally_the_men_offers_a_later_house_one_point_in_each_castle_and_no_stronghold():
    from adjudicator.game.boxes import board_for
    from adjudicator.game.cards import CARDS

    (rally,) = [c for c in CARDS.westeros if c.id == "rally_the_men"]
    assert rally.musters == "castles"

    def upcoming_musters(state: GameState, asked: list[Request]) -> list[Any]:
        return [u for house in state.houses_in_play for u in upcoming(state, house, asked) if u.request.kind == "muster"]

    def keep(state: GameState, asked: list[Request]) -> bool:
        return (cards_to_come(state)[0] == "rally_the_men" and any(r.kind == "muster" for r in asked)
                and bool(upcoming_musters(state, asked)))

    found = [(state, u) for state in _states_where(keep)
             for u in upcoming_musters(state, [Request.from_dict(p) for p in state.pending])]
    assert found, "no robot game of seeds 1-11 asked a muster of Rally the Men with another house still to muster"
    for state, u in found:
        board = board_for(AFFC, state.houses_in_play)
        area = str(u.request.context["area"])
        assert u.request.context["points"] == 1, u.request
        assert state.effective_area(area, board).fortification == "castle", area
