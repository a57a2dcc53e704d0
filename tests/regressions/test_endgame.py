"""Review of the end of the game (R035, R036, R260-R262), through the real clean-up of round 10.

Each test names the rule it checks. A docstring starting "Was wrong:" says what the review found
and fixed; the others leave evidence that a trap was checked and the engine handles it.
Three houses, no units on the board: each holds its home (Winterfell, Lannisport, Dragonstone,
all strongholds); Iron Throne Baratheon, Lannister, Stark; supply and power as set per test.
"""

from __future__ import annotations

import pytest

from adjudicator.engine import machine
from adjudicator.engine.core.common import GameWon
from adjudicator.engine.core.context import Context, NeedAnswers
from adjudicator.engine.events.action import RoundEnded
from adjudicator.engine.events.westeros import FinalStandings
from adjudicator.engine.machine import advance
from adjudicator.engine.rules import action
from adjudicator.game.setup import new_game
from adjudicator.game.state import GameState, Unit

HOUSES = ["stark", "lannister", "baratheon"]


def _stop(ctx: Context) -> None:
    raise NeedAnswers([])


@pytest.fixture(autouse=True)
def _clean_up_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The action phase is only its clean-up; the next round's Westeros phase stops at once."""
    monkeypatch.setattr(machine, "_runners", lambda: {"action": action.clean_up, "westeros": _stop})


def end_of_round(n: int = 10) -> GameState:
    s = new_game(HOUSES, seed="review-end")
    s.round, s.phase = n, "action"
    for st in s.areas.values():
        st.units.clear()
        st.neutral_force = None
        st.garrison = None
    s.tidy()
    for house in HOUSES:
        s.houses[house].supply, s.houses[house].power = 2, 3
    return s


def hold(s: GameState, house: str, *areas: str) -> None:
    for area in areas:
        s.area_mut(area).units = [Unit(house, "footman")]


def winner(s: GameState) -> tuple[str, str]:
    step = advance(s)
    assert step.state.phase == "game_over" and step.requests == []
    (won,) = [e for e in step.events if isinstance(e, GameWon)]
    assert step.state.winner == won.winner and won.round == 10
    return won.winner, won.reason


def test_R035_the_clean_up_of_round_9_goes_on_to_round_10():
    step = advance(end_of_round(9))
    assert (step.state.round, step.state.phase, step.state.winner) == (10, "westeros", None)
    assert [e.last for e in step.events if isinstance(e, RoundEnded)] == [False]


def test_R260_castles_first_whatever_the_strongholds_supply_and_power():
    s = end_of_round()
    hold(s, "stark", "moat_cailin", "white_harbor")  # 3 areas, 1 stronghold
    hold(s, "lannister", "riverrun")  # 2 areas, 2 strongholds
    s.houses["lannister"].supply, s.houses["lannister"].power = 6, 20
    assert winner(s) == ("stark", "the most castles and strongholds (3) at the end of round 10")


def test_R260_a_tie_on_castles_goes_to_more_strongholds_not_more_castle_areas():
    s = end_of_round()
    hold(s, "stark", "moat_cailin")  # 2 areas: Winterfell, Moat Cailin (1 stronghold)
    hold(s, "lannister", "seagard")  # 2 areas: Lannisport, Seagard (2 strongholds)
    s.houses["stark"].supply, s.houses["stark"].power = 6, 20
    house, reason = winner(s)
    assert house == "lannister"
    assert reason.endswith("decided by strongholds: 2 against 1 (R260)")


def test_R260_then_the_higher_supply_position_not_the_barrels_held():
    """The trap: the Supply *track position* counts, not the barrels the house controls now."""
    s = end_of_round()
    hold(s, "stark", "white_harbor", "blackwater", "greywater_watch")  # 2 castle areas; 4 barrels
    hold(s, "lannister", "harrenhal")  # 2 castle areas; 2 barrels
    s.houses["stark"].supply, s.houses["lannister"].supply = 1, 3  # as the last Supply card left them
    s.houses["stark"].power = 20
    house, reason = winner(s)
    assert house == "lannister" and reason.endswith("decided by position on the Supply track: 3 against 1 (R260)")


def test_R260_then_the_most_available_power_not_power_on_the_board():
    """The trap: power tokens placed on the board are not available power."""
    s = end_of_round()
    hold(s, "stark", "white_harbor")
    hold(s, "lannister", "harrenhal")
    s.houses["stark"].power, s.houses["lannister"].power = 4, 3
    s.area_mut("stoney_sept").power_token = "lannister"
    s.area_mut("searoad_marches").power_token = "lannister"
    house, reason = winner(s)
    assert house == "stark" and reason.endswith("decided by available power: 4 against 3 (R260)")


def test_R261_then_the_higher_place_on_the_iron_throne_track_without_asking_the_holder():
    s = end_of_round()
    hold(s, "stark", "white_harbor")
    hold(s, "lannister", "harrenhal")
    house, reason = winner(s)  # Lannister 2nd on the Iron Throne, Stark 3rd; Baratheon holds it
    assert house == "lannister" and reason.endswith("decided by place on the Iron Throne track: 2 against 3 (R260)")


def test_R260_the_final_standings_list_every_house_with_its_criteria():
    s = end_of_round()
    hold(s, "stark", "white_harbor")
    step = advance(s)
    (final,) = [e for e in step.events if isinstance(e, FinalStandings)]
    assert final.standings == (("stark", 2, 1, 2, 3, 3), ("baratheon", 1, 1, 2, 3, 1), ("lannister", 1, 1, 2, 3, 2))


def test_R260_the_final_standings_read_in_plain_words_singular_and_plural():
    """Was wrong: the standings read "Lannister 1 castles (1 strongholds) ... Iron Throne 2"."""
    final = FinalStandings(standings=(("greyjoy", 4, 3, 3, 3, 4), ("lannister", 1, 1, 2, 0, 2)))
    assert final.describe() == (
        "Final standings: Greyjoy 4 areas with a castle or stronghold (3 strongholds), supply 3, power 3, "
        "place 4 on the Iron Throne track; Lannister 1 area with a castle or stronghold (1 stronghold), "
        "supply 2, power 0, place 2 on the Iron Throne track.")
