"""The generic setup (game/box_setup.py): a box's setup as data, garrisons outside a home area
(ruling 340, tests/rules/test_garrisons_elsewhere.py), areas out of play, and a toy box that is data only played through ``simulate``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.game.box_setup import read_changes
from adjudicator.game.boxes import box_folder_added, box_named, box_names
from adjudicator.game.position import PositionError, load_position
from adjudicator.game.position_dump import dump_position
from adjudicator.game.setup import SetupError
from adjudicator.game.state import GameState
from adjudicator.game.variants import variant
from adjudicator.robots.simulate import simulate

TOY = Path(__file__).parent / "data" / "toy_box"


@pytest.fixture
def toy() -> Iterator[str]:
    with box_folder_added(TOY) as name:
        yield name


def test_a_box_folder_added_is_known_for_the_duration_only():
    with box_folder_added(TOY) as name:
        assert name == "toy" and "toy" in box_names() and box_named("toy").rounds == 6
    assert "toy" not in box_names()


def test_a_data_only_box_lays_out_the_printed_setup_with_its_changes(toy):
    state = variant(toy).setup(["stark", "lannister", "baratheon"], seed="toy")
    printed = variant("classic").setup(["stark", "lannister", "baratheon"], seed="toy")
    assert set(state.impassable) == set(printed.impassable) | {"harrenhal", "the_eyrie"}
    riverrun = state.area("riverrun")
    assert (riverrun.garrison, riverrun.garrison_house) == (3, "lannister")
    assert state.area("lannisport").garrison == 2 and state.area("lannisport").garrison_house is None
    assert state.westeros_decks == printed.westeros_decks and state.houses == printed.houses  # the same shuffles
    assert state.check() == [] and state.variant == "toy"


def test_a_data_only_box_refuses_a_count_it_is_not_played_with(toy):
    with pytest.raises(SetupError, match="the toy box is played by 3 or 4 players, not 5"):
        variant(toy).setup(["stark", "lannister", "baratheon", "greyjoy", "tyrell"], seed="toy")


def test_a_setup_file_with_a_wrong_key_or_area_is_refused_with_where_and_why():
    board = box_named("classic").board([])
    with pytest.raises(ValueError, match="toy: garisson: not a setup key"):
        read_changes({"garisson": []}, "toy", board)
    with pytest.raises(ValueError, match="toy: house.stark.units: 'winterfel' is not an area of the map"):
        read_changes({"house": {"stark": {"units": [{"area": "winterfel", "unit": "footman"}]}}}, "toy", board)
    with pytest.raises(ValueError, match="toy: house.stark.units: each a unit type"):
        read_changes({"house": {"stark": {"units": [{"area": "winterfell", "unit": "dragon2"}]}}}, "toy", board)


def test_a_toy_box_of_data_only_plays_through_simulate_to_its_own_round_limit(toy):
    seen: list[GameState] = []
    result = simulate(3, 7, text=False, expansion=toy, on_step=seen.append)
    assert result.problems == [] and result.winner is not None and result.round <= 6
    assert all(s.round <= 6 for s in seen) and all(s.variant == "toy" for s in seen)
    assert not any(s.area(a).units or s.area(a).power_token for s in seen for a in ("harrenhal", "the_eyrie"))


def test_a_toy_box_state_and_position_round_trip(toy):
    state = variant(toy).setup(["stark", "lannister", "baratheon"], seed="toy")
    assert GameState.from_toml(state.to_toml()) == state
    again = load_position(dump_position(state), filename="toy.toml")
    assert again.area("riverrun").garrison_house == "lannister" and again.variant == "toy"



def test_ruling_340_a_garrison_elsewhere_never_lies_under_other_houses_units():
    with pytest.raises(PositionError, match="never under enemy units"):
        load_position('start = "empty"\nhouses = ["stark", "lannister", "baratheon"]\n[areas]\n'
                      'riverrun = { units = ["lannister footman"], garrison = 3, garrison_house = "stark" }\n',
                      filename="p.toml")
    state = variant("classic").setup(["stark", "lannister", "baratheon"], seed="g")
    state.area_mut("riverrun").garrison, state.area_mut("riverrun").garrison_house = 3, "stark"
    state.area_mut("riverrun").units = list(state.area("lannisport").units[:1])
    assert any("a stark garrison under lannister units" in p for p in state.check())
