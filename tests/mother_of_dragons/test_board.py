"""Mother of Dragons' boards in play (M026-M029, M098): Essos, its links to Westeros, and what counts.

The rules run on the merged map (``state.board()``): a march across a cross-board link, Essos's
barrels in a Supply count, its castles towards seven.
"""

from __future__ import annotations

import pytest
from rules.helpers import at_action, combat, entry, march, phases, run  # noqa: F401

from adjudicator.engine.core.common import GameWon, supply_count
from adjudicator.game.mod_board import WESTEROSI, mod_board
from adjudicator.game.mod_setup import new_mod_game
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.state import GameState, Order, Unit

pytestmark = pytest.mark.usefixtures("phases", "combat")

FOUR_T = ["stark", "lannister", "arryn", "targaryen"]
LINKS = {("braavosian_coastlands", "the_narrow_sea"), ("braavosian_coastlands", "the_shivering_sea"),
         ("bay_of_pentos", "the_narrow_sea"), ("bay_of_pentos", "shipbreaker_bay"),
         ("sea_of_myrth", "shipbreaker_bay"), ("east_summer_sea", "sea_of_myrth"),
         ("east_summer_sea", "the_orange_shore")}


def bare(houses: list[str]) -> GameState:
    s = new_mod_game(houses, seed="board")
    for st in s.areas.values():
        st.units.clear()
    s.tidy()
    return s


def test_M026_essos_is_on_the_board_only_when_targaryen_plays():
    without = new_mod_game(list(WESTEROSI[:4]), seed="x")
    assert "braavos" not in without.board().areas
    with pytest.raises(PositionError, match="unknown area 'braavos'"):
        load_position('houses = ["stark", "lannister", "greyjoy", "tyrell"]\nexpansion = "mother-of-dragons"\n'
                      '[areas]\nbraavos = ["stark footman"]\n')
    assert "braavos" in new_mod_game(FOUR_T, seed="x").board().areas


def test_M027_seven_sea_links_join_essos_to_westeros_and_only_seas():
    board = mod_board(essos=True)
    cross = {tuple(sorted((a, b))) for a, b in board.border_pairs if board.is_essos(a) != board.is_essos(b)}
    assert cross == {tuple(sorted(p)) for p in LINKS}
    assert all(board.area(a).is_sea and board.area(b).is_sea for a, b in cross)


def test_M027_a_ship_marches_across_a_link_as_between_adjacent_seas():
    s = bare(FOUR_T)
    s.area_mut("the_narrow_sea").units.append(Unit("stark", "ship"))
    s.area_mut("the_narrow_sea").order = Order("stark", "march+0")
    step = run(at_action(s), entry("stark", march("the_narrow_sea", ("braavosian_coastlands", "ship"))))
    assert [u.house for u in step.state.area("braavosian_coastlands").units] == ["stark"]
    assert not step.state.area("the_narrow_sea").units


def test_M027_a_march_from_westeros_to_an_essos_sea_not_linked_is_refused():
    s = bare(FOUR_T)
    s.area_mut("the_narrow_sea").units.append(Unit("stark", "ship"))
    s.area_mut("the_narrow_sea").order = Order("stark", "march+0")
    step = run(at_action(s), entry("stark", march("the_narrow_sea", ("sea_of_myrth", "ship"))))
    assert not step.state.area("sea_of_myrth").units  # not adjacent: the answer is refused, the ship stays
    assert [r.kind for r in step.requests] == ["march"]


def test_M028_essos_barrels_count_for_supply():
    s = new_mod_game(FOUR_T, seed="x")
    assert supply_count(s, s.board(), "targaryen") == 4  # Pentos, Myr, Norvos, The Rhoyne


def test_M029_ruling_268_essos_castles_count_towards_seven_for_a_westerosi_house():
    s = bare(FOUR_T)
    castles = ["winterfell", "white_harbor", "moat_cailin", "the_eyrie", "the_vale_of_arryn", "braavos"]
    for a in castles:
        s.area_mut(a).units.append(Unit("stark", "footman"))
        s.area_mut(a).neutral_force = None
        s.area_mut(a).garrison = 0
    board = s.board()
    assert s.castles("stark", board) == 6
    s.area_mut("pentos").garrison = 0
    s.area_mut("pentos").units.append(Unit("stark", "footman"))
    assert s.castles("stark", board) == 7  # Pentos, a stronghold on Essos, is the seventh
    s.area_mut("pentos").units.clear()
    s.area_mut("pentos").garrison = 2
    s.area_mut("greywater_watch").units.append(Unit("stark", "knight"))
    s.area_mut("greywater_watch").order = Order("stark", "march+0")
    s.tidy()
    step = run(at_action(s), entry("stark", march("greywater_watch", ("seagard", "knight"))))  # a seventh castle
    assert step.state.winner == "stark" and any(isinstance(e, GameWon) for e in step.events)


def test_M098_ruling_251_kings_court_position_8_has_3_stars():
    s = new_mod_game(FOUR_T, seed="x")
    board = s.board()
    assert [board.kings_court_stars(p, False) for p in range(1, 9)] == [3, 3, 2, 1, 0, 0, 0, 3]
    assert s.stars("targaryen", board) == 3 and s.position("kings_court", "targaryen") == 8
    seven = new_mod_game(list(WESTEROSI), seed="x")
    assert [seven.stars(h, seven.board()) for h in seven.tracks["kings_court"]] == [3, 3, 2, 1, 0, 0, 0]
