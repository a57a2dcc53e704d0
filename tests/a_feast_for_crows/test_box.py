"""A Feast for Crows as a box of its own: its map, its setup as data, four players with Arryn
(docs/rules-a-feast-for-crows.md sections 1 and 2, rulings 400-403)."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.cli import main
from adjudicator.folder.gamedir import GameDir
from adjudicator.game.board import Board
from adjudicator.game.boxes import box_named
from adjudicator.game.cards import CARDS
from adjudicator.game.maps import board_named
from adjudicator.game.setup import SetupError
from adjudicator.game.state import GameState, Segment
from adjudicator.game.variants import variant
from adjudicator.reports.report import render_report

AFFC = "a-feast-for-crows"
FOUR = ["stark", "lannister", "baratheon", "arryn"]
SOUTH = {"pyke", "port_of_pyke", "highgarden", "oldtown", "port_of_oldtown", "sunspear", "port_of_sunspear",
         "salt_shore", "yronwood", "starfall", "three_towers", "dornish_marches", "princes_pass", "the_boneway"}


@pytest.fixture(scope="module")
def game() -> GameState:
    return variant(AFFC).setup(FOUR, seed="crows")


def units(state: GameState, house: str) -> Counter[tuple[str, str]]:
    return Counter((a, u.type) for a, u in state.units_of(house))


def test_F001_four_players_baratheon_lannister_stark_and_arryn():
    box = box_named(AFFC)
    assert box.houses == tuple(FOUR) and box.board(FOUR).setups[4].houses == tuple(FOUR)
    with pytest.raises(SetupError, match="greyjoy cannot play in a 4-player game"):
        variant(AFFC).setup(["stark", "lannister", "baratheon", "greyjoy"], seed="crows")
    with pytest.raises(SetupError, match="has 4 houses, not 3"):
        variant(AFFC).setup(FOUR[:3], seed="crows")


def test_F001_the_base_game_still_refuses_arryn():
    with pytest.raises(SetupError, match="unknown house 'arryn'"):
        variant("classic").setup(["stark", "lannister", "baratheon", "arryn"], seed="crows")


def test_F002_the_south_is_out_of_play_and_the_rest_open(game):
    assert set(game.impassable) == SOUTH
    for open_area in ("the_reach", "the_arbor", "searoad_marches", "blackwater", "storms_end", "kingswood"):
        assert open_area not in game.impassable


def test_F003_the_eyrie_is_arryns_home_on_the_base_map():
    board = board_named("feast")
    eyrie = board.area("the_eyrie")
    assert (eyrie.home_of, eyrie.fortification, eyrie.supply, eyrie.power) == ("arryn", "castle", 1, 1)
    assert board.home_area("arryn") == "the_eyrie" and "port_of_the_eyrie" not in board.areas
    classic = Board.classic()
    assert set(board.areas) == set(classic.areas) and board.border_pairs == classic.border_pairs
    assert classic.area("the_eyrie").home_of is None  # the base map is untouched


def test_F004_arryn_owns_19_power_tokens_the_others_20(game):
    board = game.board()
    assert board.power_cap("arryn") == 19 and {board.power_cap(h) for h in FOUR[:3]} == {20}
    assert Board.classic().power_cap("stark") == 20
    over = GameState.from_dict(game.to_dict())
    over.houses["arryn"].power = 19
    assert not any("arryn has" in p for p in over.check())
    over.houses["arryn"].power = 20
    assert "arryn has 20 power tokens; the box holds 19" in over.check()


def test_F004_a_house_at_its_cap_gains_no_power(game):
    from adjudicator.engine.core.common import gain_power
    from adjudicator.engine.core.context import Context

    state = GameState.from_dict(game.to_dict())
    state.houses["arryn"].power = 19 - state.power_on_board("arryn") - 1
    ctx = Context(state, state.board(), Segment("westeros", {}), [], True)
    assert gain_power(ctx, "arryn", 3, "a test") == 1 and state.houses["arryn"].power + state.power_on_board("arryn") == 19


def test_F005_ten_rounds(game):
    assert box_named(AFFC).rounds == 10 and game.last_round() == 10


def test_F006_arryn_plays_its_feast_for_crows_cards_the_others_their_base_decks(game):
    assert sorted(game.houses["arryn"].hand) == sorted(CARDS.of_set("arryn_affc"))
    for h in FOUR[:3]:
        assert sorted(game.houses[h].hand) == sorted(c.id for c in CARDS.house_cards.values()
                                                     if c.house == h and c.set == "base")


def test_F007_the_tracks_supply_and_power(game):
    assert game.tracks == {"iron_throne": ["baratheon", "lannister", "arryn", "stark"],
                           "fiefdoms": ["stark", "arryn", "baratheon", "lannister"],
                           "kings_court": ["arryn", "lannister", "baratheon", "stark"]}
    assert {h: game.houses[h].supply for h in FOUR} == {"baratheon": 2, "lannister": 5, "arryn": 3, "stark": 2}
    assert all(game.houses[h].power == 5 for h in FOUR)  # ruling 403
    assert game.kings_court_overlay and game.wildling_threat == 2  # ruling 402
    assert game.check() == []


def test_F007_each_houses_units(game):
    assert units(game, "stark") == Counter({("winterfell", "footman"): 1, ("winterfell", "knight"): 1,
                                            ("port_of_winterfell", "ship"): 1, ("white_harbor", "knight"): 1,
                                            ("moat_cailin", "footman"): 1, ("moat_cailin", "siege_engine"): 1,
                                            ("seagard", "knight"): 1, ("the_shivering_sea", "ship"): 1})
    assert units(game, "lannister") == Counter({("lannisport", "footman"): 2, ("the_golden_sound", "ship"): 1,
                                                ("stoney_sept", "footman"): 1, ("harrenhal", "footman"): 1,
                                                ("harrenhal", "knight"): 1, ("kings_landing", "footman"): 2,
                                                ("blackwater_bay", "ship"): 1})
    assert units(game, "baratheon") == Counter({("dragonstone", "footman"): 1, ("shipbreaker_bay", "ship"): 2,
                                                ("kingswood", "footman"): 1, ("kingswood", "siege_engine"): 1,
                                                ("storms_end", "knight"): 1})
    assert units(game, "arryn") == Counter({("the_eyrie", "knight"): 1, ("the_mountains_of_the_moon", "footman"): 2,
                                            ("the_mountains_of_the_moon", "knight"): 1, ("the_twins", "footman"): 1,
                                            ("the_fingers", "footman"): 1, ("the_narrow_sea", "ship"): 1})


def test_F007_the_power_tokens_on_the_board(game):
    tokens = {a: s.power_token for a, s in game.areas.items() if s.power_token}
    assert tokens == {"stoney_sept": "lannister", "kings_landing": "lannister", "blackwater": "lannister",
                      "searoad_marches": "lannister"}


def test_ruling_400_the_eyries_force_is_arryns_garrison_and_no_neutral_force_is_left(game):
    eyrie = game.area("the_eyrie")
    assert (eyrie.garrison, eyrie.garrison_house, eyrie.neutral_force) == (6, None, None)
    for home in ("winterfell", "lannisport", "dragonstone"):
        assert game.area(home).garrison == 2
    assert [a for a, s in game.areas.items() if s.neutral_force] == []


def test_ruling_401_arryn_has_mother_of_dragons_units():
    board = board_named("feast")
    assert {u: board.unit_limit(u, "arryn") for u in ("footman", "knight", "ship", "siege_engine", "dragon")} == {
        "footman": 10, "knight": 5, "ship": 6, "siege_engine": 2, "dragon": 0}


def test_F008_maester_new_creates_the_scenario_and_every_report_names_it(tmp_path, capsys):
    code = main(["new", str(tmp_path / "g"), "--houses", ",".join(FOUR), "--expansion", AFFC, "--seed", "s"])
    assert code == 0, capsys.readouterr().err
    state = GameDir(tmp_path / "g").load_state()
    assert state.variant == AFFC and state.houses["arryn"].hand[0] == "bronze_yohn_royce_affc"
    for viewer in (None, "arryn"):
        assert "A Feast for Crows: four players" in render_report(state, [], viewer=viewer)
    assert GameState.from_toml(state.to_toml()) == state


def _affc_cards() -> dict:
    from importlib import resources

    from adjudicator.util.datafile import load_toml

    text = resources.files("adjudicator.game").joinpath("data/a_feast_for_crows/cards.toml").read_text("utf-8")
    return load_toml(text, "test-affc-cards")


def test_F020_the_scenarios_deck_i_holds_its_ten_cards():
    cards = _affc_cards()["westeros_card"]
    assert {c["id"]: c["copies"] for c in cards} == {
        "mustering_affc": 1, "rally_the_men": 2, "the_burden_of_power": 2, "famine": 1, "ironborn_raid": 1,
        "shifting_ambitions": 2, "new_information": 1}
    assert sum(c["copies"] for c in cards) == _affc_cards()["meta"]["westeros_cards"] == 10
    assert all(c["deck"] == 1 and c["set"] == "affc" for c in cards)
    assert [c["id"] for c in cards if not c["wildling_icon"]] == ["the_burden_of_power"]


def test_F030_the_objective_deck_has_28_cards_each_worth_points_to_every_house():
    data = _affc_cards()
    objectives = data["objective"]
    assert len(objectives) == len({o["id"] for o in objectives}) == data["meta"]["objectives"] == 28
    assert all(set(o["points"]) == set(FOUR) and all(0 <= p <= 4 for p in o["points"].values()) for o in objectives)
    assert {o["house"] for o in data["special_objective"]} == set(FOUR)



def test_F008_the_shipped_setup_seats_the_four_houses(tmp_path, capsys):
    code = main(["new", str(tmp_path / "g"), "--setup", AFFC, "--seed", "s"])
    assert code == 0, capsys.readouterr().err
    state = GameDir(tmp_path / "g").load_state()
    assert state.variant == AFFC and state.houses_in_play == FOUR and state.options["setup"] == "A Feast for Crows"
    assert state.area("the_eyrie").garrison == 6 and state.check() == []


def test_F009_robots_play_the_scenario_to_the_end_of_round_10_and_it_replays(tmp_path):
    from adjudicator.folder import audit
    from adjudicator.robots.simulate import simulate

    rounds: set[int] = set()
    r = simulate(4, 3, text=True, out=tmp_path / "g", expansion=AFFC, on_step=lambda s: rounds.add(s.round))
    assert r.problems == [] and r.winner is not None
    state = GameDir(tmp_path / "g").load_state()
    assert state.variant == AFFC and state.phase == "game_over"
    audit.reveal(tmp_path / "g")
    check = audit.replay(tmp_path / "g")
    assert check.ok, check.problems
